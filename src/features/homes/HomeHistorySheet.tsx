/**
 * 'History' of a home: every change of the home, its residents and its
 * phones that the server recorded, newest first, one block per save (who,
 * when), each change in the form's words (homeHistory.ts). Read from the
 * mirror, so it works offline; a value someone overwrote is still here.
 */
import { useMemo } from 'react';
import { useLoadProgress } from '../../data/loadProgress.ts';
import type { HouseWithPeople } from '../../data/resources/homes.ts';
import { formatCreated, formatDateTime } from '../../ui/format.ts';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { SyncProgress } from '../../ui/SyncProgress.tsx';
import { useNow } from '../../ui/useNow.ts';
import { addressLine, hasPendingChanges } from './HomeCard.tsx';
import {
  HISTORY_EMPTY,
  HISTORY_PENDING,
  HISTORY_TITLE,
  historyGroups,
  lineText,
  type ChangeGroup,
  type ChangeLine,
} from './homeHistory.ts';
import { useHomeHistory } from '../../data/resources/homeHistory.ts';

function Change({ line }: { line: ChangeLine }) {
  if (line.kind === 'text') return <li className="py-1 break-words text-gray-900">{line.text}</li>;
  // Long values (a note of 4,500 characters) wrap inside the sheet, whole.
  return (
    <li className="py-1 break-words whitespace-pre-wrap text-gray-900" aria-label={lineText(line)}>
      <span className="font-medium">{line.subject}:</span> <span className="text-gray-700">{line.from}</span>{' '}
      <span aria-hidden="true">→</span> <span>{line.to}</span>
    </li>
  );
}

function Save({ group, now }: { group: ChangeGroup; now: Date }) {
  return (
    <li className="space-y-1 py-3">
      <p className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span className="font-semibold text-gray-900">{group.byName}</span>
        <time dateTime={group.at.replace(' ', 'T')} title={formatDateTime(group.at)} className="text-gray-700">
          {formatCreated(group.at, now)}
        </time>
      </p>
      <ul aria-label={`Changes by ${group.byName}`} className="text-sm">
        {group.lines.map((line) => (
          <Change key={line.id} line={line} />
        ))}
      </ul>
    </li>
  );
}

export function HomeHistorySheet({ home, onClose }: { home: HouseWithPeople; onClose: () => void }) {
  const rows = useHomeHistory(home.house.id);
  const loading = useLoadProgress('home_changes');
  const now = useNow();
  const groups = useMemo(() => (rows ? historyGroups(rows) : undefined), [rows]);
  return (
    <Sheet open onClose={onClose} title={HISTORY_TITLE}>
      <p className="text-sm text-gray-700">{addressLine(home.house)}</p>
      {hasPendingChanges(home) && (
        <p role="status" className="mt-2 rounded border border-gray-300 bg-gray-100 px-3 py-2 text-sm text-gray-800">
          {HISTORY_PENDING}
        </p>
      )}
      {groups === undefined ? (
        <div className="flex justify-center py-8">
          <Spinner label="Loading history" />
        </div>
      ) : groups.length === 0 ? (
        loading ? (
          <SyncProgress noun="history" progress={loading} />
        ) : (
          <p className="py-6 text-center text-sm text-gray-700">{HISTORY_EMPTY}</p>
        )
      ) : (
        <ol aria-label="Changes" className="divide-y divide-gray-200">
          {groups.map((group) => (
            <Save key={group.key} group={group} now={now} />
          ))}
        </ol>
      )}
    </Sheet>
  );
}
