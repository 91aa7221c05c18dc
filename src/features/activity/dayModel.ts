/**
 * The daily activity report's content, pure: the day's house
 * checks (with their answers to 'Is everything ok?'), reports and calls from the mirror's records, for one officer or
 * all, in time order, with the words the preview and the PDF both print.
 */
import { endOfDay, format, startOfDay } from 'date-fns';
import type { CallRow, DayRecords } from '../../data/resources/activity.ts';
import { CALL_OUTCOME_LABELS, isCallOutcome } from '../../domain/callOutcome.ts';
import { isHouseCheckReport } from '../../domain/houseCheck.ts';
import { everythingOkLine, hasIssues } from '../../domain/houseCheckAnswer.ts';
import { paperFor, type PaperSize } from '../../domain/paper.ts';
import { parsePbDate } from '../../domain/pbDate.ts';
import { reportTypeLabel } from '../../domain/reportTypes.ts';
import type { RoundStatus } from '../../domain/tourRounds.ts';
import { ALERT_KIND_WORDS, alertStateWords, STEP_WORDS } from '../../ui/alertWords.ts';
import { ROUND_STATUS_WORDS } from '../../ui/roundWords.ts';
import { formatAddress, formatDateTime, formatPhone, formatTime, NOT_AVAILABLE, personName } from '../../ui/format.ts';

export const DAY_REPORT_TITLE = 'Daily activity report';
export const ALL_OFFICERS = 'All officers';

export type EntryKind = 'house_check' | 'report' | 'call';

export const ENTRY_KIND_LABELS: Readonly<Record<EntryKind, string>> = {
  house_check: 'House check',
  report: 'Report',
  call: 'Call',
};

interface EntryBase {
  id: string;
  kind: EntryKind;
  at: Date;
  /** 'HH:mm', 24-hour as officers log times. */
  time: string;
  officer: string;
  home: string;
}

export interface ReportEntry extends EntryBase {
  kind: 'house_check' | 'report';
  /** The report type's label ('House check', 'Loud noise'). */
  type: string;
  /** A house check's 'Everything ok: Yes' / 'Everything ok: No' ('Not recorded' when unknown); '' for other reports. */
  answer: string;
  /** A house check answered No. */
  issues: boolean;
  resident: string;
  /** The card's choice: the AI-assisted narrative when there is one, else the original. */
  narrative: string;
  narrativeIsAi: boolean;
  injury: boolean;
  emsPbso: boolean;
  /** File names as the mirror holds them ('pending-N' while queued). */
  photos: string[];
  /** Still in the outbox: the server has not confirmed it. */
  pending: boolean;
}

export interface CallEntry extends EntryBase {
  kind: 'call';
  /** 'Answered', 'Voicemail', 'Busy', 'No answer', 'Failed', 'In progress', or the provider's status for older calls. */
  outcome: string;
  acknowledged: boolean;
  number: string;
  concerns: string[];
}

export type ActivityEntry = ReportEntry | CallEntry;

/** A tour round of the day, as the report lists it. */
export interface RoundLine {
  id: string;
  at: Date;
  time: string;
  tour: string;
  status: RoundStatus;
  /** 'On time', 'Incomplete'... */
  statusWords: string;
  /** '2 of 3 checkpoints' */
  scanned: string;
  /** Who walked it ('' for nobody). */
  officers: string;
  missed: string[];
  reason: string;
}

/** An alert raised in the day, with every step taken on it. */
export interface AlertLine {
  id: string;
  at: Date;
  time: string;
  /** 'Panic', 'Missed check-in'. */
  kind: string;
  officer: string;
  /** 'On', 'Safe', 'Resolved'. */
  state: string;
  /** '22:43 Tom Lee responding · 22:50 Ana Reyes is safe' ('' for none). */
  steps: string;
}

export interface DayModel {
  community: string;
  day: Date;
  /** The period covered: the whole day. */
  from: Date;
  to: Date;
  /** 'Nov 24, 2026 00:00 – 23:59'. */
  period: string;
  officer: string;
  entries: ActivityEntry[];
  counts: Record<EntryKind, number>;
  /** The day's tour rounds that were walked or missed, in time order (for one officer: those they walked). */
  rounds: RoundLine[];
  /** The day's alerts, in time order (for one officer: theirs, and those they took a step on). */
  alerts: AlertLine[];
  /** The house checks answered No to 'Is everything ok?'. */
  checksWithIssues: number;
  /** The PDF's paper: the community's country's (Letter in the US, A4 elsewhere). */
  paper: PaperSize;
}

export function dayBounds(day: Date): { from: Date; to: Date } {
  return { from: startOfDay(day), to: endOfDay(day) };
}

const stripParagraph = (text: string) => text.replace(/^\s*<p>/i, '').replace(/<\/p>\s*$/i, '');

/** How a call went, in words; the job's outcome fields are read defensively (older calls have none). */
export function callOutcomeWords(call: Pick<CallRow, 'status' | 'outcome' | 'progress'>): string {
  if (isCallOutcome(call.outcome)) return CALL_OUTCOME_LABELS[call.outcome];
  if (call.progress === 'calling' || call.progress === 'waiting') return 'In progress';
  const status = String(call.status ?? '').replace(/-/g, ' ');
  return status ? status[0]!.toUpperCase() + status.slice(1) : NOT_AVAILABLE;
}

const KIND_ORDER: Record<EntryKind, number> = { house_check: 0, report: 1, call: 2 };

/**
 * The day's entries for `officerId` (null: all officers), oldest first
 * (ties: house checks, reports, calls, then by id, so the order is stable).
 * Records outside the day are left out even if handed in.
 */
export function buildDayModel(records: DayRecords, day: Date, officerId: string | null): DayModel {
  const { from, to } = dayBounds(day);
  const staff = new Map(records.staff.map((user) => [user.id, user]));
  const inDay = (at: Date | null): at is Date => at !== null && at >= from && at <= to;
  const byOfficer = (createdBy: string) => officerId === null || createdBy === officerId;
  const entries: ActivityEntry[] = [];

  for (const report of records.reports) {
    const at = parsePbDate(report.incident_time);
    if (!inDay(at) || !byOfficer(report.created_by)) continue;
    const ai = stripParagraph(report.ai_generated_narative ?? '').trim();
    const original = stripParagraph(report.narative ?? '').trim();
    entries.push({
      id: report.id,
      kind: isHouseCheckReport(report) ? 'house_check' : 'report',
      at,
      time: formatTime(at),
      officer: personName(staff.get(report.created_by)),
      home: formatAddress(records.houses.get(report.house)),
      type: reportTypeLabel(report.type),
      answer: everythingOkLine(report),
      issues: hasIssues(report),
      resident: records.residents.has(report.resident)
        ? personName(records.residents.get(report.resident))
        : NOT_AVAILABLE,
      narrative: ai || original || NOT_AVAILABLE,
      narrativeIsAi: ai !== '',
      injury: report.injury === true,
      emsPbso: report.ems_pbso === true,
      photos: [...(report.photos ?? [])],
      pending: report._pending === 1,
    });
  }

  for (const call of records.calls) {
    const at = parsePbDate(call.created);
    if (!inDay(at) || !byOfficer(call.created_by)) continue;
    entries.push({
      id: call.id,
      kind: 'call',
      at,
      time: formatTime(at),
      officer: personName(staff.get(call.created_by)),
      home: formatAddress(records.houses.get(call.house)),
      outcome: callOutcomeWords(call),
      acknowledged: call.acknowledged === true,
      number: formatPhone(call.to_number),
      concerns: (call.concerns ?? []).map((id) => records.concerns.get(id)?.name).filter((n): n is string => !!n),
    });
  }

  entries.sort(
    (a, b) =>
      a.at.getTime() - b.at.getTime() ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const counts: Record<EntryKind, number> = { house_check: 0, report: 0, call: 0 };
  let checksWithIssues = 0;
  for (const entry of entries) {
    counts[entry.kind]++;
    if (entry.kind === 'house_check' && entry.issues) checksWithIssues++;
  }
  const rounds: RoundLine[] = [];
  for (const { tour, round, walks, outcome } of records.rounds ?? []) {
    // What happened: a round not yet walked and still open (upcoming, due) is not the day's activity yet.
    if (outcome.status === 'upcoming' || outcome.status === 'due') continue;
    if (officerId !== null && !walks.some((walk) => walk.officer === officerId)) continue;
    const at = new Date(round.startsAt);
    rounds.push({
      id: `${tour.id}:${round.startsAt}`,
      at,
      time: formatTime(at),
      tour: tour.name,
      status: outcome.status,
      statusWords: ROUND_STATUS_WORDS[outcome.status],
      scanned: `${outcome.scanned.length} of ${tour.checkpoints.length} checkpoints`,
      officers: [...new Set(walks.map((walk) => personName(staff.get(walk.officer))))].join(', '),
      missed: outcome.missed.map((id) => records.checkpointNames?.get(id) ?? 'A deleted checkpoint'),
      reason: walks
        .map((walk) => walk.end_reason)
        .filter(Boolean)
        .join(' · '),
    });
  }
  const alerts: AlertLine[] = [];
  for (const { alert, steps } of records.alerts ?? []) {
    const at = parsePbDate(alert.raised_at);
    if (!inDay(at)) continue;
    if (officerId !== null && alert.officer !== officerId && !steps.some((step) => step.by === officerId)) continue;
    alerts.push({
      id: alert.id,
      at,
      time: formatTime(at),
      kind: ALERT_KIND_WORDS[alert.kind],
      officer: personName(staff.get(alert.officer)),
      state: alertStateWords(alert),
      steps: steps
        .map(
          (step) =>
            `${formatTime(parsePbDate(step.at) ?? at)} ${personName(staff.get(step.by))} ${STEP_WORDS[step.kind]}`,
        )
        .join(' · '),
    });
  }
  return {
    community: records.community?.name || NOT_AVAILABLE,
    day: from,
    from,
    to,
    period: `${formatDateTime(from)} – ${formatTime(to)}`,
    officer: officerId === null ? ALL_OFFICERS : personName(staff.get(officerId)),
    entries,
    counts,
    rounds,
    alerts,
    checksWithIssues,
    paper: paperFor(records.country),
  };
}

/** The file's name: the community and the day ('activity-palm-grove-estates-2026-11-24.pdf'). */
export function dayReportFileName(model: Pick<DayModel, 'community' | 'day'>): string {
  const slug = model.community
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `activity-${slug || 'community'}-${format(model.day, 'yyyy-MM-dd')}.pdf`;
}

/** The day's counts in one line, for the preview and the PDF alike ('2 house check(s), 1 with issues · …'). */
export function countsLine(model: Pick<DayModel, 'counts' | 'checksWithIssues'> & { rounds?: RoundLine[] }): string {
  const { counts } = model;
  const checks =
    counts.house_check > 0
      ? `${counts.house_check} house check(s), ${model.checksWithIssues} with issues`
      : `${counts.house_check} house check(s)`;
  const line = `${checks} · ${counts.report} report(s) · ${counts.call} call(s)`;
  const rounds = model.rounds ?? [];
  if (rounds.length === 0) return line;
  const onTime = rounds.filter((round) => round.status === 'on_time').length;
  return `${line} · ${rounds.length} round(s), ${onTime} on time`;
}

/** One line of a round's details, for the preview and the PDF alike ('2 of 3 checkpoints · Luis Ortega · Missed: Pool gate'). */
export function roundSummary(round: RoundLine): string {
  const parts = [round.scanned];
  if (round.officers) parts.push(round.officers);
  if (round.missed.length > 0 && FINAL.includes(round.status)) parts.push(`Missed: ${round.missed.join(', ')}`);
  if (round.reason) parts.push(`Reason: ${round.reason}`);
  return parts.join(' · ');
}

const FINAL: readonly RoundStatus[] = ['late', 'incomplete', 'missed'];

/** One line of an entry's details, for the preview and the PDF alike. */
export function entrySummary(entry: ActivityEntry): string {
  if (entry.kind === 'call') {
    const parts = [entry.acknowledged ? `${entry.outcome}, acknowledged` : entry.outcome, entry.number];
    if (entry.concerns.length > 0) parts.push(entry.concerns.join(', '));
    return parts.join(' · ');
  }
  const parts = entry.kind === 'report' ? [entry.type] : [];
  if (entry.answer) parts.push(entry.answer);
  if (entry.resident !== NOT_AVAILABLE) parts.push(`Resident ${entry.resident}`);
  if (entry.injury) parts.push('Injury');
  if (entry.emsPbso) parts.push('EMS/PBSO');
  if (entry.pending) parts.push('Not yet sent');
  return parts.join(' · ');
}
