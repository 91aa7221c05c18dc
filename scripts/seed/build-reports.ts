/**
 * Two months of demo reports, written after their incidents: the incident
 * reports of a patrol, and the report of each house check the homes' windows
 * had (the check's moment is the home's last-checked date, as the House check
 * dialog writes both), so every screen that counts house checks counts the
 * same ones. Times in narratives are the community's.
 */
import { houseCheckNarrative } from '../../src/domain/houseCheck.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { REPORT_TYPE_VALUES } from '../../src/domain/reportTypes.ts';
import { zonedClock, zonedMonthStart } from '../../src/domain/zonedTime.ts';
import type { BuiltHouse } from './build-homes.ts';
import type { CommunityPlan } from './communities.ts';
import type { DemoData, SeedRecord } from './demo-data.ts';
import { demoId } from './demo-ids.ts';
import { chance, int, pick, rngFor, weighted, type Rng } from './random.ts';
import { fill, TEMPLATES, TYPE_WEIGHTS, WEATHER_WEIGHTS } from './report-templates.ts';
import { VEHICLES } from './word-lists.ts';

export function buildReports(
  plan: CommunityPlan,
  communityId: string,
  now: Date,
  homes: BuiltHouse[],
  staff: SeedRecord[],
  data: DemoData,
): void {
  const rng = rngFor(`${plan.key}:reports`);
  const zone = plan.timeZone;
  const thisMonth = new Date(zonedMonthStart(zone, now.getTime()));
  const lastMonth = new Date(zonedMonthStart(zone, now.getTime(), -1));
  for (let i = 0; i < plan.reports; i++) {
    // One of each type first, so every type shows up, then a patrol's usual mix.
    const type = i < INCIDENT_TYPES.length ? INCIDENT_TYPES[i]! : weighted(rng, TYPE_WEIGHTS);
    const template = pick(rng, TEMPLATES[type]);
    // Half in the current month (up to now, never later), half in the previous one.
    const [from, to] = i % 2 === 0 ? [thisMonth, now] : [lastMonth, thisMonth];
    const at = new Date(from.getTime() + Math.floor(rng() * (to.getTime() - from.getTime())));
    at.setSeconds(0, 0);
    const home = template.house === false ? undefined : pick(rng, homes);
    const resident = home?.firstResident;
    const clock = zonedClock(zone, at.getTime());
    const values = {
      addr: home ? [home.record.address, home.record.apt].filter(Boolean).join(' ') : '',
      street: home?.street ?? '',
      res: resident ? `${resident.first_name} ${resident.last_name}` : '',
      hrs: `${clock.replace(':', '')} hrs`,
      time: clock,
      veh: pick(rng, VEHICLES),
      plate: `${String.fromCharCode(65 + int(rng, 0, 25), 65 + int(rng, 0, 25), 65 + int(rng, 0, 25))}-${int(rng, 1000, 9999)}`,
    };
    data.reports.push({
      id: demoId(`${plan.key}:report:${i}`),
      narative: fill(template.raw, values),
      // About a third went through AI assist.
      ai_generated_narative: chance(rng, 0.35) ? fill(template.ai, values) : '',
      type,
      weather: weighted(rng, WEATHER_WEIGHTS),
      incident_time: pbDate(at),
      phone_number: home?.primaryPhone ?? '',
      injury: template.injury ?? false,
      ems_pbso: template.emsPbso ?? false,
      community: communityId,
      house: home?.record.id ?? '',
      resident: resident?.id ?? '',
      created_by: pick(rng, staff).id,
      // Only a house check says whether everything was ok.
      everything_ok: '',
    });
  }
  houseCheckReports(plan, communityId, homes, staff, data);
  writtenAfterIncidents(
    data.reports.filter((r) => r.community === communityId),
    now,
    rngFor(`${plan.key}:report-writing`),
  );
}

/** Every report type but house checks: those come from the homes' checks. */
const INCIDENT_TYPES = REPORT_TYPE_VALUES.filter((type) => type !== 'house_check');

/**
 * The report of each home's check, as the House check dialog writes it
 * (docs/product.md#house-checks): its remark (or the answer's sentence) as the narrative, no AI
 * narrative, clear weather, the home and its first resident, made at the
 * home's last-checked date by one of the staff.
 */
function houseCheckReports(
  plan: CommunityPlan,
  communityId: string,
  homes: BuiltHouse[],
  staff: SeedRecord[],
  data: DemoData,
): void {
  const rng = rngFor(`${plan.key}:house-checks`);
  homes.forEach((home, i) => {
    if (!home.checkedAt) return;
    const template = pick(rng, TEMPLATES.house_check);
    const clock = zonedClock(plan.timeZone, home.checkedAt.getTime());
    const remark = fill(template.raw, {
      addr: [home.record.address, home.record.apt].filter(Boolean).join(' '),
      street: home.street,
      res: `${home.firstResident.first_name} ${home.firstResident.last_name}`,
      hrs: `${clock.replace(':', '')} hrs`,
      time: clock,
    });
    const everythingOk = template.everythingOk ?? 'yes';
    data.reports.push({
      id: demoId(`${plan.key}:house:${i}:check`),
      // Now and then the officer just answers, and the answer's sentence stands for the remark.
      narative: chance(rng, 0.3) ? houseCheckNarrative(everythingOk === 'yes') : remark,
      ai_generated_narative: '',
      type: 'house_check',
      weather: 'clear',
      incident_time: pbDate(home.checkedAt),
      phone_number: '',
      injury: false,
      ems_pbso: false,
      community: communityId,
      house: home.record.id,
      resident: home.firstResident.id,
      created_by: pick(rng, staff).id,
      everything_ok: everythingOk,
    });
  });
}

/**
 * When each report was written (`original_created`, kept as `created` by
 * pb_hooks/reports.pb.js): a few minutes to an hour after its incident, as a
 * real month of reports would be, never after `now`. The list's "Newest
 * first" sorts by creation (docs/product.md#the-reports-list), so creation order must follow incident
 * order: a report is written before the next incident happens, which keeps
 * reports close together in time in the right order too.
 */
function writtenAfterIncidents(reports: SeedRecord[], now: Date, rng: Rng): void {
  const incident = (r: SeedRecord) => new Date(String(r.incident_time).replace(' ', 'T')).getTime();
  const byIncident = [...reports].sort((a, b) => incident(a) - incident(b));
  byIncident.forEach((report, i) => {
    const at = incident(report);
    const next = byIncident[i + 1];
    const written = at + int(rng, 3 * 60, 60 * 60) * 1000;
    const limit = Math.min(next ? incident(next) - 1000 : Infinity, now.getTime());
    report.original_created = pbDate(new Date(Math.max(at, Math.min(written, limit))));
  });
}
