/**
 * Writes the demo data (demo-data.ts) into PocketBase, creating only the
 * records that are missing. Every record has a fixed id, so a second run finds
 * them all and creates nothing; a record deleted in the demo comes back on
 * the next start. Existing records are never changed.
 *
 * The client must be signed in as a superuser: API rules do not let anyone
 * else create users, communities or records for other people, and the users
 * hook only keeps the given password for a superuser's create.
 */
import type PocketBase from 'pocketbase';
import { buildDemoData, SEED_ORDER, type SeedCollection, type SeedRecord } from './demo-data.ts';

export interface CollectionCount {
  created: number;
  /** Already there before this run. */
  present: number;
}

export interface SeedSummary {
  counts: Record<SeedCollection, CollectionCount>;
  createdTotal: number;
  presentTotal: number;
  durationMs: number;
}

/** The migration allows batches of up to 50 requests. */
const BATCH_SIZE = 50;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Which of these ids already exist in the collection (one query per 50 ids). */
async function existingIds(pb: PocketBase, collection: SeedCollection, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks(ids, BATCH_SIZE)) {
    const filter = part.map((id, i) => pb.filter(`id = {:id${i}}`, { [`id${i}`]: id })).join(' || ');
    const records = await pb.collection(collection).getFullList({ filter, fields: 'id', requestKey: null });
    for (const record of records) found.add(record.id);
  }
  return found;
}

/** Creates the records in transactional batches; sequential, so relations resolve. */
async function createAll(pb: PocketBase, collection: SeedCollection, records: SeedRecord[]): Promise<void> {
  for (const part of chunks(records, BATCH_SIZE)) {
    const batch = pb.createBatch();
    for (const record of part) batch.collection(collection).create(record);
    await batch.send({ requestKey: null });
  }
}

/**
 * The seed's last step: the `demo_seed` fact the readiness hook waits for
 * (pb_hooks/lib/readiness.js). Until it is written, /api/health answers 503
 * and the login page is not handed the demo sign-in.
 */
export async function markDemoSeeded(pb: PocketBase, records: number): Promise<void> {
  const value = { records, at: new Date().toISOString() };
  const existing = await pb
    .collection('scms_meta')
    .getFirstListItem(pb.filter('key = {:key}', { key: 'demo_seed' }))
    .catch(() => null);
  if (existing) await pb.collection('scms_meta').update(existing.id, { value });
  else await pb.collection('scms_meta').create({ key: 'demo_seed', value });
}

/** `communityKeys`: only these demo communities (demo-data.ts); default all. */
export async function seedDemo(
  pb: PocketBase,
  options: { now?: Date; communityKeys?: readonly string[] } = {},
): Promise<SeedSummary> {
  const started = performance.now();
  const data = buildDemoData(options.now ?? new Date(), options.communityKeys);
  const counts = {} as Record<SeedCollection, CollectionCount>;
  for (const collection of SEED_ORDER) {
    const wanted = data[collection];
    const present = await existingIds(
      pb,
      collection,
      wanted.map((r) => r.id),
    );
    const missing = wanted.filter((r) => !present.has(r.id));
    await createAll(pb, collection, missing);
    counts[collection] = { created: missing.length, present: wanted.length - missing.length };
  }
  const values = Object.values(counts);
  await markDemoSeeded(
    pb,
    values.reduce((sum, c) => sum + c.created + c.present, 0),
  );
  return {
    counts,
    createdTotal: values.reduce((sum, c) => sum + c.created, 0),
    presentTotal: values.reduce((sum, c) => sum + c.present, 0),
    durationMs: Math.round(performance.now() - started),
  };
}
