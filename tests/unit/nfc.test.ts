/**
 * Checkpoints on NFC tags (src/features/tours/nfc.ts): the texts read from a
 * tag's records, and reading and writing through the browser's NDEFReader
 * (a stand-in class here: desktop Chromium has none).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NFC_MESSAGES, nfcAvailable, readNfcTags, textsOfRecords, writeNfcTag } from '../../src/features/tours/nfc.ts';

const view = (text: string, encoding = 'utf-8') => {
  const bytes =
    encoding === 'utf-16le'
      ? new Uint8Array(new Uint16Array([...text].map((c) => c.charCodeAt(0))).buffer)
      : new TextEncoder().encode(text);
  return new DataView(bytes.buffer);
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('textsOfRecords', () => {
  it('reads text records in their encoding and URL records, and passes over the rest', () => {
    expect(
      textsOfRecords([
        { recordType: 'text', encoding: 'utf-8', data: view('scms-cp:abc:def') },
        { recordType: 'text', encoding: 'utf-16le', data: view('K7M4QX', 'utf-16le') },
        { recordType: 'url', data: view('https://example.test/x') },
        { recordType: 'mime', data: view('ignored') },
        { recordType: 'text', data: null },
        { recordType: 'text', encoding: 'no-such-encoding', data: view('x') },
      ]),
    ).toEqual(['scms-cp:abc:def', 'K7M4QX', 'https://example.test/x']);
  });
});

describe('with a browser that has Web NFC', () => {
  it('reads each tag held to the phone, and says when one cannot be read', async () => {
    const readers: FakeReader[] = [];
    class FakeReader {
      onreading: ((event: { message: { records: unknown[] } }) => void) | null = null;
      onreadingerror: (() => void) | null = null;
      scan = vi.fn(async () => {});
      write = vi.fn(async () => {});
      constructor() {
        readers.push(this);
      }
    }
    vi.stubGlobal('window', { NDEFReader: FakeReader });
    expect(nfcAvailable()).toBe(true);
    const texts: string[] = [];
    const errors: string[] = [];
    await readNfcTags(
      (text) => texts.push(text),
      (error) => errors.push(error.message),
      new AbortController().signal,
    );
    readers[0]!.onreading!({ message: { records: [{ recordType: 'text', encoding: 'utf-8', data: view('tag 1') }] } });
    readers[0]!.onreadingerror!();
    expect(texts).toEqual(['tag 1']);
    expect(errors).toEqual([NFC_MESSAGES.unreadable]);

    await writeNfcTag('scms-cp:abc:def');
    expect(readers[1]!.write).toHaveBeenCalledWith(
      { records: [{ recordType: 'text', data: 'scms-cp:abc:def' }] },
      {
        signal: undefined,
      },
    );
  });

  it('a refusal says how to allow NFC', async () => {
    class RefusingReader {
      onreading = null;
      onreadingerror = null;
      scan = async () => {
        throw Object.assign(new Error('denied'), { name: 'NotAllowedError' });
      };
      write = this.scan;
    }
    vi.stubGlobal('window', { NDEFReader: RefusingReader });
    const errors: string[] = [];
    await readNfcTags(
      () => {},
      (error) => errors.push(error.message),
      new AbortController().signal,
    );
    expect(errors).toEqual([NFC_MESSAGES.refused]);
    await expect(writeNfcTag('x')).rejects.toThrow(NFC_MESSAGES.refused);
  });

  it('without Web NFC there is nothing to read or write', async () => {
    vi.stubGlobal('window', {});
    expect(nfcAvailable()).toBe(false);
    await expect(writeNfcTag('x')).rejects.toThrow(NFC_MESSAGES.failed);
  });
});
