/**
 * The words for how a call went (issue 14), for the home card and 'Call
 * history'. Pure: the screens pass the records from the mirror (calls and
 * call_attempts as the server writes them, pocketbase/pb_hooks/lib/
 * call_jobs.js) and a formatter for times.
 */

export type CallOutcome = 'answered' | 'voicemail' | 'busy' | 'no_answer' | 'failed';

export const CALL_HISTORY_TITLE = 'Call history';
export const ACKNOWLEDGED_LABEL = 'Acknowledged';

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

/** Words of 'Call history' beside the outcomes. */
export const CALL_HISTORY_WORDS = {
  empty: 'No calls yet',
  calling: 'Calling...',
  waiting: 'Waiting to call again',
  textSent: 'Text message sent',
  /** Calls placed before attempts were kept: their status is all there is. */
  legacyEnded: 'Ended',
  /** The server's reason for a do-not-call phone (pocketbase/pb_hooks/lib/call_jobs.js says the same). */
  doNotCall: 'Not called: the resident asked not to be called on this number.',
  /** Every number of the home is do-not-call: the call sheet says it and the server refuses the call. */
  noCallableNumber: "Not called: the resident asked not to be called on any of this home's numbers.",
} as const;

export interface CallAttemptLine extends CallAttemptFields {
  due_at: string;
  acknowledged: boolean;
  reason: string;
}

/**
 * One attempt of 'Call history' in words: its outcome ('Busy'), 'Calling...'
 * while it runs, 'Scheduled 10:47' while it waits for its time, or why it
 * was passed over.
 */
export function attemptWord(attempt: CallAttemptLine, time: (date: string) => string): string {
  switch (attempt.state) {
    case 'skipped':
      return attempt.reason || CALL_HISTORY_WORDS.doNotCall;
    case 'scheduled':
      return attempt.due_at ? `Scheduled ${time(attempt.due_at)}` : 'Scheduled';
    case 'ended':
      if (!isCallOutcome(attempt.outcome)) return CALL_HISTORY_WORDS.legacyEnded;
      return attempt.acknowledged
        ? `${CALL_OUTCOME_LABELS[attempt.outcome]}, ${ACKNOWLEDGED_LABEL}`
        : CALL_OUTCOME_LABELS[attempt.outcome];
    default:
      return CALL_HISTORY_WORDS.calling;
  }
}

/** A whole call of 'Call history' in words: its outcome when done, else where the job stands. */
export function callJobWord(
  call: CallJobFields & { status: string },
  attempts: readonly CallAttemptFields[],
  time: (date: string) => string,
): string {
  if (call.progress === 'calling') return CALL_HISTORY_WORDS.calling;
  if (call.progress === 'waiting') return CALL_HISTORY_WORDS.waiting;
  const word = latestCallWord(call, attempts, time);
  if (word) return word;
  // Before attempts: the provider's last status of its one dial.
  return ['queued', 'ringing', 'in-progress'].includes(call.status)
    ? CALL_HISTORY_WORDS.calling
    : CALL_HISTORY_WORDS.legacyEnded;
}

/** Whether a call's job is still under way (calling now or waiting for a retry). */
export function isCallJobActive(call: CallJobFields & { status: string }): boolean {
  if (call.progress === 'calling' || call.progress === 'waiting') return true;
  if (call.progress === 'done') return false;
  // Before attempts (progress ''): the provider's status alone says it.
  return ['queued', 'ringing', 'in-progress'].includes(call.status);
}

const PHONE_TYPE_RANK: Readonly<Record<string, number>> = { cell: 1, home: 2, business: 3 };

/** Where a phone comes in the order a call tries them: primary first, then cell, home, business, then untyped. */
export function phoneRank(phone: { primary: boolean; type: string }): number {
  return phone.primary ? 0 : (PHONE_TYPE_RANK[phone.type] ?? 4);
}

/**
 * A home's phones in the order a call tries them (phoneRank; oldest first
 * within a rank), as the server dials them and the call sheet lists them.
 */
export function callOrder<P extends { primary: boolean; type: string; created: string; id: string }>(
  phones: readonly P[],
): P[] {
  const oldestFirst = [...phones].sort((a, b) =>
    a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  return oldestFirst
    .map((phone, i) => ({ phone, i, rank: phoneRank(phone) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((r) => r.phone);
}
