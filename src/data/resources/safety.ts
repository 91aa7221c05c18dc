/**
 * Officer safety (docs/product.md#on-duty-and-alerts) from the mirror: the
 * signed-in officer's shift, who is on duty with their last known position,
 * the alerts that are on with every step taken on them, and the
 * community's safety settings; and every write of the feature through the
 * outbox, so that a shift starts, a panic is raised and a response is
 * recorded in a dead zone too, and each arrives once.
 */
import type { AlertEventRecord, AlertRecord, DutyShiftRecord, SafetySettingsRecord } from '../../api/records.ts';
import { pbDate } from '../../domain/pbDate.ts';
import { DEFAULT_SAFETY_SETTINGS, type AlertEventKind, type SafetySettingsValues } from '../../domain/safetySchemas.ts';
import type { ReportPosition } from '../../domain/whereAndWhen.ts';
import type { SignedInUser } from '../auth.ts';
import { useSyncEngine } from '../DataProvider.tsx';
import type { MirrorRow, ScmsDatabase } from '../mirror/db.ts';
import { newRecordId } from '../mirror/ids.ts';
import { useMirrorQuery } from '../mirror/useMirrorQuery.ts';
import { enqueue } from '../sync/outbox.ts';

export type DutyShift = MirrorRow<'duty_shifts'>;
export type Alert = MirrorRow<'alerts'>;
export type AlertEvent = MirrorRow<'alert_events'>;
type User = MirrorRow<'users'>;

/** The officer's open shift (the latest, should two be open before the server ended one); null when off duty. */
export async function readMyShift(db: ScmsDatabase, officer: string): Promise<DutyShift | null> {
  const open = await db.duty_shifts.where('ended_at').equals('').toArray();
  const mine = open.filter((shift) => shift.officer === officer);
  mine.sort((a, b) => b.started_at.localeCompare(a.started_at));
  return mine[0] ?? null;
}

export function useMyShift(officer: string | undefined): DutyShift | null | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['duty_shifts'], async () => (officer ? readMyShift(db, officer) : null), [officer]);
}

/** The officer's latest shift, open or ended (the Safety screen says how it ended); null when none. */
export function useLastShift(officer: string): DutyShift | null | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(
    db,
    ['duty_shifts'],
    async () => {
      const shifts = await db.duty_shifts.where('officer').equals(officer).toArray();
      shifts.sort((a, b) => b.started_at.localeCompare(a.started_at));
      return shifts[0] ?? null;
    },
    [officer],
  );
}

/** Where an officer was last seen: their last scan, house check or report of the shift. */
export interface LastSeen {
  position: ReportPosition;
  at: string;
  what: 'scan' | 'report';
}

export interface OnDuty {
  shift: DutyShift;
  officer: User | undefined;
  lastSeen: LastSeen | null;
}

/** Positions at or after `since` by officer: the latest of each (scans by time, reports by their creation). */
async function lastSeenSince(db: ScmsDatabase, since: string): Promise<Map<string, LastSeen>> {
  const [scans, reports] = await Promise.all([
    db.checkpoint_scans.where('scanned_at').aboveOrEqual(since).toArray(),
    db.reports.where('created').aboveOrEqual(since).toArray(),
  ]);
  const seen = new Map<string, LastSeen>();
  const offer = (officer: string, position: ReportPosition | null, at: string, what: LastSeen['what']) => {
    if (!position) return;
    const known = seen.get(officer);
    if (!known || known.at < at) seen.set(officer, { position, at, what });
  };
  for (const scan of scans) offer(scan.officer, scan.position, scan.scanned_at, 'scan');
  for (const report of reports) offer(report.created_by, report.position ?? null, report.created, 'report');
  return seen;
}

/**
 * Who is on duty now, longest first, with their last known position (what
 * they scanned or reported since the earliest open shift began: the cost
 * follows the shifts on screen, not the history).
 */
export async function readOnDuty(db: ScmsDatabase): Promise<OnDuty[]> {
  const open = await db.duty_shifts.where('ended_at').equals('').toArray();
  open.sort((a, b) => a.started_at.localeCompare(b.started_at));
  if (open.length === 0) return [];
  const [officers, seen] = await Promise.all([
    db.users.bulkGet(open.map((shift) => shift.officer)),
    lastSeenSince(db, open[0]!.started_at),
  ]);
  return open.map((shift, i) => {
    const last = seen.get(shift.officer);
    return { shift, officer: officers[i], lastSeen: last && last.at >= shift.started_at ? last : null };
  });
}

export function useOnDuty(): OnDuty[] | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['duty_shifts', 'users', 'checkpoint_scans', 'reports'], () => readOnDuty(db), []);
}

export interface AlertView {
  alert: Alert;
  officer: User | undefined;
  /** Its steps, oldest first, each with who took it. */
  steps: Array<{ event: AlertEvent; by: User | undefined }>;
  /** Who said they are responding, once each, in the order they said it. */
  responders: User[];
}

async function viewsOf(db: ScmsDatabase, alerts: Alert[]): Promise<AlertView[]> {
  const events = (
    await Promise.all(alerts.map((alert) => db.alert_events.where('alert').equals(alert.id).toArray()))
  ).map((list) => list.sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id)));
  const ids = new Set<string>();
  alerts.forEach((alert, i) => {
    ids.add(alert.officer);
    for (const event of events[i]!) ids.add(event.by);
  });
  const users = new Map(
    (await db.users.bulkGet([...ids])).filter((user): user is User => !!user).map((user) => [user.id, user]),
  );
  return alerts.map((alert, i) => {
    const steps = events[i]!.map((event) => ({ event, by: users.get(event.by) }));
    const responders: User[] = [];
    for (const { event, by } of steps)
      if (event.kind === 'responding' && by && !responders.some((user) => user.id === by.id)) responders.push(by);
    return { alert, officer: users.get(alert.officer), steps, responders };
  });
}

/** The alerts that are on, newest first, with their steps. */
export async function readOpenAlerts(db: ScmsDatabase): Promise<AlertView[]> {
  const open = await db.alerts.where('ended_at').equals('').toArray();
  open.sort((a, b) => b.raised_at.localeCompare(a.raised_at));
  return viewsOf(db, open);
}

export function useOpenAlerts(): AlertView[] | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['alerts', 'alert_events', 'users'], () => readOpenAlerts(db), []);
}

/** The latest alerts, ended or not, newest first (the Safety screen's history). */
export function useRecentAlerts(limit = 20): AlertView[] | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(
    db,
    ['alerts', 'alert_events', 'users'],
    async () => {
      const all = await db.alerts.toArray();
      all.sort((a, b) => b.raised_at.localeCompare(a.raised_at));
      return viewsOf(db, all.slice(0, limit));
    },
    [limit],
  );
}

export interface CommunitySafetySettings {
  settings: SafetySettingsValues;
  /** The saved record; null while the community has the defaults. */
  record: SafetySettingsRecord | null;
}

export async function readSafetySettings(
  db: ScmsDatabase,
  communityId: string | undefined,
): Promise<CommunitySafetySettings> {
  const record = communityId ? await db.safety_settings.where('community').equals(communityId).first() : undefined;
  if (!record) return { settings: DEFAULT_SAFETY_SETTINGS, record: null };
  return {
    record,
    settings: {
      emergency_number: record.emergency_number,
      shift_limit_hours: record.shift_limit_hours || DEFAULT_SAFETY_SETTINGS.shift_limit_hours,
      check_minutes: record.check_minutes,
      check_grace_minutes: record.check_grace_minutes || DEFAULT_SAFETY_SETTINGS.check_grace_minutes,
    },
  };
}

export function useSafetySettings(communityId: string | undefined): CommunitySafetySettings | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['safety_settings'], () => readSafetySettings(db, communityId), [communityId]);
}

// ---- writes (through the outbox) ------------------------------------------------

export async function startShift(
  db: ScmsDatabase,
  user: SignedInUser,
  position: ReportPosition | null,
  now: Date = new Date(),
): Promise<string> {
  const id = newRecordId();
  const body: Omit<DutyShiftRecord, 'id' | 'created' | 'updated' | 'ended_by' | 'end_position' | 'checked_at'> = {
    community: user.community,
    officer: user.id,
    started_at: pbDate(now),
    ended_at: '',
    start_position: position,
  };
  await enqueue(
    db,
    { userId: user.id, label: 'Start shift', ops: [{ action: 'create', collection: 'duty_shifts', id, body }] },
    now,
  );
  return id;
}

export async function endShift(
  db: ScmsDatabase,
  user: SignedInUser,
  shift: DutyShiftRecord,
  position: ReportPosition | null,
  now: Date = new Date(),
): Promise<void> {
  await enqueue(
    db,
    {
      userId: user.id,
      label: 'End shift',
      ops: [
        {
          action: 'update',
          collection: 'duty_shifts',
          id: shift.id,
          body: { ended_at: pbDate(now), end_position: position },
        },
      ],
    },
    now,
  );
}

/**
 * When the officer's lone-worker check falls due and when it counts as
 * missed (ms), by the rule the server runs (pocketbase/pb_hooks/lib/safety.js,
 * runLoneWorkerChecks): every `check_minutes` after the shift's start or its
 * last answer. null when the community has no check.
 */
export function checkInTimes(
  shift: Pick<DutyShiftRecord, 'started_at' | 'checked_at'>,
  settings: SafetySettingsValues,
): { due: number; missedAt: number } | null {
  if (settings.check_minutes <= 0) return null;
  const time = (stored: string | undefined) => (stored ? Date.parse(stored.replace(' ', 'T')) : 0);
  const due = Math.max(time(shift.started_at), time(shift.checked_at)) + settings.check_minutes * 60_000;
  return { due, missedAt: due + settings.check_grace_minutes * 60_000 };
}

/** The officer's answer to 'Are you OK?': kept on the shift, through the outbox. */
export async function checkIn(
  db: ScmsDatabase,
  user: SignedInUser,
  shift: DutyShiftRecord,
  now: Date = new Date(),
): Promise<void> {
  await enqueue(
    db,
    {
      userId: user.id,
      label: "I'm OK",
      ops: [{ action: 'update', collection: 'duty_shifts', id: shift.id, body: { checked_at: pbDate(now) } }],
    },
    now,
  );
}

/** Raises the officer's panic: queued like every write, sent at once when there is a connection. */
export async function raisePanic(
  db: ScmsDatabase,
  user: SignedInUser,
  position: ReportPosition | null,
  shift: DutyShiftRecord | null,
  now: Date = new Date(),
): Promise<string> {
  const id = newRecordId();
  // No `ended_by` or `end_kind`: the server sets them (its create rule refuses them); `ended_at` '' lists it as on.
  const body: Omit<AlertRecord, 'id' | 'created' | 'updated' | 'ended_by' | 'end_kind'> = {
    community: user.community,
    officer: user.id,
    kind: 'panic',
    raised_at: pbDate(now),
    position,
    shift: shift?.id ?? '',
    ended_at: '',
  };
  await enqueue(
    db,
    { userId: user.id, label: 'Panic', ops: [{ action: 'create', collection: 'alerts', id, body }] },
    now,
  );
  return id;
}

/** Whether the alert still waits in the outbox (not yet on the server); undefined while read, true for none yet. */
export function useAlertQueued(alertId: string | null): boolean | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(
    db,
    ['outbox'],
    async () => !alertId || (await db.outbox.where('recordKeys').equals(`alerts:${alertId}`).count()) > 0,
    [alertId],
  );
}

const STEP_LABELS: Record<AlertEventKind, string> = {
  responding: "I'm responding",
  safe: "I'm safe",
  resolved: 'Resolved',
};

/** A step on an alert: responding (anyone), safe (its officer), resolved (a director or manager). */
export async function takeAlertStep(
  db: ScmsDatabase,
  user: SignedInUser,
  alert: AlertRecord,
  kind: AlertEventKind,
  now: Date = new Date(),
): Promise<void> {
  const id = newRecordId();
  const body: Omit<AlertEventRecord, 'id' | 'created' | 'updated'> = {
    community: user.community,
    alert: alert.id,
    by: user.id,
    kind,
    at: pbDate(now),
  };
  await enqueue(
    db,
    { userId: user.id, label: STEP_LABELS[kind], ops: [{ action: 'create', collection: 'alert_events', id, body }] },
    now,
  );
}

export async function queueSafetySettings(
  db: ScmsDatabase,
  user: SignedInUser,
  values: SafetySettingsValues,
  existing: SafetySettingsRecord | null,
): Promise<void> {
  const body = { ...values, emergency_number: values.emergency_number.trim() };
  const id = existing?.id ?? newRecordId();
  await enqueue(db, {
    userId: user.id,
    label: 'Safety settings',
    ops: [
      existing
        ? { action: 'update', collection: 'safety_settings', id, body }
        : { action: 'create', collection: 'safety_settings', id, body: { ...body, community: user.community } },
    ],
  });
}
