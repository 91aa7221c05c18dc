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
 * reconnect, once the server follows every collection for this device.
 * Returns a function that unsubscribes from all of them.
 *
 * The collections come first and the connect listener last: the SDK sends
 * the subscriptions one request per call, and a gap-filling pull that ran
 * at the first connect (before the later collections were followed) could
 * read a collection before a change and miss that change's event too. On a
 * reconnect the SDK sends every subscription before it calls the listener.
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
    for (const collection of REALTIME_COLLECTIONS) {
      unsubscribers.push(
        await pb.collection(collection).subscribe('*', (event) => {
          queue = queue.then(() => applyRealtimeEvent(db, collection, event)).catch(onError);
        }),
      );
    }
    unsubscribers.push(await pb.realtime.subscribe('PB_CONNECT', () => onConnect()));
  } catch (error) {
    await Promise.all(unsubscribers.map((u) => u().catch(() => undefined)));
    throw error;
  }
  // The first connect came before the listener: its gap is filled now, with every collection followed.
  onConnect();
  return async () => {
    await Promise.all(unsubscribers.map((u) => u().catch(() => undefined)));
  };
}
