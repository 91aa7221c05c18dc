/**
 * src/data/mirror/ is the database on the device: this schema (db.ts), the
 * server's records written into it with the outbox's pending changes laid
 * over them (mirror.ts), the newest call per home kept in the same
 * transactions (latestCalls.ts), the live query the screens read it with
 * (useMirrorQuery.ts), the in-memory search index (searchIndex.ts), the ids
 * made on the device (ids.ts), Log out's wipe (wipe.ts) and the browser's
 * promise to keep it (storageKeep.ts). It knows nothing of the server: the
 * sync machinery (src/data/sync/) fills it.
 *
 * The local mirror: one IndexedDB database per signed-in user (so two
 * officers sharing a phone never see each other's queued work), holding the
 * community's records, the outbox and the sync bookkeeping.
 */
import Dexie, { type DBCore, type Middleware, type Table, type Transaction } from 'dexie';
import type { CollectionName, RecordsByCollection } from '../../api/records.ts';
import { homeSortKey } from '../../domain/homeSortKey.ts';
import { latestCallRows, type LatestCallRow } from './latestCalls.ts';
import type { LoadPageRow, LoadPagesOverlay } from './loadPages.ts';

/** A mirrored record; `_pending` marks local changes the server has not confirmed. */
export type MirrorRow<C extends CollectionName> = RecordsByCollection[C] & {
  collectionName?: string;
  _pending?: 1;
};

export type OutboxAction = 'create' | 'update' | 'delete';

export interface OutboxOperation {
  action: OutboxAction;
  collection: CollectionName;
  /** The record's id; client-generated for creates. */
  id: string;
  body: Record<string, unknown>;
  /** File fields, kept as Blobs while offline. */
  files?: Record<string, Blob[]>;
  /**
   * An update or delete of the homes directory: the values the changed
   * fields (a delete: the record's fields) held when the person started
   * editing. The server refuses the write as a conflict when one of them
   * changed since (src/data/sync/conflicts.ts). Entries queued before writes
   * carried it have none, and are applied as sent.
   */
  base?: Record<string, unknown>;
}

/**
 * 'failed': refused by the server, parked for the person to retry or
 * discard. 'conflict': changes someone else overtook while this device was
 * offline, kept for the person to decide (never sent as they are).
 */
export type OutboxStatus = 'pending' | 'failed' | 'conflict';

/** One field of a record that someone else changed since the person's base. */
export interface FieldConflict {
  field: string;
  /** The value the person started from. */
  base: unknown;
  /** The value the person wrote; null for a delete. */
  mine: unknown;
  /** The value the server holds now. */
  theirs: unknown;
  /** Who changed it and when (server time, PocketBase date text); empty when the server does not know. */
  byId: string;
  byName: string;
  at: string;
}

/**
 * A write of one record that could not go as it was: 'changed' (an update
 * or delete whose fields someone else changed since) or 'deleted' (an update
 * of a record someone else deleted since: the person's values are kept in
 * `record` to add it again).
 */
export interface RecordConflict {
  kind: 'changed' | 'deleted';
  collection: CollectionName;
  id: string;
  action: OutboxAction;
  fields: FieldConflict[];
  /** 'deleted': the record as the device last showed it, with the person's changes. */
  record?: Record<string, unknown>;
  /** What the record is called, as the device last showed it ('12 Palm Way', 'Yolanda Vasquez', '+15615550142'). */
  label?: string;
  /** 'deleted': who deleted it and when (from the server's history), when known. */
  deletedBy?: { name: string; at: string };
}

export interface OutboxEntry {
  /** Auto-increment: the order of creation, which is the order of replay. */
  seq?: number;
  userId: string;
  /** Device time the entry was made (ISO). */
  createdAt: string;
  /** What the user did, in words, for the sync panel. */
  label: string;
  /** Sent together: as one request, or as one transactional batch. */
  ops: OutboxOperation[];
  /** `collection:id` of every record the ops write (indexed: which entries touch a record). */
  recordKeys: string[];
  status: OutboxStatus;
  attempts: number;
  /** Epoch ms before which the entry is not retried (back-off). */
  nextAttemptAt: number;
  /** Set before a request leaves the device: a later attempt first checks whether it arrived. */
  sentAt?: number;
  error?: string;
  fieldErrors?: Record<string, string>;
  /** status 'conflict': what could not go, record by record. */
  conflicts?: RecordConflict[];
  /** status 'conflict': the seq of the entry it was set aside from. */
  origin?: number;
}

export interface SyncStateRow {
  key: string;
  value: unknown;
}

/**
 * The mirror's schema, version by version. A phone that updates the app
 * while work is queued opens its old database with the new version: Dexie
 * runs the steps in order and keeps every table it is not told to change,
 * the outbox above all (tests/unit/db-upgrade.test.ts opens a database the
 * previous version created). Never edit a published version: add one.
 */
const SCHEMA_VERSIONS: ReadonlyArray<{
  version: number;
  stores: Record<string, string | null>;
  /** Fills what the new version adds from what the database already holds. */
  upgrade?: (tx: Transaction) => Promise<void>;
}> = [
  {
    version: 1,
    stores: {
      communities: 'id',
      users: 'id, community',
      houses: 'id, address, community',
      residents: 'id, house',
      phones: 'id, house',
      concerns: 'id, community',
      reports: 'id, incident_time, created, house',
      calls: 'id, house, created',
      outbox: '++seq, status, *recordKeys',
      syncState: 'key',
    },
  },
  {
    // The attempts of every call ('Call history' per home, read by
    // house) and the community's call settings (quiet hours). They come with
    // the next pull: a collection without a cursor has its first load then.
    version: 2,
    stores: {
      call_attempts: 'id, house, call',
      call_settings: 'id, community',
    },
  },
  {
    // The newest call of each home (src/data/mirror/latestCalls.ts; `id` is the
    // home's), so the Homes cards no longer read every call ever placed.
    // Filled here from the calls the phone already holds; kept in step by
    // mirror.ts after that.
    version: 3,
    stores: { latest_calls: 'id, call' },
    upgrade: async (tx) => {
      const calls = (await tx.table('calls').toArray()) as Array<MirrorRow<'calls'>>;
      await tx.table('latest_calls').bulkPut(latestCallRows(calls));
    },
  },
  {
    // The server-written history of every change of a home, its residents
    // and phones (the History sheet of a home, read by house). It comes with
    // the next pull: a collection without a cursor has its first load then.
    version: 4,
    stores: { home_changes: 'id, house' },
  },
  {
    // Homes by their place in the list (src/domain/homeSortKey.ts): the Homes
    // screen reads its top straight from here while the search index loads.
    // Every home written from now on carries its key (houseSortKeys below);
    // the homes the phone holds get theirs here.
    version: 5,
    stores: { houses: 'id, address, community, sort_key' },
    upgrade: async (tx) => {
      await tx
        .table('houses')
        .toCollection()
        .modify((house: MirrorRow<'houses'>) => {
          house.sort_key = homeSortKey(house);
        });
    },
  },
  {
    // A first load's pages as they came, until they are written as rows
    // (loadPages.ts): a new phone has the whole community after a few dozen
    // writes instead of a row per record.
    version: 6,
    stores: { load_pages: 'key' },
  },
  {
    // Checkpoint tours: the checkpoints and tours (read whole, they are
    // few), the walks of rounds (read by tour and round) and their scans
    // (read by walk, and by time for a period's figures). They come with the next pull: a collection without a
    // cursor has its first load then.
    version: 7,
    stores: {
      checkpoints: 'id, community',
      tours: 'id, community',
      tour_walks: 'id, [tour+round_start], round_start',
      checkpoint_scans: 'id, walk, checkpoint, scanned_at',
    },
  },
  {
    // Officer safety: the community's safety settings, the shifts on duty
    // (read by whether they are open, and by officer), the alerts (read by
    // whether they are on) and each step taken on one (read by alert). They
    // come with the next pull: a collection without a cursor has its first
    // load then.
    version: 8,
    stores: {
      safety_settings: 'id, community',
      duty_shifts: 'id, officer, ended_at',
      alerts: 'id, ended_at',
      alert_events: 'id, alert',
    },
  },
];

/**
 * Every home written to the mirror carries its sort key: the server's rule
 * run on the device, for the server's copies and the device's own changes
 * alike (an address edited offline moves the home at once), in the one
 * place every write passes.
 */
const houseSortKeys: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'houseSortKeys',
  create: (down) => ({
    ...down,
    table: (name) => {
      const table = down.table(name);
      if (name !== 'houses') return table;
      return {
        ...table,
        mutate: (request) => {
          if (request.type === 'add' || request.type === 'put')
            for (const house of request.values as Array<MirrorRow<'houses'>>) house.sort_key = homeSortKey(house);
          return table.mutate(request);
        },
      };
    },
  }),
};

/**
 * Every read and write of a table passes through the first load's pages
 * while there are some (loadPages.ts, pagedTable.ts: loaded only then), so
 * the screens read the tables and the pages as one mirror.
 */
function firstLoadPages(db: ScmsDatabase): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'firstLoadPages',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        const now = () => db.pages?.wrap(table, name) ?? table;
        return {
          ...table,
          get: (req) => now().get(req),
          getMany: (req) => now().getMany(req),
          query: (req) => now().query(req),
          count: (req) => now().count(req),
          openCursor: (req) => now().openCursor(req),
          mutate: (req) => now().mutate(req),
        };
      },
    }),
  };
}

export const DATABASE_VERSION = SCHEMA_VERSIONS.at(-1)!.version;

export class ScmsDatabase extends Dexie {
  communities!: Table<MirrorRow<'communities'>, string>;
  users!: Table<MirrorRow<'users'>, string>;
  houses!: Table<MirrorRow<'houses'>, string>;
  residents!: Table<MirrorRow<'residents'>, string>;
  phones!: Table<MirrorRow<'phones'>, string>;
  concerns!: Table<MirrorRow<'concerns'>, string>;
  reports!: Table<MirrorRow<'reports'>, string>;
  calls!: Table<MirrorRow<'calls'>, string>;
  call_attempts!: Table<MirrorRow<'call_attempts'>, string>;
  call_settings!: Table<MirrorRow<'call_settings'>, string>;
  latest_calls!: Table<LatestCallRow, string>;
  home_changes!: Table<MirrorRow<'home_changes'>, string>;
  checkpoints!: Table<MirrorRow<'checkpoints'>, string>;
  tours!: Table<MirrorRow<'tours'>, string>;
  tour_walks!: Table<MirrorRow<'tour_walks'>, string>;
  checkpoint_scans!: Table<MirrorRow<'checkpoint_scans'>, string>;
  safety_settings!: Table<MirrorRow<'safety_settings'>, string>;
  duty_shifts!: Table<MirrorRow<'duty_shifts'>, string>;
  alerts!: Table<MirrorRow<'alerts'>, string>;
  alert_events!: Table<MirrorRow<'alert_events'>, string>;
  outbox!: Table<OutboxEntry, number>;
  syncState!: Table<SyncStateRow, string>;
  load_pages!: Table<LoadPageRow, string>;
  /** The records of a first load still only in its pages (loadPages.ts); null on a phone that has none. */
  pages: LoadPagesOverlay | null = null;

  constructor(readonly userId: string) {
    super(databaseName(userId));
    for (const { version, stores, upgrade } of SCHEMA_VERSIONS) {
      const declared = this.version(version).stores(stores);
      if (upgrade) declared.upgrade(upgrade);
    }
    this.use(houseSortKeys);
    this.use(firstLoadPages(this));
    // Every open (sticky): a reload before the pages were unpacked reads them back.
    this.on(
      'ready',
      async (vip) => {
        this.pages?.reset();
        if ((await vip.table('load_pages').count()) > 0)
          await (await import('./loadPageStore.ts')).openLoadPages(vip, this);
      },
      true,
    );
  }

  mirror<C extends CollectionName>(collection: C): Table<MirrorRow<C>, string> {
    return this.table(collection) as Table<MirrorRow<C>, string>;
  }
}

export function recordKey(collection: CollectionName, id: string): string {
  return `${collection}:${id}`;
}

export function databaseName(userId: string): string {
  return `scms-${userId}`;
}

const open = new Map<string, ScmsDatabase>();

/** The database of a user; one instance per user per JS context. */
export function userDatabase(userId: string): ScmsDatabase {
  let db = open.get(userId);
  if (!db) {
    db = new ScmsDatabase(userId);
    open.set(userId, db);
  }
  return db;
}

/** Closes a user's database (tests simulate a reload with this). */
export function closeUserDatabase(userId: string): void {
  open.get(userId)?.close();
  open.delete(userId);
}

export async function getSyncState<T>(db: ScmsDatabase, key: string): Promise<T | undefined> {
  return (await db.syncState.get(key))?.value as T | undefined;
}

export async function setSyncState(db: ScmsDatabase, key: string, value: unknown): Promise<void> {
  await db.syncState.put({ key, value });
}
