/**
 * Tours screen (docs/product.md#checkpoint-tours): the rounds of the shift
 * under way, each with how it stands (due, in progress, on time, late,
 * incomplete, missed) and who walked it; 'Start tour' on a round that can
 * be walked. Directors and managers also see a past day's rounds, the
 * tours with their schedules, and add or edit them. Reads the mirror only:
 * works offline, and follows every phone's walks as they sync.
 */
import { endOfDay, format, startOfDay } from 'date-fns';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { errorMessage } from '../../api/errorMessage.ts';
import { useSignedInStaff, type Staff } from '../../data/auth.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { SHOWS_ROUNDS, useHistoryRange } from '../../data/resources/historyRange.ts';
import { useToursBoard } from '../../data/resources/shiftBoard.ts';
import { byName, type Tour, type ToursBoard } from '../../data/resources/tourBoards.ts';
import { queueTour, startWalk } from '../../data/resources/tours.ts';
import type { TourValues } from '../../domain/tourSchemas.ts';
import { DateField } from '../../ui/DateField.tsx';
import { formatTime, personName } from '../../ui/format.ts';
import { OFFLINE_DAY_NOT_ON_DEVICE } from '../../ui/offlineWords.ts';
import { RangeNote } from '../../ui/RangeNote.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useToast } from '../../ui/toast.tsx';
import { useNow } from '../../ui/useNow.ts';
import { saveBlob } from '../../ui/saveBlob.ts';
import { roundsCsv } from './roundsCsv.ts';
import { TourForm } from './TourForm.tsx';
import { ROUND_STATUS_TONE, ROUND_STATUS_WORDS } from '../../ui/roundWords.ts';
import { TOUR_WORDS } from './tourWords.ts';

export function ToursPage() {
  // The session guard shows no screen without a user: null is only the instant of a log out.
  const me = useSignedInStaff();
  return me ? <ToursScreen me={me} /> : null;
}

export const managesTours = (me: Staff) => me.type === 'director' || me.type === 'manager';

type SheetState = { kind: 'add' } | { kind: 'edit'; tour: Tour } | null;

const HALF_DAY_MS = 12 * 60 * 60 * 1000;

function ToursScreen({ me }: { me: Staff }) {
  const { db } = useSyncEngine();
  const toast = useToast();
  const navigate = useNavigate();
  const manager = managesTours(me);
  // Every 30 seconds: a round turns due, overdue or missed while the screen is open.
  const now = useNow(30_000);
  const [day, setDay] = useState<Date | null>(null);
  // A day's noon names that day in the community's zone too (its midnight here may be the evening before there).
  const board = useToursBoard({
    community: me.community,
    now: now.getTime(),
    day: day ? day.getTime() + HALF_DAY_MS : undefined,
  });
  // A day older than the first sync's rounds is pulled into the mirror when picked (the shift's always are).
  const shown = day ?? now;
  const range = useHistoryRange(startOfDay(shown), endOfDay(shown), SHOWS_ROUNDS);
  const tours = board?.tours;
  const [sheet, setSheet] = useState<SheetState>(null);

  const [starting, setStarting] = useState(false);
  async function start(tour: Tour, round: { startsAt: number; dueBy: number }) {
    // One walk per tap: a second tap while the first is saved would start a second walk of the round.
    if (starting) return;
    setStarting(true);
    try {
      const id = await startWalk(db, me, tour, round);
      navigate(`/tours/walk/${id}`);
    } catch (error) {
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setStarting(false);
    }
  }

  async function saveTour(values: TourValues, existing?: Tour) {
    await queueTour(db, me, values, existing);
    setSheet(null);
    toast({ title: 'Success', description: existing ? 'Tour saved' : 'Tour added' });
  }

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-2xl font-bold">{TOUR_WORDS.title}</h1>
        {manager && (
          <>
            <Link
              to="/tours/checkpoints"
              className="rounded border border-gray-300 bg-white px-4 py-2 font-medium hover:bg-gray-100"
            >
              {TOUR_WORDS.checkpoints}
            </Link>
            <button
              type="button"
              onClick={() => setSheet({ kind: 'add' })}
              className="rounded bg-black px-4 py-2 font-medium text-white hover:bg-gray-800"
            >
              {TOUR_WORDS.addTour}
            </button>
          </>
        )}
      </div>

      {manager && (
        <div className="flex flex-wrap items-end gap-3">
          <div className="w-56">
            <DateField
              label="Day"
              value={day}
              onChange={(picked) => setDay(picked ? startOfDay(picked) : null)}
              isDayDisabled={(d) => d > now}
            />
          </div>
          <button
            type="button"
            disabled={!board || board.rounds.length === 0}
            onClick={() => board && exportCsv(board, day ?? now)}
            className="min-h-11 rounded border border-gray-300 bg-white px-4 font-medium hover:bg-gray-100 disabled:opacity-50"
          >
            Export CSV
          </button>
          {day && (
            <button
              type="button"
              onClick={() => setDay(null)}
              className="min-h-11 rounded border border-gray-300 bg-white px-4 font-medium hover:bg-gray-100"
            >
              This shift
            </button>
          )}
        </div>
      )}

      <RangeNote
        state={range.state}
        onRetry={range.retry}
        words={{
          loading: 'Loading this day’s rounds…',
          offline: OFFLINE_DAY_NOT_ON_DEVICE,
          failed: 'This day’s rounds could not be loaded. Showing what the device holds.',
        }}
      />

      <section aria-labelledby="rounds-heading" className="space-y-3">
        <h2 id="rounds-heading" className="text-lg font-semibold">
          {day ? `Rounds of ${day.toDateString()}` : 'Rounds of this shift'}
        </h2>
        {!board ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading rounds" />
          </div>
        ) : board.rounds.length === 0 ? (
          <p className="text-gray-700">{tours?.length === 0 && manager ? TOUR_WORDS.noTours : TOUR_WORDS.noRounds}</p>
        ) : (
          <RoundGroups
            // Another day starts folded again.
            key={day?.getTime() ?? 'shift'}
            rounds={board.rounds}
            board={board}
            me={me}
            past={day !== null}
            onStart={(tour, round) => void start(tour, round)}
          />
        )}
      </section>

      {manager && tours && tours.length > 0 && (
        <section aria-labelledby="tours-heading" className="space-y-3">
          <h2 id="tours-heading" className="text-lg font-semibold">
            Tours
          </h2>
          <ul className="space-y-2">
            {tours.map((tour) => (
              <li
                key={tour.id}
                className="flex flex-wrap items-center gap-2 rounded-lg border border-gray-200 bg-white p-3"
              >
                <div className="mr-auto">
                  <p className="font-medium">
                    {tour.name}
                    {!tour.active && <span className="ml-2 text-sm text-gray-600">(off)</span>}
                  </p>
                  <p className="text-sm text-gray-700">
                    Every {tour.every_minutes} min from {tour.start} to {tour.end} · {tour.round_minutes} min a round ·{' '}
                    {tour.checkpoints.length} checkpoint(s){tour.ordered ? ' in order' : ''}
                  </p>
                </div>
                <button
                  type="button"
                  onClick={() => setSheet({ kind: 'edit', tour })}
                  className="min-h-11 rounded border border-gray-300 bg-white px-4 font-medium hover:bg-gray-100"
                  aria-label={`Edit ${tour.name}`}
                >
                  Edit
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}

      <Sheet
        open={sheet !== null}
        onClose={() => setSheet(null)}
        title={sheet?.kind === 'edit' ? TOUR_WORDS.editTour : TOUR_WORDS.addTour}
        wide
      >
        {sheet && board && (
          <TourForm
            tour={sheet.kind === 'edit' ? sheet.tour : undefined}
            checkpoints={[...board.checkpoints.values()].sort(byName)}
            onSubmit={(values) => saveTour(values, sheet.kind === 'edit' ? sheet.tour : undefined)}
          />
        )}
      </Sheet>
    </div>
  );
}

type Round = ToursBoard['rounds'][number];

/** How many upcoming rounds are listed: the next ones matter, the rest of the night is a count. */
const UPCOMING_SHOWN = 3;
/** How many done rounds are listed before 'Show all': the latest say a round was recorded; the night's list is a tap away. */
const DONE_SHOWN = 5;

/**
 * The rounds by what an officer does with them: walk now (due, in
 * progress), next, done (the latest first), and missed (folded: a frequent
 * tour misses many in a quiet night, and the list must not bury the round
 * that is due). Folded rounds are not drawn until asked for: a night of
 * four tours has dozens, and drawing them made the screen slow to open.
 */
function RoundGroups({
  rounds,
  board,
  me,
  past,
  onStart,
}: {
  rounds: readonly Round[];
  board: ToursBoard;
  me: Staff;
  past: boolean;
  onStart: (tour: Tour, round: Round['round']) => void;
}) {
  const [allDone, setAllDone] = useState(false);
  const [missedOpen, setMissedOpen] = useState<boolean | null>(null);
  const now = rounds.filter((r) => r.outcome.status === 'due' || r.outcome.status === 'in_progress');
  const upcoming = rounds.filter((r) => r.outcome.status === 'upcoming');
  const done = rounds.filter((r) => ['on_time', 'late', 'incomplete'].includes(r.outcome.status)).reverse();
  const missed = rounds.filter((r) => r.outcome.status === 'missed');
  const showMissed = missedOpen ?? (past || (now.length === 0 && done.length === 0));
  const item = (r: Round) => (
    <RoundItem key={`${r.tour.id}:${r.round.startsAt}`} entry={r} board={board} me={me} past={past} onStart={onStart} />
  );
  return (
    <div className="space-y-5">
      {now.length > 0 && (
        <div className="space-y-3">
          <h3 className="font-semibold">Now</h3>
          <ul className="space-y-3">{now.map(item)}</ul>
        </div>
      )}
      {upcoming.length > 0 && (
        <div className="space-y-3">
          <h3 className="font-semibold">Next</h3>
          <ul className="space-y-3">{upcoming.slice(0, UPCOMING_SHOWN).map(item)}</ul>
          {upcoming.length > UPCOMING_SHOWN && (
            <p className="text-sm text-gray-700">and {upcoming.length - UPCOMING_SHOWN} more later in the shift</p>
          )}
        </div>
      )}
      {done.length > 0 && (
        <div className="space-y-3">
          <h3 className="font-semibold">Done ({done.length})</h3>
          <ul className="space-y-3">{(allDone ? done : done.slice(0, DONE_SHOWN)).map(item)}</ul>
          {!allDone && done.length > DONE_SHOWN && (
            <button
              type="button"
              onClick={() => setAllDone(true)}
              className="min-h-11 rounded border border-gray-300 bg-white px-4 font-medium hover:bg-gray-100"
            >
              Show all {done.length} done rounds
            </button>
          )}
        </div>
      )}
      {missed.length > 0 && (
        <details className="space-y-3" open={showMissed} onToggle={(event) => setMissedOpen(event.currentTarget.open)}>
          <summary className="min-h-11 cursor-pointer py-2 font-semibold">Missed ({missed.length})</summary>
          {showMissed && <ul className="mt-3 space-y-3">{missed.map(item)}</ul>}
        </details>
      )}
    </div>
  );
}

function RoundItem({
  entry: { tour, round, walks, outcome },
  board,
  me,
  past,
  onStart,
}: {
  entry: Round;
  board: ToursBoard;
  me: Staff;
  past: boolean;
  onStart: (tour: Tour, round: Round['round']) => void;
}) {
  const mine = walks.find((walk) => walk.officer === me.id && walk.ended_at === '');
  const walkable = outcome.status === 'due' || outcome.status === 'in_progress';
  const names = [...new Set(walks.map((walk) => personName(board.officers.get(walk.officer))))];
  const reasons = walks.map((walk) => walk.end_reason).filter(Boolean);
  const missed = outcome.missed.map((id) => board.checkpoints.get(id)?.name ?? 'A deleted checkpoint');
  const final = !walkable && outcome.status !== 'upcoming';
  return (
    <li
      className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm"
      data-round={`${tour.name} ${formatTime(new Date(round.startsAt))}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="mr-auto font-semibold">
          {tour.name} · {formatTime(new Date(round.startsAt))}
        </h4>
        <span className={`rounded-full px-3 py-1 text-sm font-medium ${ROUND_STATUS_TONE[outcome.status]}`}>
          {ROUND_STATUS_WORDS[outcome.status]}
          {outcome.overdue ? ' · overdue' : ''}
        </span>
      </div>
      <p className="mt-1 text-sm text-gray-700">
        Due by {formatTime(new Date(round.dueBy))} · {outcome.scanned.length} of {tour.checkpoints.length} checkpoint(s)
        scanned
        {names.length > 0 ? ` · ${names.join(', ')}` : ''}
      </p>
      {final && missed.length > 0 && <p className="mt-1 text-sm text-red-800">Missed: {missed.join(', ')}</p>}
      {reasons.length > 0 && <p className="mt-1 text-sm text-gray-700">Reason: {reasons.join(' · ')}</p>}
      {!past && (mine || walkable) && (
        <div className="mt-3">
          {mine ? (
            <Link
              to={`/tours/walk/${mine.id}`}
              className="inline-flex min-h-12 items-center rounded bg-black px-5 font-semibold text-white hover:bg-gray-800"
            >
              {TOUR_WORDS.continueTour}
            </Link>
          ) : (
            <button
              type="button"
              onClick={() => onStart(tour, round)}
              className="min-h-12 rounded bg-black px-5 font-semibold text-white hover:bg-gray-800"
            >
              {TOUR_WORDS.startTour}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

function exportCsv(board: ToursBoard, day: Date) {
  // The byte-order mark makes spreadsheet programs read the file as UTF-8.
  const blob = new Blob(['\uFEFF', roundsCsv(board)], { type: 'text/csv;charset=utf-8' });
  saveBlob(blob, `tour-rounds-${format(day, 'yyyy-MM-dd')}.csv`);
}
