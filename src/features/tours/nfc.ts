/**
 * Checkpoints on NFC tags, where the browser has Web NFC (Chrome on
 * Android): a manager writes a checkpoint's QR text to a tag, and an
 * officer's phone reads it back as a scan (method 'nfc'), matched by the
 * same rule as a camera's text (src/domain/checkpointCode.ts). Elsewhere
 * nothing of this shows: the QR code and the typed code work everywhere.
 */

/** What Web NFC hands over of a record (the part read here). */
export interface NdefRecordLike {
  recordType: string;
  encoding?: string;
  data?: DataView | null;
}

interface NdefReaderLike {
  scan(options?: { signal?: AbortSignal }): Promise<void>;
  write(
    message: { records: Array<{ recordType: string; data: string }> },
    options?: { signal?: AbortSignal },
  ): Promise<void>;
  onreading: ((event: { message: { records: readonly NdefRecordLike[] } }) => void) | null;
  onreadingerror: (() => void) | null;
}

type NdefReaderClass = new () => NdefReaderLike;

function readerClass(): NdefReaderClass | null {
  if (typeof window === 'undefined') return null;
  return ((window as unknown as { NDEFReader?: NdefReaderClass }).NDEFReader ?? null) as NdefReaderClass | null;
}

export function nfcAvailable(): boolean {
  return readerClass() !== null;
}

export const NFC_MESSAGES = {
  refused: 'NFC was refused. Allow NFC for this site in the browser, or scan the code.',
  unreadable: 'This tag could not be read. Hold the phone still against it, or scan the code.',
  failed: 'The tag could not be written. Hold the phone against the tag until it says so.',
} as const;

/** The texts of a message's text and URL records (a tag written elsewhere may hold either). */
export function textsOfRecords(records: readonly NdefRecordLike[]): string[] {
  const texts: string[] = [];
  for (const record of records) {
    if (!record.data || (record.recordType !== 'text' && record.recordType !== 'url')) continue;
    const label = record.recordType === 'text' ? (record.encoding ?? 'utf-8') : 'utf-8';
    try {
      texts.push(new TextDecoder(label).decode(record.data));
    } catch {
      // An encoding the browser does not know: not a checkpoint's tag.
    }
  }
  return texts;
}

function problem(error: unknown, fallback: string): Error {
  return new Error((error as { name?: string } | null)?.name === 'NotAllowedError' ? NFC_MESSAGES.refused : fallback);
}

/** Reads tags until `signal` aborts; each tag's texts go to `onText`, a failure to `onError`. */
export async function readNfcTags(
  onText: (text: string) => void,
  onError: (error: Error) => void,
  signal: AbortSignal,
): Promise<void> {
  const Reader = readerClass();
  if (!Reader) return;
  const reader = new Reader();
  reader.onreading = (event) => {
    for (const text of textsOfRecords(event.message.records)) onText(text);
  };
  reader.onreadingerror = () => onError(new Error(NFC_MESSAGES.unreadable));
  try {
    await reader.scan({ signal });
  } catch (error) {
    if (!signal.aborted) onError(problem(error, NFC_MESSAGES.unreadable));
  }
}

/** Writes `text` (a checkpoint's QR text) to the next tag held to the phone. */
export async function writeNfcTag(text: string, signal?: AbortSignal): Promise<void> {
  const Reader = readerClass();
  if (!Reader) throw new Error(NFC_MESSAGES.failed);
  try {
    await new Reader().write({ records: [{ recordType: 'text', data: text }] }, { signal });
  } catch (error) {
    throw problem(error, NFC_MESSAGES.failed);
  }
}
