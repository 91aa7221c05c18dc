/**
 * The words for how a call went, for the home card and 'Call
 * history'. Pure: the screens pass the records from the mirror (calls and
 * call_attempts as the server writes them, pocketbase/pb_hooks/lib/
 * call_jobs.js) and a formatter for times.
 */

export type CallOutcome = 'answered' | 'voicemail' | 'busy' | 'no_answer' | 'failed';

export const CALL_HISTORY_TITLE = 'Call history';
export const ACKNOWLEDGED_LABEL = 'Acknowledged';
/** A job between two attempts whose next one is not known yet (its attempts still on their way to the mirror). */
export const CALL_WAITING_WORD = 'Waiting to call again';

export const CALL_OUTCOME_LABELS: Readonly<Record<CallOutcome, string>> = {
  answered: 'Answered',
  voicemail: 'Voicemail',
  busy: 'Busy',
  no_answer: 'No answer',
  failed: 'Failed',
};

export function isCallOutcome(value: unknown): value is CallOutcome {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(CALL_OUTCOME_LABELS, value);
}

export interface CallJobFields {
  progress: string;
  outcome: string;
  acknowledged: boolean;
}

export interface CallAttemptFields {
  state: string;
  outcome: string;
  /** PocketBase date text, '' while the attempt runs. */
  ended_at: string;
}

/**
 * The latest call in a word or two: 'Acknowledged', 'Answered 10:42',
 * 'Voicemail', 'No answer after 3 tries', 'Busy', 'Failed'; '' while the job
 * runs or for a call from before attempts (the pending notice covers those).
 * `time` formats an attempt's end (PocketBase date text) as the screen shows
 * times.
 */
export function latestCallWord(
  call: CallJobFields,
  attempts: readonly CallAttemptFields[],
  time: (date: string) => string,
): string {
  if (call.progress !== 'done' || !isCallOutcome(call.outcome)) return '';
  if (call.acknowledged) return ACKNOWLEDGED_LABEL;
  const dialled = attempts.filter((a) => a.state !== 'skipped');
  const label = CALL_OUTCOME_LABELS[call.outcome];
  if (call.outcome === 'answered') {
    const answered = dialled.filter((a) => a.outcome === 'answered' && a.ended_at !== '').at(-1);
    return answered ? `${label} ${time(answered.ended_at)}` : label;
  }
  if (call.outcome === 'no_answer' && dialled.length > 1) return `${label} after ${dialled.length} tries`;
  return label;
}

export interface WaitingAttemptFields extends CallAttemptFields {
  /** PocketBase date text: when a scheduled attempt is dialled. */
  due_at: string;
}

/**
 * A job waiting for its next attempt in words: the outcome of the last
 * attempt and when the next one is dialled, 'Busy — next try 08:00'
 * ('Next try 08:00' when no attempt ended with an outcome, e.g. the first
 * phone was passed over). `attempts` in their order; `clock` formats the
 * due time as the screen shows times.
 */
export function nextTryWord(attempts: readonly WaitingAttemptFields[], clock: (date: string) => string): string {
  const next = attempts.find((a) => a.state === 'scheduled' && a.due_at !== '');
  if (!next) return CALL_WAITING_WORD;
  const last = attempts.filter((a) => a.state === 'ended').at(-1);
  const at = clock(next.due_at);
  return last && isCallOutcome(last.outcome)
    ? `${CALL_OUTCOME_LABELS[last.outcome]} — next try ${at}`
    : `Next try ${at}`;
}

/** Whether a call's job is still under way (calling now or waiting for a retry). */
export function isCallJobActive(call: CallJobFields & { status: string }): boolean {
  if (call.progress === 'calling' || call.progress === 'waiting') return true;
  if (call.progress === 'done') return false;
  // Before attempts (progress ''): the provider's status alone says it.
  return ['queued', 'ringing', 'in-progress'].includes(call.status);
}

/** The newest call (by creation) of each home, from any list of calls. */
export function newestCallByHouse<C extends { house: string; created: string }>(calls: readonly C[]): Map<string, C> {
  const newest = new Map<string, C>();
  for (const call of calls) {
    const seen = newest.get(call.house);
    if (!seen || call.created > seen.created) newest.set(call.house, call);
  }
  return newest;
}
