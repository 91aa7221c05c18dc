/**
 * The demo data as plain records, built without touching the server: two
 * communities (Palm Grove Estates, the demo one, and Harbor Pointe, there to
 * show that communities are isolated), their staff, homes with residents and
 * phones, concerns, two months of reports (among them the house checks of
 * the homes' windows), the calls of the last weeks with their attempts, and
 * checkpoints with a night tour.
 *
 * Everything is deterministic: record ids are derived from stable keys (so a
 * second seed recognises what is already there) and the rest comes from a
 * seeded PRNG, so the same `now` always gives the same data. `now` only moves
 * dates (house-check windows, incident times and when each report was
 * written).
 *
 * The parts: communities.ts (the plans), word-lists.ts and
 * report-templates.ts (the texts), random.ts and demo-ids.ts (determinism),
 * build-homes.ts, build-reports.ts and build-calls.ts (the records).
 */
import { buildCalls } from './build-calls.ts';
import { buildHomes, buildStaff } from './build-homes.ts';
import { buildReports } from './build-reports.ts';
import { COMMUNITIES } from './communities.ts';
import { buildTours } from './build-tours.ts';
import { demoId } from './demo-ids.ts';
import { CONCERNS } from './word-lists.ts';

/** Collections in the order they must be created (relations point backwards). */
export const SEED_ORDER = [
  'communities',
  'users',
  'houses',
  'residents',
  'phones',
  'concerns',
  'reports',
  'calls',
  'call_attempts',
  'checkpoints',
  'tours',
  'tour_walks',
  'checkpoint_scans',
] as const;
export type SeedCollection = (typeof SEED_ORDER)[number];
export type SeedRecord = { id: string } & Record<
  string,
  string | number | boolean | string[] | Record<string, number> | null
>;
export type DemoData = Record<SeedCollection, SeedRecord[]>;

/** Ids of the seeded communities, for callers that need to find them. */
export const DEMO_COMMUNITY_IDS = {
  primary: demoId('pge:community'),
  second: demoId('hpt:community'),
} as const;

/**
 * The demo records, grouped by collection, for the given moment: of every
 * demo community, or of those whose keys are given (a cluster's server
 * holds its own, scripts/cluster/).
 */
export function buildDemoData(now: Date, communityKeys?: readonly string[]): DemoData {
  const data: DemoData = {
    communities: [],
    users: [],
    houses: [],
    residents: [],
    phones: [],
    concerns: [],
    reports: [],
    calls: [],
    call_attempts: [],
    checkpoints: [],
    tours: [],
    tour_walks: [],
    checkpoint_scans: [],
  };
  for (const plan of COMMUNITIES) {
    if (communityKeys && !communityKeys.includes(plan.key)) continue;
    const communityId = demoId(`${plan.key}:community`);
    data.communities.push({ id: communityId, name: plan.name, address: plan.address });
    const staff = buildStaff(plan, communityId);
    data.users.push(...staff);
    const director = staff.find((s) => s.type === 'director')!;
    const homes = buildHomes(plan, communityId, now, data);
    CONCERNS.slice(0, plan.concerns).forEach((concern, i) => {
      data.concerns.push({
        id: demoId(`${plan.key}:concern:${i}`),
        ...concern,
        added_by: director.id,
        community: communityId,
      });
    });
    buildReports(plan, communityId, now, homes, staff, data);
    buildCalls(plan, communityId, now, homes, staff, data);
    const officer = staff.find((s) => s.type === 'regular') ?? director;
    buildTours(plan.key, communityId, director.id, officer.id, now, data);
  }
  return data;
}
