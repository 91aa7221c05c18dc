/**
 * The mirror's queries behind the screens' live hooks (hooks.ts). Plain
 * async functions of the database, so the benchmarks and tests measure the
 * same code the screens run.
 */
import type { ConcernRecord, HouseRecord, PhoneRecord, ResidentRecord, UserRecord } from '../api/records.ts';
import { hasIssues } from '../domain/houseCheckAnswer.ts';
import type { MirrorRow, ScmsDatabase } from './mirror/db.ts';
import type { LatestCallRow } from './mirror/latestCalls.ts';
import { pbDate } from './sync/pull.ts';
import { searchIndexOf, type MirrorSearchIndex } from './mirror/searchIndex.ts';

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

export async function queryConcerns(db: ScmsDatabase, search = ''): Promise<ConcernRecord[]> {
  const index = searchIndexOf(db);
  await index.ready('concerns');
  return index.concerns.search(search);
}

export async function queryUsers(db: ScmsDatabase, search = ''): Promise<UserRecord[]> {
  const index = searchIndexOf(db);
  await index.ready('users');
  return index.users.search(search);
}

export interface ReportQuery {
  from: Date;
  to: Date;
  types?: readonly string[];
  sort?: 'newest' | 'oldest';
  search?: string;
  /** Only house checks answered No to 'Is everything ok?'. */
  withIssues?: boolean;
}

export interface ReportWithLinks {
  report: MirrorRow<'reports'>;
  house?: HouseRecord;
  resident?: ResidentRecord;
  officer?: UserRecord;
}

/** Reports by incident-time range, types, answer and search (docs/product.md#the-reports-list), sorted by creation: from the index, no reads. */
export function searchReports(index: MirrorSearchIndex, query: ReportQuery): ReportWithLinks[] {
  const { from, to, types, sort = 'newest', search = '', withIssues = false } = query;
  const [low, high] = [pbDate(from), pbDate(to)];
  const typeSet = types && types.length > 0 ? new Set(types) : null;
  const found = index.reports.search(search, {
    key: `${low}|${high}|${[...(typeSet ?? [])].join(',')}|${withIssues ? 'issues' : ''}`,
    includes: ({ report }) =>
      report.incident_time >= low &&
      report.incident_time <= high &&
      (!typeSet || typeSet.has(report.type)) &&
      (!withIssues || hasIssues(report)),
  });
  return sort === 'oldest' ? found : [...found].reverse();
}

export async function queryReports(db: ScmsDatabase, query: ReportQuery): Promise<ReportWithLinks[]> {
  const index = searchIndexOf(db);
  await index.ready('reports');
  return searchReports(index, query);
}
