/**
 * Live queries for the screens: they read the local mirror only (never the
 * server), so every list works offline and updates as soon as a pull, a
 * realtime event or a local write changes the mirror.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncExternalStore } from 'react';
import type { ConcernRecord, HouseRecord, PhoneRecord, ReportRecord, ResidentRecord, UserRecord } from '../api/records.ts';
import { searchList } from '../domain/search.ts';
import { reportTypeLabel } from '../domain/reportTypes.ts';
import type { MirrorRow, OutboxEntry } from './db.ts';
import { useSyncEngine } from './DataProvider.tsx';
import { LAST_SYNC_KEY, pbDate } from './pull.ts';

export interface HouseWithPeople {
  house: MirrorRow<'houses'>;
  residents: ResidentRecord[];
  phones: PhoneRecord[];
}

export const houseSearchFields = (h: HouseRecord) => [h.address, h.apt, h.city, h.state, h.zip, h.security_code, h.member_number];

/** Homes with their residents and phones, filtered by the list search; undefined while loading. */
export function useHouses(search = ''): HouseWithPeople[] | undefined {
  const { db } = useSyncEngine();
  return useLiveQuery(async () => {
    const houses = searchList(await db.houses.orderBy('address').toArray(), search, houseSearchFields);
    const ids = houses.map((h) => h.id);
    const [residents, phones] = await Promise.all([db.residents.where('house').anyOf(ids).toArray(), db.phones.where('house').anyOf(ids).toArray()]);
    const byHouse = <T extends { house: string; created: string }>(rows: T[]) => {
      const map = new Map<string, T[]>();
      for (const row of rows.sort((a, b) => a.created.localeCompare(b.created))) map.set(row.house, [...(map.get(row.house) ?? []), row]);
      return map;
    };
    const residentsBy = byHouse(residents);
    const phonesBy = byHouse(phones);
    return houses.map((house) => ({ house, residents: residentsBy.get(house.id) ?? [], phones: phonesBy.get(house.id) ?? [] }));
  }, [db, search]);
}

export function useConcerns(search = ''): ConcernRecord[] | undefined {
  const { db } = useSyncEngine();
  return useLiveQuery(async () => searchList(await db.concerns.toArray(), search, (c) => [c.name]).sort((a, b) => a.name.localeCompare(b.name)), [db, search]);
}

export function useUsers(search = ''): UserRecord[] | undefined {
  const { db } = useSyncEngine();
  return useLiveQuery(
    async () => searchList(await db.users.toArray(), search, (u) => [u.first_name, u.last_name, u.email, u.type]).sort((a, b) => `${a.last_name} ${a.first_name}`.localeCompare(`${b.last_name} ${b.first_name}`)),
    [db, search],
  );
}

export interface ReportQuery {
  from: Date;
  to: Date;
  types?: readonly string[];
  sort?: 'newest' | 'oldest';
  search?: string;
}

export interface ReportWithLinks {
  report: MirrorRow<'reports'>;
  house?: HouseRecord;
  resident?: ResidentRecord;
  officer?: UserRecord;
}

/** Reports by incident time range, types and search (spec §2), sorted by creation. */
export function useReports(query: ReportQuery): ReportWithLinks[] | undefined {
  const { db } = useSyncEngine();
  const { from, to, types, sort = 'newest', search = '' } = query;
  return useLiveQuery(async () => {
    let reports = await db.reports.where('incident_time').between(pbDate(from), pbDate(to), true, true).toArray();
    if (types && types.length > 0) reports = reports.filter((r) => types.includes(r.type));
    const [houses, residents, users] = await Promise.all([
      db.houses.bulkGet([...new Set(reports.map((r) => r.house).filter(Boolean))]),
      db.residents.bulkGet([...new Set(reports.map((r) => r.resident).filter(Boolean))]),
      db.users.toArray(),
    ]);
    const houseById = new Map(houses.filter((h) => h !== undefined).map((h) => [h.id, h]));
    const residentById = new Map(residents.filter((r) => r !== undefined).map((r) => [r.id, r]));
    const userById = new Map(users.map((u) => [u.id, u]));
    const linked = reports.map((report) => ({ report, house: houseById.get(report.house), resident: residentById.get(report.resident), officer: userById.get(report.created_by) }));
    const found = searchList(linked, search, ({ report, house, resident }) => [
      house?.address, house?.apt, house?.city, house?.state, house?.zip, report.type, reportTypeLabel(report.type), resident?.first_name, resident?.last_name, house?.member_number,
    ]);
    const direction = sort === 'oldest' ? 1 : -1;
    return found.sort((a, b) => direction * a.report.created.localeCompare(b.report.created));
  }, [db, from.getTime(), to.getTime(), (types ?? []).join(','), sort, search]);
}

export interface SyncStatus {
  online: boolean;
  syncing: boolean;
  authRequired: boolean;
  pending: number;
  failed: number;
  lastSyncAt: number | null;
}

/** For the navigation bar's sync badge. */
export function useSyncStatus(): SyncStatus {
  const engine = useSyncEngine();
  const status = useSyncExternalStore(engine.subscribe, engine.getStatus);
  const counts = useLiveQuery(
    async () => ({
      pending: await engine.db.outbox.where('status').equals('pending').count(),
      failed: await engine.db.outbox.where('status').equals('failed').count(),
      lastSyncAt: ((await engine.db.syncState.get(LAST_SYNC_KEY))?.value as number | undefined) ?? null,
    }),
    [engine.db],
  );
  return { ...status, pending: counts?.pending ?? 0, failed: counts?.failed ?? 0, lastSyncAt: counts?.lastSyncAt ?? null };
}

/** The outbox, oldest first, for the sync panel (Retry / Discard of parked entries). */
export function useOutboxEntries(): OutboxEntry[] | undefined {
  const { db } = useSyncEngine();
  return useLiveQuery(() => db.outbox.orderBy('seq').toArray(), [db]);
}

export type { ReportRecord };
