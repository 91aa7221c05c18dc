/**
 * The in-memory search index of the mirror (src/data/mirror/searchIndex.ts): it
 * follows inserts, updates and deletes of the mirror (from this database
 * object and from another one on the same database, as another tab or the
 * service worker writes), and it finds exactly what the search rule of
 * src/domain/search.ts finds, in the list's order, on random records and
 * random queries, whether a query is answered by a full scan or by
 * narrowing an earlier one.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import type {
  ConcernRecord,
  HouseRecord,
  PhoneRecord,
  ReportRecord,
  ResidentRecord,
  UserRecord,
} from '../../src/api/records.ts';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { pbDate } from '../../src/data/sync/pull.ts';
import { queryHouses, type HouseWithPeople } from '../../src/data/resources/homes.ts';
import { queryReports, searchReports } from '../../src/data/resources/reports.ts';
import { homeSearchFields, reportSearchFields, searchIndexOf } from '../../src/data/mirror/searchIndex.ts';
import { SearchList } from '../../src/data/mirror/searchList.ts';
import { sortHomes } from '../../src/domain/homeOrder.ts';
import { searchList } from '../../src/domain/search.ts';
import { houseRecord } from '../support/records.ts';

const stamp = '2026-01-01 00:00:00.000Z';
let dbCount = 0;
const open: ScmsDatabase[] = [];

function newDb(name = `search-index-${++dbCount}`): ScmsDatabase {
  const db = new ScmsDatabase(name);
  open.push(db);
  return db;
}

afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function house(id: string, overrides: Partial<HouseRecord> = {}): HouseRecord {
  return houseRecord({ id, address: '1 Palm Way', ...overrides });
}
const resident = (id: string, houseId: string, first: string, created = stamp): ResidentRecord => ({
  id,
  created,
  updated: stamp,
  first_name: first,
  last_name: 'Lee',
  owner: false,
  house: houseId,
});
const phone = (id: string, houseId: string): PhoneRecord => ({
  id,
  created: stamp,
  updated: stamp,
  phone_number: '+15615550100',
  primary: true,
  type: 'cell',
  house: houseId,
});
const user = (id: string, first: string, last: string): UserRecord =>
  ({
    id,
    created: stamp,
    updated: stamp,
    first_name: first,
    last_name: last,
    email: `${id}@x.test`,
    type: 'regular',
    community: 'c1',
  }) as UserRecord;
const report = (id: string, overrides: Partial<ReportRecord> = {}): ReportRecord =>
  ({
    id,
    created: stamp,
    updated: stamp,
    narative: '',
    ai_generated_narative: '',
    type: 'accident',
    weather: 'clear',
    incident_time: '2026-01-10 10:00:00.000Z',
    phone_number: '',
    injury: false,
    ems_pbso: false,
    community: 'c1',
    house: '',
    resident: '',
    created_by: '',
    photos: [],
    ...overrides,
  }) as ReportRecord;

const addresses = (homes: HouseWithPeople[]) => homes.map((h) => h.house.address);

describe('the index follows the mirror', () => {
  test('homes: inserts, updates, deletes, residents and phones, and a cleared table', async () => {
    const db = newDb();
    const index = searchIndexOf(db);
    await db.houses.bulkPut([
      house('h1', { address: '9 Heron Way' }),
      house('h2', { address: '101 Banyan Cir', member_number: 'M-7' }),
    ]);
    expect(addresses(await queryHouses(db))).toEqual(['101 Banyan Cir', '9 Heron Way']);

    await db.houses.put(house('h3', { address: '10 Heron Way' }));
    await index.idle();
    expect(addresses(index.homes.search(''))).toEqual(['101 Banyan Cir', '9 Heron Way', '10 Heron Way']);
    expect(addresses(index.homes.search('heron'))).toEqual(['9 Heron Way', '10 Heron Way']);

    // An update moves the home in the order and in the searches.
    await db.houses.update('h1', { address: '1 Osprey Ln' });
    await index.idle();
    expect(addresses(index.homes.search(''))).toEqual(['101 Banyan Cir', '10 Heron Way', '1 Osprey Ln']);
    expect(addresses(index.homes.search('heron'))).toEqual(['10 Heron Way']);
    expect(addresses(index.homes.search('osprey'))).toEqual(['1 Osprey Ln']);

    // Residents and phones, oldest first, move with their house.
    await db.residents.bulkPut([resident('r2', 'h2', 'Bea', '2026-01-02 00:00:00.000Z'), resident('r1', 'h2', 'Ann')]);
    await db.phones.put(phone('p1', 'h2'));
    await index.idle();
    const banyan = () => index.homes.search('banyan')[0]!;
    expect(banyan().residents.map((r) => r.first_name)).toEqual(['Ann', 'Bea']);
    expect(banyan().phones.map((p) => p.id)).toEqual(['p1']);
    // Made in the same millisecond (a batch), whatever order they arrive in: by id, as the mirror's queries give them.
    await db.residents.put(resident('r0b', 'h2', 'Dee', '2026-01-03 00:00:00.000Z'));
    await index.idle();
    await db.residents.put(resident('r0a', 'h2', 'Cal', '2026-01-03 00:00:00.000Z'));
    await index.idle();
    expect(banyan().residents.map((r) => r.first_name)).toEqual(['Ann', 'Bea', 'Cal', 'Dee']);
    await db.residents.bulkDelete(['r0a', 'r0b']);
    await db.residents.update('r1', { house: 'h3' });
    await db.phones.delete('p1');
    await index.idle();
    expect(banyan().residents.map((r) => r.first_name)).toEqual(['Bea']);
    expect(banyan().phones).toEqual([]);
    expect(index.homes.search('10 heron')[0]!.residents.map((r) => r.first_name)).toEqual(['Ann']);

    await db.houses.delete('h2');
    await index.idle();
    expect(addresses(index.homes.search(''))).toEqual(['10 Heron Way', '1 Osprey Ln']);
    expect(index.homes.search('m-7')).toEqual([]);

    await db.houses.clear();
    await index.idle();
    expect(index.homes.search('')).toEqual([]);
  });

  test('a write through another connection to the same database (another tab, the service worker) reaches the index', async () => {
    const name = `search-index-shared-${++dbCount}`;
    const screen = newDb(name);
    const worker = newDb(name);
    const index = searchIndexOf(screen);
    await index.ready('homes');
    expect(index.homes.search('')).toEqual([]);
    await worker.houses.bulkPut(
      Array.from({ length: 120 }, (_, i) =>
        house(`w${String(i).padStart(3, '0')}`, { address: `${i + 1} Marlin Way` }),
      ),
    );
    await index.idle();
    expect(index.homes.search('marlin')).toHaveLength(120);
    await worker.houses.where('id').startsWith('w0').delete();
    await index.idle();
    expect(index.homes.search('marlin')).toHaveLength(20);
  });

  test('listeners hear each change of their list, and a change of another table leaves them alone', async () => {
    const db = newDb();
    // Opened first: a database's creation tells every list to read everything again.
    await db.open();
    const index = searchIndexOf(db);
    let heard = 0;
    const stop = index.subscribe('homes', () => heard++);
    await index.idle();
    expect(index.version('homes')).toBe(0);
    expect(heard).toBe(1);
    await db.houses.put(house('h1'));
    await index.idle();
    expect(heard).toBe(2);
    await db.concerns.put({
      id: 'k1',
      created: stamp,
      updated: stamp,
      name: 'Gate',
      hint: '',
      say: '',
      added_by: 'u1',
      community: 'c1',
    } as ConcernRecord);
    await index.idle();
    expect(heard).toBe(2);
    expect(index.version('concerns')).toBe(-1);
    stop();
    await db.houses.put(house('h2'));
    await index.idle();
    expect(heard).toBe(2);
    // Unheard, still current.
    expect(index.homes.search('')).toHaveLength(2);
  });

  test('reports: the range, types, sort and search; a renamed home or officer changes what finds them', async () => {
    const db = newDb();
    const index = searchIndexOf(db);
    await db.houses.put(house('h1', { address: '5 Egret Way', member_number: 'M-5' }));
    await db.residents.put(resident('r1', 'h1', 'Ann'));
    await db.users.put(user('u1', 'Olga', 'Officer'));
    await db.reports.bulkPut([
      report('a', {
        created: '2026-01-10 10:00:00.000Z',
        house: 'h1',
        resident: 'r1',
        created_by: 'u1',
        type: 'loud_noise',
      }),
      report('b', { created: '2026-01-11 10:00:00.000Z', incident_time: '2026-01-11 10:00:00.000Z', type: 'accident' }),
      report('c', { created: '2026-01-12 10:00:00.000Z', incident_time: '2026-02-03 10:00:00.000Z', house: 'h1' }),
    ]);
    const january = { from: new Date('2026-01-01T00:00:00.000Z'), to: new Date('2026-01-31T23:59:59.999Z') };
    const ids = (rows: { report: { id: string } }[]) => rows.map((r) => r.report.id);
    expect(ids(await queryReports(db, january))).toEqual(['b', 'a']);
    expect(ids(searchReports(index, { ...january, sort: 'oldest' }))).toEqual(['a', 'b']);
    expect(ids(searchReports(index, { ...january, types: ['accident'] }))).toEqual(['b']);
    // The type's label, the home and the resident are searched.
    expect(ids(searchReports(index, { ...january, search: 'loud NOISE egret' }))).toEqual(['a']);
    expect(ids(searchReports(index, { ...january, search: 'm-5 ann' }))).toEqual(['a']);
    expect(searchReports(index, { ...january, search: 'egret' })[0]!.officer?.first_name).toBe('Olga');

    await db.houses.update('h1', { address: '5 Ibis Ct' });
    await db.users.update('u1', { first_name: 'Oona' });
    await index.idle();
    expect(ids(searchReports(index, { ...january, search: 'egret' }))).toEqual([]);
    const found = searchReports(index, { ...january, search: 'ibis' });
    expect(ids(found)).toEqual(['a']);
    expect(found[0]!.officer?.first_name).toBe('Oona');
    await db.reports.delete('a');
    await index.idle();
    expect(ids(searchReports(index, { ...january, search: 'ibis' }))).toEqual([]);
  });
});

describe('narrowing', () => {
  test("a query that extends a recent one, and a query going back, give the rule's results", () => {
    const list = new SearchList<{ id: string; name: string }, string>(
      (c) => c.name,
      (a, b) => a.localeCompare(b),
      (c) => [c.name],
    );
    for (const [id, name] of [
      ['1', 'Palm Way'],
      ['2', 'Palisade'],
      ['3', 'Pine Ct'],
      ['4', 'Way Palm'],
    ] as const)
      list.put(id, { id, name });
    const names = (q: string) => list.search(q).map((c) => c.name);
    expect(names('p')).toEqual(['Palisade', 'Palm Way', 'Pine Ct', 'Way Palm']);
    expect(names('pa')).toEqual(['Palisade', 'Palm Way', 'Way Palm']);
    expect(names('pal way')).toEqual(['Palm Way', 'Way Palm']);
    const palm = list.search('palm');
    expect(palm.map((c) => c.name)).toEqual(['Palm Way', 'Way Palm']);
    list.search('palms');
    // Backspace: the very array shown before, no new render of an unchanged list.
    expect(list.search('palm')).toBe(palm);
    // A change drops what was remembered.
    list.put('5', { id: '5', name: 'Palm Ct' });
    expect(names('palm')).toEqual(['Palm Ct', 'Palm Way', 'Way Palm']);
    list.remove('1');
    expect(names('pal')).toEqual(['Palisade', 'Palm Ct', 'Way Palm']);
  });
});

/** Letters that collide across case and words, some outside ASCII, and whitespace of several kinds. */
const text = fc.string({
  unit: fc.constantFrom('a', 'B', 'c', 'É', 'é', 'ß', '1', '-', ' ', '\t', 'İ', 'σ', 'Σ'),
  maxLength: 8,
});
const houseArb = fc.record({
  address: text,
  apt: text,
  city: text,
  state: fc.constantFrom('FL', 'Ak', ''),
  zip: text,
  member_number: text,
  security_code: text,
});

describe('the index finds what the rule of src/domain/search.ts finds', () => {
  test('homes, through any sequence of searches, changes and warming (SearchList, in memory)', () => {
    fc.assert(
      fc.property(
        fc.array(houseArb, { maxLength: 40 }),
        fc.array(
          fc.oneof(
            fc.record({ query: text }),
            fc.record({ put: fc.nat(60), fields: houseArb }),
            fc.record({ remove: fc.nat(60) }),
            // Haystacks built ahead of a search, a few at a time.
            fc.record({ warm: fc.nat(5) }),
            // Changed (or gone) where the list builds its records from, rebuilt when next read.
            fc.record({ invalidate: fc.nat(60), fields: fc.option(houseArb) }),
          ),
          { maxLength: 30 },
        ),
        (initial, steps) => {
          // Ordered by address, ties by id: a change of address moves a home, any other change keeps its place.
          const addressOf = (h: HouseWithPeople) => h.house.address ?? '';
          const byId = new Map<string, HouseWithPeople>();
          const list = new SearchList<HouseWithPeople, string>(
            addressOf,
            (a, b) => (a < b ? -1 : a > b ? 1 : 0),
            homeSearchFields,
            (id) => byId.get(id),
          );
          const idOf = (i: number) => `h${String(i).padStart(3, '0')}`;
          const put = (i: number, fields: Partial<HouseRecord>) => {
            const id = idOf(i);
            const home = { house: house(id, fields), residents: [], phones: [] };
            byId.set(id, home);
            list.put(id, home);
          };
          initial.forEach((fields, i) => put(i, fields));
          for (const step of steps) {
            if ('put' in step) put(step.put, step.fields);
            else if ('invalidate' in step) {
              const id = idOf(step.invalidate);
              if (step.fields) byId.set(id, { house: house(id, step.fields), residents: [], phones: [] });
              else byId.delete(id);
              list.invalidate(id);
            } else if ('remove' in step) {
              const id = `h${String(step.remove).padStart(3, '0')}`;
              byId.delete(id);
              list.remove(id);
            } else if ('warm' in step) list.warm(step.warm);
            else {
              const all = [...byId.values()].sort(
                (a, b) =>
                  (addressOf(a) < addressOf(b) ? -1 : addressOf(a) > addressOf(b) ? 1 : 0) ||
                  (a.house.id < b.house.id ? -1 : 1),
              );
              expect(list.search(step.query)).toEqual(searchList(all, step.query, homeSearchFields));
            }
          }
          // Warming ends, and leaves every search as it was.
          while (!list.warm(3));
          expect(list.search('')).toHaveLength(byId.size);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('homes in address order and reports in a range, through the mirror (fake-indexeddb)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(houseArb, { minLength: 1, maxLength: 25 }),
        fc.array(
          fc.record({
            type: fc.constantFrom('accident', 'loud_noise', 'house_check'),
            house: fc.nat(30),
            day: fc.integer({ min: 1, max: 28 }),
          }),
          { maxLength: 25 },
        ),
        fc.array(text, { minLength: 1, maxLength: 6 }),
        async (houses, reports, queries) => {
          const db = newDb();
          const index = searchIndexOf(db);
          await index.ready('homes');
          await index.ready('reports');
          const rows = houses.map((fields, i) => house(`h${String(i).padStart(3, '0')}`, fields));
          await db.houses.bulkPut(rows);
          const reportRows = reports.map((r, i) =>
            report(`r${String(i).padStart(3, '0')}`, {
              type: r.type,
              house: `h${String(r.house).padStart(3, '0')}`,
              incident_time: pbDate(new Date(Date.UTC(2026, 0, r.day, 12))),
              created: pbDate(new Date(Date.UTC(2026, 0, 1, 0, i))),
            }),
          );
          await db.reports.bulkPut(reportRows);
          await index.idle();
          const homes = rows.map((h) => ({ house: h, residents: [], phones: [] }));
          const range = { from: new Date(Date.UTC(2026, 0, 5)), to: new Date(Date.UTC(2026, 0, 20, 23, 59, 59, 999)) };
          const byHouseId = new Map(rows.map((h) => [h.id, h]));
          const linked = reportRows
            .filter((r) => r.incident_time >= pbDate(range.from) && r.incident_time <= pbDate(range.to))
            .map((r) => ({ report: r, house: byHouseId.get(r.house), resident: undefined, officer: undefined }));
          for (const query of queries) {
            const expected = sortHomes(searchList(homes, query, homeSearchFields), 'address', (h) => h.house);
            expect(addresses(index.homes.search(query))).toEqual(addresses(expected));
            const expectedReports = searchList(linked, query, reportSearchFields).reverse();
            expect(searchReports(index, { ...range, search: query }).map((r) => r.report.id)).toEqual(
              expectedReports.map((r) => r.report.id),
            );
          }
          db.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('a large list loads in slices', () => {
  test('homes are indexed a few hundred per task, so the page can draw and take input meanwhile (no long task)', async () => {
    const db = newDb();
    const homes = Array.from({ length: 2_400 }, (_, i) =>
      house(`h${String(i).padStart(14, '0')}`, { address: `${i} Palm Way` }),
    );
    await db.houses.bulkPut(homes);
    const index = searchIndexOf(db);
    // Between two tasks of the load, this loop samples how many homes the list holds.
    const seen: number[] = [];
    let loading = true;
    const sample = () => {
      seen.push(index.homes.size);
      if (!loading) return;
      const channel = new MessageChannel();
      channel.port1.onmessage = sample;
      channel.port2.postMessage(null);
    };
    sample();
    await index.ready('homes');
    loading = false;
    expect(index.homes.size).toBe(2_400);
    // Built in one task, the list would go from 0 to 2,400 between two samples.
    expect(seen.some((size) => size > 0 && size < 2_400)).toBe(true);
  });
});
