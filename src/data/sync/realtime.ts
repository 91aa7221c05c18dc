/**
 * Realtime: the server pushes creates, updates and deletes of the
 * community's records (API rules limit events to what the user may see).
 * Every (re)connect runs an incremental pull to fill the gap while the
 * connection was down.
 */
import type PocketBase from 'pocketbase';
import type { RecordSubscription, RecordModel, UnsubscribeFunc } from 'pocketbase';
import { MIRRORED_COLLECTIONS, type CollectionName } from '../../api/records.ts';
import type { ScmsDatabase } from '../mirror/db.ts';
import { applyServerRecords, removeServerRecords } from '../mirror/mirror.ts';

/** Every mirrored collection but the community's own record, which is pulled, not followed live. */
export const REALTIME_COLLECTIONS: readonly CollectionName[] = MIRRORED_COLLECTIONS.filter((c) => c !== 'communities');

export async function applyRealtimeEvent(
  db: ScmsDatabase,
  collection: CollectionName,
  event: RecordSubscription<RecordModel>,
): Promise<void> {
  if (event.action === 'delete') await removeServerRecords(db, collection, [event.record.id]);
  else await applyServerRecords(db, collection, [event.record]);
}

/**
 * Subscribes to the collections; `onConnect` runs after every connect and
 * reconnect. Returns a function that unsubscribes from all of them.
 */
export async function subscribeRealtime(
  pb: PocketBase,
  db: ScmsDatabase,
  onConnect: () => void,
  onError: (error: unknown) => void = () => undefined,
): Promise<UnsubscribeFunc> {
  const unsubscribers: UnsubscribeFunc[] = [];
  // Events are applied one after another, in the order they arrived.
  let queue = Promise.resolve();
  try {
    unsubscribers.push(await pb.realtime.subscribe('PB_CONNECT', () => onConnect()));
    for (const collection of REALTIME_COLLECTIONS) {
      unsubscribers.push(
        await pb.collection(collection).subscribe('*', (event) => {
          queue = queue.then(() => applyRealtimeEvent(db, collection, event)).catch(onError);
        }),
      );
    }
  } catch (error) {
    await Promise.all(unsubscribers.map((u) => u().catch(() => undefined)));
    throw error;
  }
  return async () => {
    await Promise.all(unsubscribers.map((u) => u().catch(() => undefined)));
  };
}
