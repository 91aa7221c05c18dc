/**
 * The first thing a new phone asks for: the top of the Homes list, in the
 * list's own order (the server keeps each home's `sort_key`, from
 * src/domain/homeSortKey.ts, the rule the app sorts with), with those
 * homes' residents and phones, written in one transaction. The Homes screen
 * shows them at once and fills in below as the rest of the first load
 * arrives (pull.ts): every home that comes later sorts after these, so
 * nothing above the fold moves.
 *
 * Three small requests through the record API, so the rules decide what
 * comes exactly as for every other read.
 */
import type { RecordModel } from 'pocketbase';
import { getSyncState, setSyncState, type ScmsDatabase } from '../mirror/db.ts';
import { applyServerRecords } from '../mirror/mirror.ts';
import type { PullContext, RequestSlots } from './pull.ts';

/** Homes in the first request: more than a phone's first screen or a desk's table shows. */
export const TOP_OF_HOMES = 50;
const TOP_OF_HOMES_KEY = 'houses:top';

/** Whether the mirror holds the top of the Homes list (the rest of a first load may still be arriving). */
export async function hasTopOfHomes(db: ScmsDatabase): Promise<boolean> {
  return (await getSyncState<boolean>(db, TOP_OF_HOMES_KEY)) === true;
}

/** Reads the top of the Homes list and its people into the mirror; returns how many homes came. */
export async function loadTopOfHomes(ctx: PullContext, slots: RequestSlots): Promise<number> {
  const houses = await slots.run(() =>
    ctx.pb.collection('houses').getList(1, TOP_OF_HOMES, { sort: 'sort_key,id', skipTotal: true, requestKey: null }),
  );
  const ids = houses.items.map((house) => house.id);
  const { residents, phones } = ids.length > 0 ? await peopleOf(ctx, slots, ids) : { residents: [], phones: [] };
  const { db } = ctx;
  await db.transaction('rw', [db.houses, db.residents, db.phones, db.outbox, db.syncState], async () => {
    await applyServerRecords(db, 'houses', houses.items);
    await applyServerRecords(db, 'residents', residents);
    await applyServerRecords(db, 'phones', phones);
    await setSyncState(db, TOP_OF_HOMES_KEY, true);
  });
  ctx.onTopOfHomes?.();
  return ids.length;
}

/** The residents and the phones of these homes, side by side. */
async function peopleOf(
  ctx: PullContext,
  slots: RequestSlots,
  houseIds: string[],
): Promise<{ residents: RecordModel[]; phones: RecordModel[] }> {
  // 50 ids make a filter of about 1,300 characters (PocketBase takes up to 3,500).
  const params = Object.fromEntries(houseIds.map((id, i) => [`h${i}`, id]));
  const filter = ctx.pb.filter(houseIds.map((_, i) => `house = {:h${i}}`).join(' || '), params);
  const all = (collection: 'residents' | 'phones') =>
    slots.run(() => ctx.pb.collection(collection).getFullList({ filter, batch: 500, requestKey: null }));
  const [residents, phones] = await Promise.all([all('residents'), all('phones')]);
  return { residents, phones };
}
