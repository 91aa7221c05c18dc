/**
 * The mirror's queries behind the screens' live hooks (hooks.ts). Plain
 * async functions of the database, so the benchmarks and tests measure the
 * same code the screens run.
 */
import type { ConcernRecord, HouseRecord, PhoneRecord, ResidentRecord, UserRecord } from '../api/records.ts';
import { sortHomes } from '../domain/homeOrder.ts';
import { reportTypeLabel } from '../domain/reportTypes.ts';
import { searchList } from '../domain/search.ts';
import type { MirrorRow, ScmsDatabase } from './db.ts';
import { pbDate } from './pull.ts';

export interface HouseWithPeople {
  house: MirrorRow<'houses'>;
  residents: ResidentRecord[];
  phones: PhoneRecord[];
}

export const houseSearchFields = (h: HouseRecord) => [h.address, h.apt, h.city, h.state, h.zip, h.security_code, h.member_number];

/**
 * Homes in address order (street, number, apt), with their residents and
 * phones (oldest first, so the first is the primary one of spec §4).
 */
export async function queryHouses(db: ScmsDatabase, search = ''): Promise<HouseWithPeople[]> {
  const houses = sortHomes(searchList(await db.houses.toArray(), search, houseSearchFields), 'address', (h) => h);
  const ids = houses.map((h) => h.id);
  const [residents, phones] = await Promise.all([db.residents.where('house').anyOf(ids).toArray(), db.phones.where('house').anyOf(ids).toArray()]);
  const byHouse = <T extends { house: string; created: string }>(rows: T[]) => {
    const map = new Map<string, T[]>();
    for (const row of rows.sort((a, b) => a.created.localeCompare(b.created))) {
      const list = map.get(row.house);
      if (list) list.push(row);
      else map.set(row.house, [row]);
    }
    return map;
  };
  const residentsBy = byHouse(residents);
  const phonesBy = byHouse(phones);
  return houses.map((house) => ({ house, residents: residentsBy.get(house.id) ?? [], phones: phonesBy.get(house.id) ?? [] }));
}

export async function queryConcerns(db: ScmsDatabase, search = ''): Promise<ConcernRecord[]> {
  return searchList(await db.concerns.toArray(), search, (c) => [c.name]).sort((a, b) => a.name.localeCompare(b.name));
}

export async function queryUsers(db: ScmsDatabase, search = ''): Promise<UserRecord[]> {
  const name = (u: UserRecord) => `${u.last_name} ${u.first_name}`;
  return searchList(await db.users.toArray(), search, (u) => [u.first_name, u.last_name, u.email, u.type]).sort((a, b) => name(a).localeCompare(name(b)));
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

/** Reports by incident-time range, types and search (spec §2), sorted by creation. */
export async function queryReports(db: ScmsDatabase, query: ReportQuery): Promise<ReportWithLinks[]> {
  const { from, to, types, sort = 'newest', search = '' } = query;
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
}
