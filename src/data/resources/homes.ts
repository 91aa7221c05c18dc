/**
 * src/data/resources/ holds one module per resource, its reads (hooks over
 * the mirror, plain queries for tests and benchmarks) and its writes (the
 * outbox's, or online-only) together: homes (this one), reports, house
 * checks, calls (with callSettings.ts and callHistory.ts, which load with
 * their sheets), users, concerns, the community, activity and a home's
 * history. The features read and write only through them.
 *
 * Homes (docs/product.md#homes): the list with their residents and phones
 * from the mirror's search index, a home's reports count and first phone
 * number, and the offline writes (add or update a home with its residents
 * and phones, delete a home), each one outbox entry. The mirror shows a
 * write at once; replay sends it later. Plain async functions of the
 * database sit beside the hooks, so the benchmarks and tests measure the
 * same code the screens run.
 */
import { useMemo } from 'react';
import type { HouseRecord, PhoneRecord, ResidentRecord } from '../../api/records.ts';
import type { SignedInUser } from '../auth.ts';
import { useSyncEngine } from '../DataProvider.tsx';
import { useSearchIndex } from '../hooks.ts';
import type { MirrorRow, OutboxOperation, ScmsDatabase } from '../mirror/db.ts';
import { newRecordId } from '../mirror/ids.ts';
import type { LatestCallRow } from '../mirror/latestCalls.ts';

export type { LatestCallRow };
import { searchIndexOf } from '../mirror/searchIndex.ts';
import { useMirrorQuery } from '../mirror/useMirrorQuery.ts';
import { changeOf, deleteOf } from '../sync/conflicts.ts';
import { enqueue } from '../sync/outbox.ts';
import { TOP_OF_HOMES } from '../sync/topOfHomes.ts';

export interface HouseWithPeople {
  house: MirrorRow<'houses'>;
  residents: ResidentRecord[];
  phones: PhoneRecord[];
  /** The home's newest call, when it was ever called (the card says how it went). */
  latestCall?: LatestCallRow;
}

/**
 * Homes in address order (street, number, apt), with their residents and
 * phones (oldest first, so the first is the one the forms edit first),
 * filtered by the list search: answered by the in-memory search index.
 */
export async function queryHouses(db: ScmsDatabase, search = ''): Promise<HouseWithPeople[]> {
  const index = searchIndexOf(db);
  await index.ready('homes');
  return index.homes.search(search);
}

/** Homes with their residents and phones in address order, filtered by the list search; undefined while loading. */
export function useHouses(search = ''): HouseWithPeople[] | undefined {
  const { index, version } = useSearchIndex('homes');
  return useMemo(() => (version < 0 ? undefined : index.homes.search(search)), [index, version, search]);
}

/**
 * The top of the Homes list in address order, read straight from the
 * mirror by its sort key (src/domain/homeSortKey.ts, the index's own order):
 * what the screen shows while the search index still loads every home, its
 * residents and phones (an offline start, or the first visit of a session,
 * at 20,000 homes takes over a second). As many homes as a new phone loads
 * first (src/data/sync/topOfHomes.ts). Undefined while not asked for.
 */
export function useTopHomes(enabled: boolean): HouseWithPeople[] | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(
    db,
    ['houses', 'residents', 'phones', 'latest_calls'],
    async () => (enabled ? topHomes(db) : undefined),
    [enabled],
  );
}

export async function topHomes(db: ScmsDatabase, count = TOP_OF_HOMES): Promise<HouseWithPeople[]> {
  const houses = await db.houses.orderBy('sort_key').limit(count).toArray();
  const ids = houses.map((house) => house.id);
  // One keyed read per home, all at once, oldest first as the index keeps them: `anyOf`
  // walks a cursor, one main-thread turn per step, and took 0.4 s beside the index's load.
  const [residents, phones, latestCalls] = await Promise.all([
    Promise.all(ids.map((id) => db.residents.where('house').equals(id).sortBy('created'))),
    Promise.all(ids.map((id) => db.phones.where('house').equals(id).sortBy('created'))),
    db.latest_calls.bulkGet(ids),
  ]);
  return houses.map((house, i) => ({
    house,
    residents: residents[i]!,
    phones: phones[i]!,
    latestCall: latestCalls[i],
  }));
}

/** The changes queued for a home: its fields, its residents and phones added, changed or removed, its photo. */
export interface HomeChanges {
  house: Partial<Omit<HouseRecord, 'id' | 'created' | 'updated' | 'community' | 'image' | 'pending_call_concerns_ids'>>;
  /** With `id`: a saved one to update (only the fields the person changed need be given); without: a new one. */
  residents?: Array<Partial<Pick<ResidentRecord, 'first_name' | 'last_name' | 'owner'>> & { id?: string }>;
  phones?: Array<Partial<Pick<PhoneRecord, 'phone_number' | 'primary' | 'type' | 'do_not_call'>> & { id?: string }>;
  /** Saved residents and phones of the home the user removed. */
  removed?: { residents?: readonly string[]; phones?: readonly string[] };
  /** A new photo; `null` takes the home's photo away. */
  image?: Blob | null;
}

/** A home as the person saw it when they started editing: the base of every change they make to it. */
export interface HomeSnapshot {
  house: HouseRecord;
  residents: readonly ResidentRecord[];
  phones: readonly PhoneRecord[];
}

async function mirrorSnapshot(db: ScmsDatabase, houseId: string): Promise<HomeSnapshot | undefined> {
  const house = await db.houses.get(houseId);
  if (!house) return undefined;
  const [residents, phones] = await Promise.all([
    db.residents.where('house').equals(houseId).toArray(),
    db.phones.where('house').equals(houseId).toArray(),
  ]);
  return { house, residents, phones };
}

/**
 * Adds a home, or updates one (houseId given), with its residents and
 * phones, as one entry sent as one batch so they land together (docs/product.md#the-home-form:
 * residents only when both names are filled, phones only when a number is;
 * a saved one is updated, a new one created, a removed one deleted).
 *
 * An update sends only what changed against `started` (the home as the
 * person saw it when they opened the form; the mirror's copy when not
 * given), with those values as its base, so the server merges it with other
 * people's changes field by field and refuses it when someone changed the
 * same field since (src/data/sync/conflicts.ts). Nothing changed: nothing queued.
 * Returns the home's id.
 */
export async function queueSaveHome(
  db: ScmsDatabase,
  user: SignedInUser,
  form: HomeChanges,
  houseId?: string,
  started?: HomeSnapshot,
): Promise<string> {
  const id = houseId ?? newRecordId();
  const snapshot = houseId ? (started ?? (await mirrorSnapshot(db, houseId))) : undefined;
  const ops: OutboxOperation[] = [];
  if (!houseId) {
    ops.push({ action: 'create', collection: 'houses', id, body: { ...form.house, community: user.community } });
  } else {
    const change = changeOf('houses', id, form.house, snapshot?.house);
    if (change || form.image !== undefined)
      ops.push(change ?? { action: 'update', collection: 'houses', id, body: {}, base: {} });
  }
  if (form.image) ops[0]!.files = { image: [form.image] };
  // A file field is emptied by an empty name, as the server stores a home without a photo; the photo is not among the fields whose base is checked.
  else if (form.image === null && houseId) ops[0]!.body = { ...ops[0]!.body, image: '' };
  const person = (
    collection: 'residents' | 'phones',
    { id: saved, ...fields }: { id?: string } & Record<string, unknown>,
    savedRows: ReadonlyArray<ResidentRecord | PhoneRecord> = [],
  ): OutboxOperation | null =>
    saved
      ? changeOf(
          collection,
          saved,
          fields,
          savedRows.find((row) => row.id === saved),
        )
      : { action: 'create', collection, id: newRecordId(), body: { ...fields, house: id } };
  const ready = (op: OutboxOperation | null) => op && ops.push(op);
  for (const resident of form.residents ?? []) {
    if (resident.id || (resident.first_name?.trim() && resident.last_name?.trim()))
      ready(person('residents', resident, snapshot?.residents));
  }
  for (const phone of form.phones ?? []) {
    if (phone.id || phone.phone_number?.trim()) ready(person('phones', phone, snapshot?.phones));
  }
  if (houseId) {
    for (const table of ['residents', 'phones'] as const) {
      const saved: ReadonlyArray<{ id: string }> = snapshot?.[table] ?? [];
      for (const removed of form.removed?.[table] ?? [])
        ops.push(
          deleteOf(
            table,
            removed,
            saved.find((row) => row.id === removed),
          ),
        );
    }
  }
  if (ops.length === 0) return id;
  const address = form.house.address ?? (await db.houses.get(id))?.address ?? '';
  await enqueue(db, { userId: user.id, label: `${houseId ? 'Update home' : 'Add home'}: ${address}`, ops });
  return id;
}

/**
 * Reports the mirror holds for a home. A home with reports cannot be
 * deleted (the reports keep their house; the server refuses too), so the
 * screen can say so at once; the mirror may hold only recent reports, so
 * 0 here still leaves the last word to the server.
 */
export async function homeReportCount(db: ScmsDatabase, houseId: string): Promise<number> {
  return db.reports.where('house').equals(houseId).count();
}

/**
 * Deletes a home. The mirror hides it at once; the server removes its
 * residents and phones with it (cascade), or refuses a home with reports,
 * and the entry is then parked with the server's message.
 */
export async function queueDeleteHome(
  db: ScmsDatabase,
  user: SignedInUser,
  house: Pick<HouseRecord, 'id' | 'address'>,
): Promise<void> {
  await enqueue(db, {
    userId: user.id,
    label: `Delete home: ${house.address}`,
    ops: [deleteOf('houses', house.id, await db.houses.get(house.id))],
  });
}

/** The home's primary phone, else its first (oldest). */
export function primaryPhone(phones: readonly PhoneRecord[]): PhoneRecord | undefined {
  const oldestFirst = [...phones].sort((a, b) => a.created.localeCompare(b.created));
  return oldestFirst.find((p) => p.primary) ?? oldestFirst[0];
}

/** How many reports the mirror holds for a home (undefined while counting, or with no home). */
export function useHomeReportCount(houseId: string | undefined): number | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['reports'], async () => (houseId ? homeReportCount(db, houseId) : undefined), [houseId]);
}

/** The phone number a report about the home records: its primary phone's, else its first's ('' without one). */
export async function housePhoneNumber(db: ScmsDatabase, houseId: string): Promise<string> {
  return primaryPhone(await db.phones.where('house').equals(houseId).toArray())?.phone_number ?? '';
}

/** The first resident of a home (the report's resident), oldest first. */
export async function firstResident(db: ScmsDatabase, houseId: string): Promise<ResidentRecord | undefined> {
  const residents = await db.residents.where('house').equals(houseId).toArray();
  return residents.sort((a, b) => a.created.localeCompare(b.created))[0];
}
