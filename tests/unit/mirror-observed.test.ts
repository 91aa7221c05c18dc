/**
 * Writes of the mirror tell their observers (live queries, the search index)
 * which records changed, however many arrive at once: Dexie names the keys
 * of a write of fewer than 50 values only, and "the whole table" for more,
 * which made the search index read every report again after each sync page.
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import type { RecordModel } from 'pocketbase';
import { afterEach, expect, test } from 'vitest';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { applyServerRecords } from '../../src/data/mirror/mirror.ts';

let db: ScmsDatabase;
afterEach(() => db?.close());

interface Node {
  from?: unknown;
  to?: unknown;
  l?: Node | null;
  r?: Node | null;
}

/** The keys named by a part, or 'ranges' when it names a range. */
function keysOf(node: Node | null | undefined, out: unknown[] = []): unknown[] | 'ranges' {
  if (!node || !('from' in node)) return out;
  if (node.from !== node.to) return 'ranges';
  out.push(node.from);
  const left = keysOf(node.l, out);
  if (left === 'ranges') return left;
  return keysOf(node.r, out);
}

test('a page of 500 server records is reported as its 500 keys, not as the whole table', async () => {
  db = new ScmsDatabase(`observed-${Date.now()}`);
  await db.open();
  const parts: ObservabilitySet[] = [];
  const listen = (p: ObservabilitySet) => void parts.push(p);
  Dexie.on.storagemutated.subscribe(listen);
  try {
    const records = Array.from(
      { length: 500 },
      (_, i) =>
        ({
          id: `r${String(i).padStart(14, '0')}`,
          created: '',
          updated: '',
          narative: 'x',
          incident_time: '2026-01-01 00:00:00.000Z',
          house: '',
        }) as unknown as RecordModel,
    );
    await applyServerRecords(db, 'reports', records);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const primary = parts.map((p) => p[`idb://${db.name}/reports/`]).filter(Boolean);
    expect(primary.length).toBeGreaterThan(0);
    const keys = primary.flatMap((tree) => {
      const k = keysOf(tree as unknown as Node);
      expect(k).not.toBe('ranges');
      return k as unknown[];
    });
    expect(new Set(keys).size).toBe(500);
  } finally {
    Dexie.on.storagemutated.unsubscribe(listen);
  }
});
