/**
 * Creates many records fast, as superuser, through PocketBase's batch API:
 * the large communities of the benchmarks and of the large-list journeys.
 */
import type PocketBase from 'pocketbase';

/** The schema migration allows 50 requests per batch. */
export const BATCH_SIZE = 50;

/**
 * Sends `rows` in batches of 50, `concurrency` batches in flight at once
 * (1 keeps the rows' order, so `created` and `updated` grow with it).
 */
export async function createInBatches(
  pb: PocketBase,
  collection: string,
  rows: readonly object[],
  concurrency = 4,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const part = rows.slice(next, next + BATCH_SIZE);
      next += BATCH_SIZE;
      const batch = pb.createBatch();
      for (const row of part) batch.collection(collection).create(row as Record<string, unknown>);
      await batch.send({ requestKey: null });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
