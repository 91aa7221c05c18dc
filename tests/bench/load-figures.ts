/**
 * The pure half of `npm run bench:load` (load.ts): what N officers ask of
 * the server per second at a peak shift, the stage plan autocannon runs,
 * percentiles, the CPU a process used (from /proc), the verdict of where
 * the server saturates, and the table. Nothing here starts a server, so the
 * unit tests (tests/unit/bench-load-figures.test.ts) check it directly.
 */

/** The kinds of work measured, in the table's order. */
export const KINDS = ['pull', 'report', 'houseCheck', 'call', 'realtime'] as const;
export type Kind = (typeof KINDS)[number];

export const KIND_LABELS: Record<Kind, string> = {
  pull: 'pull (one of its requests)',
  report: 'create report',
  houseCheck: 'house check batch',
  call: 'call',
  realtime: 'realtime connect',
};

/**
 * One officer at a peak shift, in seconds between two of each. The app's
 * own schedule (src/data/sync/engine.ts) pulls on every realtime (re)connect,
 * on every return to the app (visibilitychange), on coming back online and
 * every 5 minutes with the reconciliation; a phone locked and unlocked
 * while patrolling returns to the app every minute or two, so one whole
 * incremental pull a minute is the busy end of that (and covers the
 * reconciliation's counts). Writes: a house check every 2 minutes on a
 * patrol list, a report every 5 minutes, a call to a resident every 15.
 */
export const PEAK_SHIFT = {
  pullEverySeconds: 60,
  reportEverySeconds: 300,
  houseCheckEverySeconds: 120,
  callEverySeconds: 900,
} as const;

/**
 * Requests of one incremental pull: the changes route (every collection
 * scoped by its community, src/data/sync/changes.ts) and a page each of
 * residents and phones (src/data/sync/pull.ts).
 */
export const PULL_REQUESTS = 3;

export interface KindPlan {
  /** Requests per second the officers ask for. */
  rate: number;
  /** Requests sent in the stage: the rate over the stage, at least `minimum` (so a small N still gives a latency). */
  amount: number;
  /** autocannon's overallRate: whole requests per second, at least 1. */
  overallRate: number;
  /** Connections in flight at once (each officer's phone has its own; capped for the load generator). */
  connections: number;
}

export type StagePlan = Record<Exclude<Kind, 'realtime'>, KindPlan>;

const MAX_CONNECTIONS = 50;

function kindPlan(rate: number, seconds: number, minimum: number, officers: number): KindPlan {
  const amount = Math.max(minimum, Math.round(rate * seconds));
  const overallRate = Math.max(1, Math.round(rate));
  return { rate, amount, overallRate, connections: Math.max(1, Math.min(officers, MAX_CONNECTIONS, overallRate)) };
}

/** What N officers send during a stage of `seconds`. */
export function stagePlan(officers: number, seconds: number, shift = PEAK_SHIFT): StagePlan {
  return {
    pull: kindPlan((officers * PULL_REQUESTS) / shift.pullEverySeconds, seconds, PULL_REQUESTS, officers),
    report: kindPlan(officers / shift.reportEverySeconds, seconds, 3, officers),
    houseCheck: kindPlan(officers / shift.houseCheckEverySeconds, seconds, 3, officers),
    call: kindPlan(officers / shift.callEverySeconds, seconds, 2, officers),
  };
}

/** `--officers 25,100`: whole numbers ≥ 1, ascending, no repeats. */
export function parseOfficers(text: string): number[] {
  const values = text.split(',').map((part) => part.trim());
  const numbers = values.map(Number);
  if (values.some((v) => v === '') || numbers.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`--officers takes whole numbers of at least 1 separated by commas (25,100), not '${text}'`);
  }
  return [...new Set(numbers)].sort((a, b) => a - b);
}

/** The value below which p percent of the values lie (nearest rank); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** User plus system CPU time in clock ticks, from the text of /proc/<pid>/stat. */
export function cpuTicks(stat: string): number {
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('not a /proc/<pid>/stat line');
  return utime + stime;
}

/** Resident memory in MiB from the text of /proc/<pid>/status (VmRSS, in kB). */
export function rssMiB(status: string): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error('no VmRSS in /proc/<pid>/status');
  return Number(match[1]) / 1024;
}

/** CPU used between two readings, in percent of one core (200 % is both cores of this machine). */
export function cpuPercent(ticksBefore: number, ticksAfter: number, elapsedMs: number, ticksPerSecond = 100): number {
  return ((ticksAfter - ticksBefore) / ticksPerSecond / (elapsedMs / 1000)) * 100;
}

export interface KindFigures {
  /** Requests (or connects) completed. */
  count: number;
  p50: number;
  p99: number;
  /** Failed: connection errors, timeouts and answers other than 2xx. */
  errors: number;
}

export interface StageFigures {
  officers: number;
  /** Requests planned for the load window and completed, the window's planned length and the time they took. */
  planned: number;
  completed: number;
  plannedSeconds: number;
  seconds: number;
  kinds: Record<Kind, KindFigures>;
  /** Time from a report's create to its realtime event at each subscriber. */
  delivery: { events: number; p50: number; p99: number };
  /** Percent of one core over the load window; null when /proc could not be read. */
  serverCpu: number | null;
  /** PocketBase's resident memory at the stage's end, in MiB; null when /proc could not be read. */
  serverRssMiB: number | null;
  benchCpu: number;
  load1: number;
  /** New phones' first syncs started with the stage (first-syncs.ts): how many, how long they took, how many requests failed. */
  firstSyncs?: { count: number; p50Ms: number; maxMs: number; requests: number; failed: number; failures: number[] };
}

/** p99 above this for a request an officer waits on (a save, a pull page) counts as saturated. */
export const P99_LIMIT_MS = 1_000;

/** Why a stage counts as saturated (none: it held). */
export function saturation(stage: StageFigures): string[] {
  const reasons: string[] = [];
  if (stage.completed < 0.9 * stage.planned)
    reasons.push(`served ${stage.completed} of ${stage.planned} requests planned`);
  if (stage.seconds > 1.25 * stage.plannedSeconds)
    reasons.push(`${Math.round(stage.seconds)} s to send ${stage.plannedSeconds} s of requests`);
  const requests = KINDS.reduce((s, k) => s + stage.kinds[k].count + stage.kinds[k].errors, 0);
  const errors = KINDS.reduce((s, k) => s + stage.kinds[k].errors, 0);
  if (errors > 0.01 * requests) reasons.push(`${errors} errors`);
  for (const kind of KINDS) {
    if (kind !== 'realtime' && stage.kinds[kind].p99 > P99_LIMIT_MS)
      reasons.push(`${KIND_LABELS[kind]} p99 ${Math.round(stage.kinds[kind].p99)} ms`);
  }
  if (stage.delivery.p99 > 5 * P99_LIMIT_MS)
    reasons.push(`realtime events p99 ${(stage.delivery.p99 / 1000).toFixed(1)} s late`);
  return reasons;
}

const fmtMs = (n: number) => (Number.isNaN(n) ? '—' : n < 10 ? n.toFixed(1) : String(Math.round(n)));
const fmtPct = (n: number | null) => (n === null ? 'n/a' : `${Math.round(n)} %`);

/** The markdown table: one row per N. */
export function table(stages: readonly StageFigures[]): string {
  const head = [
    'Officers',
    'Requests/s',
    ...KINDS.map((k) => `${KIND_LABELS[k]} p50 / p99 ms`),
    'Realtime event p50 / p99 ms',
    'Errors',
    'PocketBase CPU',
    'PocketBase memory',
    'Bench CPU',
    'Load (1 min)',
  ];
  const rows = stages.map((s) => [
    s.firstSyncs ? `${s.officers} + ${s.firstSyncs.count} first syncs` : String(s.officers),
    `${(s.completed / s.seconds).toFixed(1)} of ${(s.planned / s.plannedSeconds).toFixed(1)}`,
    ...KINDS.map((k) => `${fmtMs(s.kinds[k].p50)} / ${fmtMs(s.kinds[k].p99)}`),
    `${fmtMs(s.delivery.p50)} / ${fmtMs(s.delivery.p99)}`,
    String(KINDS.reduce((n, k) => n + s.kinds[k].errors, 0)),
    fmtPct(s.serverCpu),
    s.serverRssMiB === null ? 'n/a' : `${Math.round(s.serverRssMiB)} MiB`,
    fmtPct(s.benchCpu),
    s.load1.toFixed(2),
  ]);
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/**
 * On a shared machine PocketBase gets what the others leave it, so its
 * latencies say little about the server; the CPU it used per officer does.
 * The officers both cores would keep busy to `ceiling` percent (of one core
 * each), from the largest stage with a CPU reading, linearly: an upper
 * bound, as the realtime fan-out (every write sent to every subscriber)
 * grows faster than the officers. Null without a reading.
 */
export function cpuBoundOfficers(stages: readonly StageFigures[], cores: number, ceiling = 80): number | null {
  const measured = stages.filter((s) => s.serverCpu !== null && s.serverCpu > 0);
  const last = measured[measured.length - 1];
  if (!last) return null;
  return Math.floor((last.officers * cores * ceiling) / last.serverCpu!);
}

/** One sentence: the first N that saturated and why, or that none did. */
export function verdict(stages: readonly StageFigures[]): string {
  const first = stages.find((s) => saturation(s).length > 0);
  const held = stages.filter((s) => s !== first && (!first || s.officers < first.officers));
  const last = held[held.length - 1];
  if (!first) return `No saturation up to ${stages[stages.length - 1]?.officers ?? 0} officers.`;
  return `${last ? `Held at ${last.officers} officers; s` : 'S'}aturates at ${first.officers} officers: ${saturation(first).join('; ')}.`;
}
