/** Two months of demo reports, written after their incidents. */
import { format, startOfMonth, subMonths } from 'date-fns';
import { pbDate } from '../../src/domain/pbDate.ts';
import { REPORT_TYPE_VALUES } from '../../src/domain/reportTypes.ts';
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
  const thisMonth = startOfMonth(now);
  const lastMonth = subMonths(thisMonth, 1);
  for (let i = 0; i < plan.reports; i++) {
    // One of each type first, so every type shows up, then a patrol's usual mix.
    const type = i < REPORT_TYPE_VALUES.length ? REPORT_TYPE_VALUES[i]! : weighted(rng, TYPE_WEIGHTS);
    const template = pick(rng, TEMPLATES[type]);
    // Half in the current month (up to now, never later), half in the previous one.
    const [from, to] = i % 2 === 0 ? [thisMonth, now] : [lastMonth, thisMonth];
    const at = new Date(from.getTime() + Math.floor(rng() * (to.getTime() - from.getTime())));
    at.setSeconds(0, 0);
    // A house being checked today has not been checked yet: keep its reports elsewhere.
    const candidates = type === 'house_check' ? homes.filter((h) => !h.checkDue) : homes;
    const home = template.house === false ? undefined : pick(rng, candidates);
    const resident = home?.firstResident;
    const values = {
      addr: home ? [home.record.address, home.record.apt].filter(Boolean).join(' ') : '',
      street: home?.street ?? '',
      res: resident ? `${resident.first_name} ${resident.last_name}` : '',
      hrs: `${format(at, 'HHmm')} hrs`,
      time: format(at, 'HH:mm'),
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
      // A house check says whether everything was ok; every other report leaves it empty.
      everything_ok: type === 'house_check' ? (template.everythingOk ?? 'yes') : '',
    });
  }
  writtenAfterIncidents(
    data.reports.filter((r) => r.community === communityId),
    now,
    rngFor(`${plan.key}:report-writing`),
  );
}

/**
 * When each report was written (`original_created`, kept as `created` by
 * pb_hooks/reports.pb.js): a few minutes to an hour after its incident, as a
 * real month of reports would be, never after `now`. The list's "Newest
 * first" sorts by creation (spec §4), so creation order must follow incident
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
