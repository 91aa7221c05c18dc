/**
 * The words of 'Call history' beside the outcomes of
 * callOutcome.ts, and the order a call tries a home's phones. Apart from
 * callOutcome.ts, which the home card needs on the Homes screen's first
 * load: this part loads with the call sheet and the history. The server's
 * call jobs use the same words and order (compiled into
 * pb_hooks/lib/generated/call_history.js).
 */
import {
  ACKNOWLEDGED_LABEL,
  CALL_OUTCOME_LABELS,
  CALL_WAITING_WORD,
  isCallOutcome,
  latestCallWord,
  type CallAttemptFields,
  type CallJobFields,
} from './callOutcome.ts';

/** Words of 'Call history' beside the outcomes. */
export const CALL_HISTORY_WORDS = {
  empty: 'No calls yet',
  calling: 'Calling...',
  waiting: CALL_WAITING_WORD,
  textSent: 'Text message sent',
  /** A director or a manager stopped the job while it waited for its next try ('… by Jane Doe · 17:52'). */
  retriesCancelled: 'Retries cancelled',
  /** The server's reason for the attempts they stopped (pocketbase/pb_hooks/lib/call_jobs.js). */
  retriesCancelledReason: 'Not called: the retries were cancelled.',
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
