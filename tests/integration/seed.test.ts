import { startOfMonth, subMonths } from 'date-fns';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  DEMO_DIRECTOR,
  DEMO_MANAGER,
  DEMO_REGULAR,
  DEMO_SECOND_DIRECTOR,
  DEMO_SECOND_MANAGER,
} from '../../scripts/seed/demo-account.ts';
import { buildDemoData, DEMO_COMMUNITY_IDS, SEED_ORDER } from '../../scripts/seed/demo-data.ts';
import { seedDemo, type SeedSummary } from '../../scripts/seed/seed.ts';
import { isHouseCheckDue } from '../../src/domain/houseCheck.ts';
import { REPORT_TYPE_VALUES } from '../../src/domain/reportTypes.ts';
import { startTestServer, type TestServer } from '../support/pocketbase.ts';

let t: TestServer;
let first: SeedSummary;
const now = new Date();
const pbDate = (value: string) => new Date(value.replace(' ', 'T'));

beforeAll(async () => {
  t = await startTestServer();
  first = await seedDemo(t.admin, { now });
  console.log(`demo seed: ${first.createdTotal} records in ${first.durationMs} ms`);
});
afterAll(async () => {
  await t?.stop();
});

test('the same moment gives the same data, with fixed 15-character ids', () => {
  const a = buildDemoData(now);
  expect(buildDemoData(new Date(now))).toEqual(a);
  const ids = SEED_ORDER.flatMap((c) => a[c].map((r) => r.id));
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id).toMatch(/^[a-z0-9]{15}$/);
});

test('a first seed creates everything', () => {
  expect(first.counts.communities).toEqual({ created: 2, present: 0 });
  expect(first.counts.users).toEqual({ created: 5, present: 0 });
  expect(first.presentTotal).toBe(0);
});

test('the demo director sees Palm Grove Estates with 40+ homes, their residents and phones', async () => {
  const pb = await t.signIn(DEMO_DIRECTOR.email, DEMO_DIRECTOR.password);
  expect(pb.authStore.record?.type).toBe('director');
  const communities = await pb.collection('communities').getFullList();
  expect(communities.map((c) => c.name)).toEqual(['Palm Grove Estates']);
  expect(communities[0]!.address).toMatch(/Jupiter, FL/);

  const houses = await pb.collection('houses').getFullList();
  expect(houses.length).toBeGreaterThanOrEqual(40);
  for (const h of houses) {
    expect(h.community).toBe(DEMO_COMMUNITY_IDS.primary);
    expect(h.city).toBe('Jupiter');
    expect(h.state).toBe('FL');
    expect(h.zip).toMatch(/^334\d\d$/);
    expect(h.member_number.length).toBeLessThanOrEqual(14);
    expect(h.security_code.length).toBeLessThanOrEqual(8);
  }
  expect(houses.some((h) => h.apt !== '')).toBe(true);
  expect(houses.some((h) => h.note.length > 30)).toBe(true);

  const residents = await pb.collection('residents').getFullList();
  const phones = await pb.collection('phones').getFullList();
  const byHouse = (list: RecordModel[], id: string) => list.filter((r) => r.house === id);
  let withoutPhones = 0;
  for (const h of houses) {
    const rs = byHouse(residents, h.id);
    expect(rs.length).toBeGreaterThanOrEqual(1);
    expect(rs.length).toBeLessThanOrEqual(3);
    expect(rs.filter((r) => r.owner)).toHaveLength(1);
    const ps = byHouse(phones, h.id);
    if (ps.length === 0) withoutPhones++;
    else {
      expect(ps.length).toBeLessThanOrEqual(2);
      expect(ps.filter((p) => p.primary)).toHaveLength(1);
    }
    for (const p of ps) {
      // Fictional 555-01xx numbers of the 561 area only.
      expect(p.phone_number).toMatch(/^\+156155501\d\d$/);
      expect(['cell', 'home', 'business']).toContain(p.type);
    }
  }
  expect(withoutPhones).toBeGreaterThan(0);
  expect(withoutPhones).toBeLessThan(houses.length / 4);

  // The due rule, as the app evaluates it.
  const due = houses.filter((h) => isHouseCheckDue(h as RecordModel & { house_check: boolean }, now));
  expect(due.length).toBeGreaterThanOrEqual(2);
  for (const h of due) expect(h.house_check_note).not.toBe('');
  // Some of them were checked in an earlier window, some never.
  expect(due.some((h) => h.house_check_last_date === '')).toBe(true);
  expect(due.some((h) => h.house_check_last_date !== '')).toBe(true);
  // Houses with a check that is not due (already checked, upcoming, ended) exist too.
  expect(houses.filter((h) => h.house_check).length).toBeGreaterThan(due.length);
});

test('about ten concerns, added by the director, within the limits', async () => {
  const pb = await t.signIn(DEMO_DIRECTOR.email, DEMO_DIRECTOR.password);
  const concerns = await pb.collection('concerns').getFullList();
  expect(concerns.length).toBeGreaterThanOrEqual(8);
  expect(concerns.length).toBeLessThanOrEqual(12);
  for (const c of concerns) {
    expect(c.added_by).toBe(pb.authStore.record?.id);
    expect(c.name.length).toBeLessThanOrEqual(100);
    expect(c.hint.length).toBeLessThanOrEqual(200);
    expect(c.say.length).toBeLessThanOrEqual(350);
  }
  expect(concerns.map((c) => c.name)).toContain('Gate left open');
});

test('about 150 reports over this and last month, every type, none in the future', async () => {
  const pb = await t.signIn(DEMO_REGULAR.email, DEMO_REGULAR.password);
  const staff = await pb.collection('users').getFullList();
  expect(staff.map((u) => u.type).sort()).toEqual(['director', 'manager', 'regular']);
  const reports = await pb.collection('reports').getFullList();
  expect(reports.length).toBeGreaterThanOrEqual(140);
  expect(reports.length).toBeLessThanOrEqual(160);

  const from = subMonths(startOfMonth(now), 1);
  const thisMonth = startOfMonth(now);
  const afterSeed = new Date();
  for (const r of reports) {
    const at = pbDate(r.incident_time);
    expect(at.getTime()).toBeGreaterThanOrEqual(from.getTime());
    expect(at.getTime()).toBeLessThanOrEqual(afterSeed.getTime());
    expect(staff.map((u) => u.id)).toContain(r.created_by);
    expect(['clear', 'sunny', 'cloudy', 'rainy']).toContain(r.weather);
  }
  expect(reports.some((r) => pbDate(r.incident_time) >= thisMonth)).toBe(true);
  expect(reports.some((r) => pbDate(r.incident_time) < thisMonth)).toBe(true);
  expect(new Set(reports.map((r) => r.type))).toEqual(new Set(REPORT_TYPE_VALUES));
  expect(new Set(reports.map((r) => r.created_by)).size).toBe(3);

  // Linked to a house and its owner (the first resident), mostly.
  const linked = reports.filter((r) => r.house !== '');
  expect(linked.length).toBeGreaterThan(reports.length * 0.9);
  const residents = await pb.collection('residents').getFullList();
  for (const r of linked) {
    const resident = residents.find((x) => x.id === r.resident);
    expect(resident?.house).toBe(r.house);
    expect(resident?.owner).toBe(true);
  }

  expect(reports.some((r) => r.ai_generated_narative !== '')).toBe(true);
  expect(reports.some((r) => r.ai_generated_narative === '')).toBe(true);
  expect(reports.some((r) => /\b(veh|res|approx)\b/.test(r.narative))).toBe(true);
  expect(reports.some((r) => r.injury)).toBe(true);
  expect(reports.some((r) => r.ems_pbso)).toBe(true);
  expect(reports.some((r) => !r.ems_pbso)).toBe(true);
});

test('reports were written after their incidents, so newest-created first is newest incident first', async () => {
  const pb = await t.signIn(DEMO_REGULAR.email, DEMO_REGULAR.password);
  // What the report list does for 'Newest' (descending by creation).
  const reports = await pb.collection('reports').getFullList({ sort: '-created', fields: 'id,created,incident_time' });
  expect(reports.length).toBeGreaterThanOrEqual(140);
  const incidents = reports.map((r) => pbDate(r.incident_time).getTime());
  expect(incidents).toEqual([...incidents].sort((a, b) => b - a));
  const afterSeed = Date.now();
  for (const r of reports) {
    const created = pbDate(r.created).getTime();
    expect(created).toBeGreaterThanOrEqual(pbDate(r.incident_time).getTime());
    expect(created).toBeLessThanOrEqual(afterSeed);
  }
  // A month of writing, not one minute; mostly a few minutes to an hour after the incident.
  expect(pbDate(reports[0]!.created).getTime() - pbDate(reports.at(-1)!.created).getTime()).toBeGreaterThan(
    20 * 86_400_000,
  );
  const delays = reports.map((r) => pbDate(r.created).getTime() - pbDate(r.incident_time).getTime());
  expect(delays.filter((d) => d >= 3 * 60_000 && d <= 3_600_000).length).toBeGreaterThan(reports.length * 0.7);
});

test("only a superuser's create keeps original_created, and never a future one", async () => {
  const officer = await t.signIn(DEMO_REGULAR.email, DEMO_REGULAR.password);
  const report = {
    community: DEMO_COMMUNITY_IDS.primary,
    created_by: officer.authStore.record!.id,
    type: 'loud_noise',
    weather: 'clear',
    narative: 'Music at 2am',
    incident_time: '2020-01-01 02:00:00.000Z',
    original_created: '2020-01-01 02:30:00.000Z',
  };
  const before = Date.now() - 1000;
  const mine = await officer.collection('reports').create(report);
  // An officer's report is created now, whatever it says.
  expect(pbDate(mine.created).getTime()).toBeGreaterThanOrEqual(before);
  const imported = await t.admin.collection('reports').create(report);
  expect(imported.created).toBe('2020-01-01 02:30:00.000Z');
  await expect(
    t.admin.collection('reports').create({ ...report, original_created: '2999-01-01 00:00:00.000Z' }),
  ).rejects.toMatchObject({ status: 400 });
  await expect(
    t.admin.collection('reports').create({ ...report, original_created: 'yesterday' }),
  ).rejects.toMatchObject({ status: 400 });
  for (const id of [mine.id, imported.id]) await t.admin.collection('reports').delete(id);
});

test('the second community is isolated and has its own staff, homes and reports', async () => {
  const director = await t.signIn(DEMO_SECOND_DIRECTOR.email, DEMO_SECOND_DIRECTOR.password);
  await t.signIn(DEMO_SECOND_MANAGER.email, DEMO_SECOND_MANAGER.password);
  const houses = await director.collection('houses').getFullList();
  expect(houses.length).toBeGreaterThanOrEqual(3);
  expect(houses.length).toBeLessThanOrEqual(5);
  for (const h of houses) expect(h.community).toBe(DEMO_COMMUNITY_IDS.second);
  const reports = await director.collection('reports').getFullList();
  expect(reports.length).toBeGreaterThan(0);
  for (const r of reports) expect(r.community).toBe(DEMO_COMMUNITY_IDS.second);

  // And the demo director does not see any of it.
  const demo = await t.signIn(DEMO_DIRECTOR.email, DEMO_DIRECTOR.password);
  const demoHouseIds = new Set((await demo.collection('houses').getFullList({ fields: 'id' })).map((h) => h.id));
  for (const h of houses) expect(demoHouseIds.has(h.id)).toBe(false);
  await expect(demo.collection('houses').getOne(houses[0]!.id)).rejects.toMatchObject({ status: 404 });
  expect((await demo.collection('users').getFullList()).map((u) => u.email).sort()).toEqual(
    [DEMO_DIRECTOR.email, DEMO_MANAGER.email, DEMO_REGULAR.email].sort(),
  );
});

test('the demo manager and regular officer can sign in', async () => {
  const manager = await t.signIn(DEMO_MANAGER.email, DEMO_MANAGER.password);
  expect(manager.authStore.record?.type).toBe('manager');
  const regular = await t.signIn(DEMO_REGULAR.email, DEMO_REGULAR.password);
  expect(regular.authStore.record?.type).toBe('regular');
  expect(regular.authStore.record?.community).toBe(DEMO_COMMUNITY_IDS.primary);
});

test('seeding again creates nothing and leaves every count as it was', async () => {
  const total = async (collection: string) =>
    (await t.admin.collection(collection).getList(1, 1, { fields: 'id' })).totalItems;
  const before = await Promise.all(SEED_ORDER.map(total));
  // A later moment: dates would differ, but the fixed ids are already there.
  const second = await seedDemo(t.admin, { now: new Date(now.getTime() + 3 * 86_400_000) });
  expect(second.createdTotal).toBe(0);
  for (const collection of SEED_ORDER) {
    expect(second.counts[collection]).toEqual({ created: 0, present: first.counts[collection].created });
  }
  expect(await Promise.all(SEED_ORDER.map(total))).toEqual(before);
  expect(before).toEqual(SEED_ORDER.map((c) => first.counts[c].created));
});
