/**
 * 'Call history' of a home: every call, newest first, with when,
 * who placed it, its concerns, its outcome, and each attempt (the number
 * dialled, its outcome and time, or why a number was passed over). Read from
 * the mirror, so it works offline and follows the attempts live while a call
 * runs. A call whose retries a director or a manager stopped says who and
 * when.
 */
import type { CallAttemptRecord, CallRecord, HouseRecord } from '../../api/records.ts';
import { ACKNOWLEDGED_LABEL, CALL_HISTORY_TITLE } from '../../domain/callOutcome.ts';
import { attemptWord, CALL_HISTORY_WORDS, callJobWord } from '../../domain/callHistory.ts';
import { formatDateTime, formatPhone, personName } from '../../ui/format.ts';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { callTime } from './callTime.ts';
import { addressLine } from './HomeCard.tsx';
import { callJobFields } from './homeNotices.ts';
import { useCallHistory, type CallHistory } from '../../data/resources/callHistory.ts';

const PHONE_TYPE_WORDS: Record<string, string> = { cell: 'cell', home: 'home', business: 'business' };

function duration(seconds: number): string {
  if (!seconds) return '';
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function Attempt({ attempt }: { attempt: CallAttemptRecord }) {
  const word = attemptWord(attempt, (value) => callTime(value));
  const at = attempt.ended_at || attempt.started_at;
  const type = PHONE_TYPE_WORDS[attempt.phone_type] ?? '';
  return (
    <li className="flex flex-wrap items-baseline justify-between gap-x-3 py-1.5 text-sm">
      <span className="min-w-0">
        <span className="font-medium text-gray-900">{formatPhone(attempt.to_number)}</span>
        {type && <span className="text-gray-700"> ({type})</span>}
      </span>
      <span className="text-gray-800">
        {word}
        {attempt.state === 'ended' && at && <span className="text-gray-700"> · {callTime(at)}</span>}
        {attempt.state === 'ended' && attempt.duration > 0 && (
          <span className="text-gray-700"> · {duration(attempt.duration)}</span>
        )}
      </span>
    </li>
  );
}

function CallEntry({ call, history }: { call: CallRecord; history: CallHistory }) {
  const attempts = history.attemptsByCall.get(call.id) ?? [];
  const fields = callJobFields(call);
  const word = callJobWord(fields, attempts, (value) => callTime(value));
  const placedBy = history.people.get(call.created_by);
  const retriesCancelledBy = history.people.get(call.retries_cancelled_by ?? '');
  const concerns = (call.concerns ?? []).map((id) => history.concerns.get(id)?.name ?? 'A removed concern');
  return (
    <li className="space-y-1 py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <p className="font-semibold text-gray-900">{formatDateTime(call.created)}</p>
        <p className="text-sm font-semibold">
          {word}
          {fields.acknowledged && word !== ACKNOWLEDGED_LABEL && (
            <span className="ml-2 rounded-full bg-green-100 px-2 py-0.5 text-green-900">{ACKNOWLEDGED_LABEL}</span>
          )}
        </p>
      </div>
      <p className="text-sm text-gray-700">
        Placed by {placedBy ? personName(placedBy) : 'a former user'}
        {concerns.length > 0 && <> · {concerns.join(', ')}</>}
      </p>
      {call.text_sent && <p className="text-sm text-gray-800">{CALL_HISTORY_WORDS.textSent}</p>}
      {call.retries_cancelled_at && (
        <p className="text-sm text-gray-800">
          {CALL_HISTORY_WORDS.retriesCancelled} by{' '}
          {retriesCancelledBy ? personName(retriesCancelledBy) : 'a former user'} ·{' '}
          {callTime(call.retries_cancelled_at)}
        </p>
      )}
      {attempts.length > 0 ? (
        <ol aria-label="Attempts" className="divide-y divide-gray-100 rounded border border-gray-200 px-3">
          {attempts.map((attempt) => (
            <Attempt key={attempt.id} attempt={attempt} />
          ))}
        </ol>
      ) : (
        // A call from before attempts were kept: its one number.
        <p className="text-sm text-gray-700">{formatPhone(call.to_number)}</p>
      )}
    </li>
  );
}

export function CallHistorySheet({ house, onClose }: { house: HouseRecord; onClose: () => void }) {
  const history = useCallHistory(house.id);
  return (
    <Sheet open onClose={onClose} title={CALL_HISTORY_TITLE}>
      <p className="text-sm text-gray-700">{addressLine(house)}</p>
      {history === undefined ? (
        <div className="flex justify-center py-8">
          <Spinner label="Loading calls" />
        </div>
      ) : history.calls.length === 0 ? (
        <p className="py-6 text-center text-sm text-gray-700">{CALL_HISTORY_WORDS.empty}</p>
      ) : (
        <ol aria-label="Calls" className="divide-y divide-gray-200">
          {history.calls.map((call) => (
            <CallEntry key={call.id} call={call} history={history} />
          ))}
        </ol>
      )}
    </Sheet>
  );
}
