/**
 * The manager's view's figures, pure: reports by type and by
 * week, house checks done against due (the due rule per day,
 * domain/houseCheckDays.ts) and their answers to 'Is everything ok?', calls by outcome, the homes with the most
 * reports, and the tours' rounds (on time, and the checkpoints missed most), from the mirror's records of the period.
 */
import { addDays, addWeeks, endOfDay, format, max, min, startOfDay, startOfWeek } from 'date-fns';
import type { CallRecord, HouseRecord, ReportRecord } from '../../api/records.ts';
import { CALL_OUTCOME_LABELS, isCallOutcome, type CallOutcome } from '../../domain/callOutcome.ts';
import { houseCheckTimes, isHouseCheckReport } from '../../domain/houseCheck.ts';
import { houseChecksByDay, type HouseCheckDay, type HouseCheckHome } from '../../domain/houseCheckDays.ts';
import { answerOf } from '../../domain/houseCheckAnswer.ts';
import { parsePbDate, pbDate } from '../../domain/pbDate.ts';
import { REPORT_TYPES, reportTypeLabel } from '../../domain/reportTypes.ts';
import { formatAddress } from '../../ui/format.ts';
import { ROUND_STATUS_WORDS } from '../../ui/roundWords.ts';

export type PeriodReport = Pick<ReportRecord, 'id' | 'type' | 'incident_time' | 'house' | 'everything_ok'> &
  Partial<Pick<ReportRecord, 'narative'>>;
export type PeriodCall = Pick<CallRecord, 'id' | 'created' | 'outcome' | 'progress'>;

export interface Count<K extends string = string> {
  key: K;
  label: string;
  count: number;
}

/** Every report type with its count (the order of REPORT_TYPES), then any unknown type found; most first, ties in that order. */
export function reportsByType(reports: readonly PeriodReport[]): Count[] {
  const counts = new Map<string, number>(REPORT_TYPES.map((t) => [t.value, 0]));
  for (const report of reports) counts.set(report.type, (counts.get(report.type) ?? 0) + 1);
  return [...counts]
    .map(([key, count]) => ({ key, label: reportTypeLabel(key), count }))
    .sort((a, b) => b.count - a.count);
}

/** Weeks start on Monday: a patrol week and a pay week alike. */
const WEEK = { weekStartsOn: 1 } as const;

export interface WeekCount extends Count {
  /** 00:00 of the week's first day inside the period. */
  from: Date;
  to: Date;
}

/** The period cut into weeks (the first and last clipped to it), each with its reports. */
export function reportsByWeek(reports: readonly PeriodReport[], from: Date, to: Date): WeekCount[] {
  const weeks: WeekCount[] = [];
  for (let start = startOfWeek(from, WEEK); start <= to; start = addWeeks(start, 1)) {
    const weekFrom = max([start, startOfDay(from)]);
    const weekTo = min([endOfDay(addWeeks(start, 1).getTime() - 1), to]);
    const label =
      format(weekFrom, 'MMM d') === format(weekTo, 'MMM d')
        ? format(weekFrom, 'MMM d')
        : `${format(weekFrom, 'MMM d')}–${format(weekTo, weekFrom.getMonth() === weekTo.getMonth() ? 'd' : 'MMM d')}`;
    weeks.push({ key: format(weekFrom, 'yyyy-MM-dd'), label, from: weekFrom, to: weekTo, count: 0 });
  }
  // PocketBase's date text sorts as the time does: compared as text, a month of reports needs no Date each.
  const bounds = weeks.map((week) => [pbDate(week.from), pbDate(week.to)] as const);
  for (const report of reports) {
    const index = bounds.findIndex(([low, high]) => report.incident_time >= low && report.incident_time <= high);
    if (index >= 0) weeks[index]!.count++;
  }
  return weeks;
}

export type CallOutcomeKey = CallOutcome | 'in_progress' | 'unknown';

/** The five outcomes of a call (CALL_OUTCOME_LABELS), then calls still running and calls without an outcome (placed before outcomes existed). */
export function callsByOutcome(calls: readonly PeriodCall[]): Count<CallOutcomeKey>[] {
  const rows: Count<CallOutcomeKey>[] = [
    ...(Object.keys(CALL_OUTCOME_LABELS) as CallOutcome[]).map((key) => ({
      key,
      label: CALL_OUTCOME_LABELS[key],
      count: 0,
    })),
    { key: 'in_progress', label: 'In progress', count: 0 },
    { key: 'unknown', label: 'No outcome', count: 0 },
  ];
  const byKey = new Map(rows.map((row) => [row.key, row]));
  for (const call of calls) {
    const key: CallOutcomeKey = isCallOutcome(call.outcome)
      ? call.outcome
      : call.progress === 'calling' || call.progress === 'waiting'
        ? 'in_progress'
        : 'unknown';
    byKey.get(key)!.count++;
  }
  // The two extra rows only when they hold calls: most periods have none.
  return rows.filter((row) => row.count > 0 || isCallOutcome(row.key));
}

/** Addresses in natural order ('2 Egret Way' before '10 Egret Way'). */
const ADDRESS_ORDER = new Intl.Collator(undefined, { numeric: true });

export interface HomeCount extends Count {
  /** The home's id (key) and its address line (label). */
  houseId: string;
}

/** The `limit` homes with the most reports (most first; ties by address), reports without a home left out. */
export function topHomes(
  reports: readonly PeriodReport[],
  houses: ReadonlyMap<string, Pick<HouseRecord, 'address' | 'apt'>>,
  limit = 10,
): HomeCount[] {
  const counts = new Map<string, number>();
  for (const report of reports) if (report.house) counts.set(report.house, (counts.get(report.house) ?? 0) + 1);
  // Only the homes that can make the list are named and sorted by address: thousands of homes have a report in a month.
  const threshold = [...counts.values()].sort((a, b) => b - a)[limit - 1] ?? 0;
  return [...counts]
    .filter(([, count]) => count >= threshold)
    .map(([houseId, count]) => ({ key: houseId, houseId, label: formatAddress(houses.get(houseId)), count }))
    .sort((a, b) => b.count - a.count || ADDRESS_ORDER.compare(a.label, b.label))
    .slice(0, limit);
}

export interface HouseCheckFigures {
  days: HouseCheckDay[];
  due: number;
  done: number;
}

/**
 * House checks done against due, per day of the period up to `now` (days to
 * come are not due yet). `checkReports` are the house-check reports from
 * the earliest window start (checksSince) to the period's end.
 */
export function houseCheckFigures(
  homes: readonly HouseCheckHome[],
  checkReports: readonly PeriodReport[],
  from: Date,
  to: Date,
  now: Date,
): HouseCheckFigures {
  const last = min([to, endOfDay(now)]);
  const days = last < from ? [] : houseChecksByDay(homes, houseCheckTimes(checkReports), from, last);
  return {
    days,
    due: days.reduce((sum, day) => sum + day.due, 0),
    done: days.reduce((sum, day) => sum + day.done, 0),
  };
}

export interface AnswerDay {
  day: Date;
  /** House checks answered Yes, answered No, and without a recorded answer. */
  ok: number;
  issues: number;
  unknown: number;
}

export interface HouseCheckAnswers {
  days: AnswerDay[];
  checks: number;
  issues: number;
  unknown: number;
}

/**
 * The period's house checks by their answer to 'Is everything ok?', per day
 * up to `now` (like the checks done against due beside it).
 */
export function houseCheckAnswers(
  reports: readonly PeriodReport[],
  from: Date,
  to: Date,
  now: Date,
): HouseCheckAnswers {
  const last = min([to, endOfDay(now)]);
  const days: AnswerDay[] = [];
  const byDay = new Map<string, AnswerDay>();
  for (let day = startOfDay(from); day <= last; day = addDays(day, 1)) {
    const row = { day, ok: 0, issues: 0, unknown: 0 };
    days.push(row);
    byDay.set(format(day, 'yyyy-MM-dd'), row);
  }
  const totals = { checks: 0, issues: 0, unknown: 0 };
  for (const report of reports) {
    if (!isHouseCheckReport(report)) continue;
    const at = parsePbDate(report.incident_time);
    const row = at && at >= from && at <= last ? byDay.get(format(at, 'yyyy-MM-dd')) : undefined;
    if (!row) continue;
    totals.checks++;
    const answer = answerOf(report);
    if (answer === 'no') {
      row.issues++;
      totals.issues++;
    } else if (answer === 'yes') row.ok++;
    else {
      row.unknown++;
      totals.unknown++;
    }
  }
  return { days, ...totals };
}

/**
 * From when the house-check reports matter: the earliest start of a window
 * of the homes that overlaps the period (a check earlier in the window ends
 * what is due), never after the period's start.
 */
export function checksSince(homes: readonly HouseCheckHome[], from: Date, to: Date): Date {
  let since = from;
  for (const home of homes) {
    if (!home.house_check) continue;
    const start = parsePbDate(home.house_check_start_date);
    const end = parsePbDate(home.house_check_end_date);
    if (!start || !end || endOfDay(end) < from || startOfDay(start) > to) continue;
    if (startOfDay(start) < since) since = startOfDay(start);
  }
  return since;
}

export interface DashboardFigures {
  total: number;
  byType: Count[];
  byWeek: WeekCount[];
  houseChecks: HouseCheckFigures;
  answers: HouseCheckAnswers;
  calls: Count<CallOutcomeKey>[];
  callTotal: number;
  topHomes: HomeCount[];
}

export interface DashboardInput {
  from: Date;
  to: Date;
  now: Date;
  reports: readonly PeriodReport[];
  calls: readonly PeriodCall[];
  homes: readonly (HouseCheckHome & Pick<HouseRecord, 'address' | 'apt'>)[];
  /** House-check reports since checksSince(homes, from, to); other reports among them are passed over. */
  checkReports: readonly PeriodReport[];
}

/** Every figure of the view; records outside [from, to] are left out even if handed in. */
export function dashboardFigures(input: DashboardInput): DashboardFigures {
  const { from, to, now } = input;
  // As text: PocketBase's date text sorts as the time does.
  const [low, high] = [pbDate(from), pbDate(to)];
  const reports = input.reports.filter((r) => r.incident_time >= low && r.incident_time <= high);
  const calls = input.calls.filter((c) => c.created >= low && c.created <= high);
  const houses = new Map(input.homes.map((home) => [home.id, home]));
  return {
    total: reports.length,
    byType: reportsByType(reports),
    byWeek: reportsByWeek(reports, from, to),
    houseChecks: houseCheckFigures(input.homes, input.checkReports, from, to, now),
    answers: houseCheckAnswers(reports, from, to, now),
    calls: callsByOutcome(calls),
    callTotal: calls.length,
    topHomes: topHomes(reports, houses),
  };
}

// ---- checkpoint tours ------------------------------------------------------------

export interface TourFigures {
  /** Rounds whose status is final (on time, late, incomplete, missed): the ones the percentage counts. */
  finished: number;
  onTime: number;
  byStatus: Count<'on_time' | 'late' | 'incomplete' | 'missed'>[];
  /** The checkpoints most often left unscanned in finished rounds, most first (ten at most). */
  missedCheckpoints: Count[];
}

const TOUR_STATUSES = ['on_time', 'late', 'incomplete', 'missed'] as const;

/** How the period's rounds went, and where patrols fall short. */
export function tourFigures(
  rounds: readonly { outcome: { status: string; missed: readonly string[] } }[],
  checkpointName: (id: string) => string,
): TourFigures {
  const finished = rounds.filter((round) => (TOUR_STATUSES as readonly string[]).includes(round.outcome.status));
  const missed = new Map<string, number>();
  for (const round of finished) for (const id of round.outcome.missed) missed.set(id, (missed.get(id) ?? 0) + 1);
  return {
    finished: finished.length,
    onTime: finished.filter((round) => round.outcome.status === 'on_time').length,
    byStatus: TOUR_STATUSES.map((key) => ({
      key,
      label: ROUND_STATUS_WORDS[key],
      count: finished.filter((round) => round.outcome.status === key).length,
    })),
    missedCheckpoints: [...missed]
      .map(([id, count]) => ({ key: id, label: checkpointName(id), count }))
      .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label))
      .slice(0, 10),
  };
}
