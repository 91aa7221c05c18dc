/**
 * The id alphabet, PocketBase's date format and the 'Limit Exceeded' words
 * exist once, in src/domain, and every user of them gets the same
 * thing: the outbox's ids, the demo seed's, the server's refusal of a fourth
 * concern (the generated hook library, loaded as goja loads it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHookLibs } from '../../scripts/pocketbase/hook-libs.ts';
import { demoId } from '../../scripts/seed/demo-ids.ts';
import { mulberry32 } from '../../scripts/seed/random.ts';
import { newRecordId } from '../../src/data/mirror/ids.ts';
import { pbDate as pullPbDate } from '../../src/data/sync/pull.ts';
import { LIMIT_EXCEEDED_MESSAGE } from '../../src/domain/callScript.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { RECORD_ID_ALPHABET, RECORD_ID_LENGTH, recordIdFrom } from '../../src/domain/recordId.ts';
import { loadHookLib } from '../support/hook-lib.ts';

const PB_ID = /^[a-z0-9]{15}$/;

describe('record ids', () => {
  it('are 15 characters of [a-z0-9], all 36 of them in use', () => {
    expect(RECORD_ID_LENGTH).toBe(15);
    expect([...RECORD_ID_ALPHABET].sort().join('')).toBe('0123456789abcdefghijklmnopqrstuvwxyz');
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      for (const id of [newRecordId(), recordIdFrom(Math.random), demoId(`key:${i}`)]) {
        expect(id).toMatch(PB_ID);
        for (const c of id) seen.add(c);
      }
    }
    expect(seen.size).toBe(36);
  });

  it('drawn from a seeded stream, are the same every time, and a random() near 1 stays in the alphabet', () => {
    expect(recordIdFrom(mulberry32(7))).toBe(recordIdFrom(mulberry32(7)));
    expect(recordIdFrom(mulberry32(7))).not.toBe(recordIdFrom(mulberry32(8)));
    expect(recordIdFrom(() => 0)).toBe('a'.repeat(15));
    expect(recordIdFrom(() => 0.999_999_999)).toBe('9'.repeat(15));
  });

  it('of the demo seed do not change (databases in the field were seeded with them)', () => {
    expect(demoId('pge:community')).toBe(demoId('pge:community'));
    expect(demoId('pge:community')).not.toBe(demoId('hpt:community'));
    expect(demoId('pge:community')).toBe('4vplgxkich5j3mn');
  });
});

describe('pbDate', () => {
  it("writes PocketBase's UTC format, and data/pull's is the same function", () => {
    expect(pbDate(new Date(Date.UTC(2026, 10, 22, 6, 0, 0, 5)))).toBe('2026-11-22 06:00:00.005Z');
    expect(pullPbDate).toBe(pbDate);
  });
});

describe("'Limit Exceeded'", () => {
  beforeAll(async () => {
    await buildHookLibs();
  });

  it("is the documented words, and the hooks' copy is the same constant (routes-call.test.ts sends a fourth concern)", () => {
    expect(LIMIT_EXCEEDED_MESSAGE).toBe('Limit Exceeded: Only three concerns can be selected at a time.');
    const generated = loadHookLib<{ LIMIT_EXCEEDED_MESSAGE: string }>('generated/call_script.js');
    expect(generated.LIMIT_EXCEEDED_MESSAGE).toBe(LIMIT_EXCEEDED_MESSAGE);
  });
});
