/**
 * Walking a round (docs/product.md#checkpoint-tours): the tour's
 * checkpoints in order with what was scanned, when and where; 'Scan
 * checkpoint' (the camera) and 'Enter code' (the sticker's short code);
 * 'End tour', which asks why when checkpoints are left. Made for one hand
 * at night: the three buttons sit at the bottom of the screen, large. Every
 * step goes through the outbox: the round is walked in a dead zone and
 * arrives once.
 */
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { errorMessage } from '../../api/errorMessage.ts';
import { useSignedInStaff, type Staff } from '../../data/auth.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { endWalk, queueScan, useCheckpoints, useWalk, type WalkView } from '../../data/resources/tours.ts';
import { parsePbDate } from '../../domain/pbDate.ts';
import { combinedWalk } from '../../domain/tourBoard.ts';
import { roundOutcome } from '../../domain/tourRounds.ts';
import { endReasonSchema } from '../../domain/tourSchemas.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { TextArea } from '../../ui/Field.tsx';
import { formatTime } from '../../ui/format.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { useToast } from '../../ui/toast.tsx';
import { useNow } from '../../ui/useNow.ts';
import { ScanSheet } from './ScanSheet.tsx';
import { ROUND_STATUS_TONE, ROUND_STATUS_WORDS } from '../../ui/roundWords.ts';
import { placeWords, TOUR_WORDS } from './tourWords.ts';

export function WalkPage() {
  const me = useSignedInStaff();
  const { walkId = '' } = useParams();
  const view = useWalk(walkId);
  if (!me || view === undefined)
    return (
      <div className="flex justify-center py-12">
        <Spinner label="Loading the tour" />
      </div>
    );
  if (view === null || !view.tour)
    return (
      <div className="space-y-3">
        <p>This walk is not on this phone.</p>
        <Link to="/tours" className="font-medium underline">
          Back to Tours
        </Link>
      </div>
    );
  return <WalkScreen me={me} view={view as WalkView & { tour: NonNullable<WalkView['tour']> }} />;
}

function WalkScreen({ me, view }: { me: Staff; view: WalkView & { tour: NonNullable<WalkView['tour']> } }) {
  const { db } = useSyncEngine();
  const toast = useToast();
  const navigate = useNavigate();
  const now = useNow(15_000);
  const { walk, roundWalks, tour, checkpoints: onTourList, scans } = view;
  const allCheckpoints = useCheckpoints();
  const [scanMode, setScanMode] = useState<'camera' | 'code' | null>(null);
  const [ending, setEnding] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const roundStart = parsePbDate(walk.round_start)?.getTime() ?? 0;
  const round = { startsAt: roundStart, dueBy: roundStart + tour.round_minutes * 60_000 };
  const outcome = roundOutcome(
    round,
    { checkpoints: tour.checkpoints, ordered: tour.ordered },
    combinedWalk(roundWalks, scans),
    now.getTime(),
  );
  const firstScan = useMemo(() => {
    const first = new Map<string, (typeof scans)[number]>();
    for (const scan of scans) if (!first.has(scan.checkpoint)) first.set(scan.checkpoint, scan);
    return first;
  }, [scans]);
  const scannedAt = useMemo(
    () => new Map([...firstScan].map(([id, scan]) => [id, formatTime(parsePbDate(scan.scanned_at))])),
    [firstScan],
  );
  const left = tour.checkpoints.filter((id) => !firstScan.has(id));
  const open = walk.ended_at === '' && walk.officer === me.id;
  const onTour = useMemo(() => new Set(tour.checkpoints), [tour.checkpoints]);

  async function end() {
    const parsed = endReasonSchema.safeParse(reason);
    if (left.length > 0 && (!parsed.success || parsed.data === '')) {
      setReasonError(parsed.success ? TOUR_WORDS.endReasonRequired : parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    try {
      await endWalk(db, me, walk, tour.name, left.length > 0 ? reason : '');
      setEnding(false);
      toast({ title: 'Success', description: 'Tour ended' });
      navigate('/tours');
    } catch (error) {
      // Not saved (the phone's storage is full, say): the walk stays open, and the officer is told.
      toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4 pb-48 md:pb-6">
      <div>
        <Link to="/tours" className="text-sm font-medium underline">
          ← Tours
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <h1 className="mr-auto text-2xl font-bold">{tour.name}</h1>
          <span className={`rounded-full px-3 py-1 text-sm font-medium ${ROUND_STATUS_TONE[outcome.status]}`}>
            {ROUND_STATUS_WORDS[outcome.status]}
            {outcome.overdue ? ' · overdue' : ''}
          </span>
        </div>
        <p className="text-gray-700">
          Round of {formatTime(new Date(round.startsAt))} · due by {formatTime(new Date(round.dueBy))} ·{' '}
          {outcome.scanned.length} of {tour.checkpoints.length} scanned
        </p>
        {walk.ended_at && (
          <p className="mt-1 text-gray-700">
            Ended at {formatTime(parsePbDate(walk.ended_at))}
            {walk.end_reason ? `: ${walk.end_reason}` : ''}
          </p>
        )}
      </div>

      <ol className="space-y-2" aria-label="Checkpoints">
        {tour.checkpoints.map((id, index) => {
          const checkpoint = onTourList.find((c) => c.id === id);
          const scan = firstScan.get(id);
          const where = scan ? placeWords({ place: scan.place, distance: scan.distance }) : '';
          return (
            <li
              key={id}
              className={`flex items-start gap-3 rounded-lg border p-3 ${scan ? 'border-green-300 bg-green-50' : 'border-gray-200 bg-white'}`}
            >
              <span
                aria-hidden="true"
                className={`flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${scan ? 'bg-green-700 text-white' : 'bg-gray-200 text-gray-800'}`}
              >
                {scan ? '✓' : index + 1}
              </span>
              <div className="min-w-0">
                <p className="font-medium">{checkpoint?.name ?? 'A deleted checkpoint'}</p>
                <p className="text-sm text-gray-700">
                  {scan
                    ? `Scanned at ${formatTime(parsePbDate(scan.scanned_at))}${scan.answer ? ` · ${scan.answer === 'yes' ? 'Yes' : 'No'}` : ''}`
                    : 'Not scanned'}
                  {where ? ` · ${where}` : ''}
                  {outcome.outOfOrder.includes(id) ? ' · out of order' : ''}
                </p>
              </div>
            </li>
          );
        })}
      </ol>

      {open && (
        <div className="fixed inset-x-0 bottom-0 z-30 border-t border-gray-200 bg-white p-3 shadow-lg md:static md:border-0 md:bg-transparent md:p-0 md:shadow-none">
          <div className="mx-auto flex max-w-6xl flex-col gap-2 md:flex-row">
            <button
              type="button"
              onClick={() => setScanMode('camera')}
              className="min-h-14 rounded bg-black px-5 text-lg font-semibold text-white hover:bg-gray-800 md:min-h-12"
            >
              {TOUR_WORDS.scanCheckpoint}
            </button>
            <div className="flex gap-2">
              <button
                type="button"
                onClick={() => setScanMode('code')}
                className="min-h-12 flex-1 rounded border border-gray-300 bg-white px-5 font-semibold hover:bg-gray-100"
              >
                {TOUR_WORDS.enterCode}
              </button>
              <button
                type="button"
                onClick={() => (left.length > 0 ? setEnding(true) : void end())}
                className="min-h-12 flex-1 rounded border border-gray-300 bg-white px-5 font-semibold hover:bg-gray-100"
              >
                {TOUR_WORDS.endTour}
              </button>
            </div>
          </div>
        </div>
      )}

      <ScanSheet
        mode={scanMode}
        communityId={me.community}
        checkpoints={allCheckpoints ?? onTourList}
        onTour={onTour}
        scannedAt={scannedAt}
        onClose={() => setScanMode(null)}
        onSave={async (scan) => {
          // No toast: the checklist shows the scan, and a toast would cover the buttons the next scan needs.
          await queueScan(db, me, walk, scan);
        }}
      />

      <ConfirmDialog
        open={ending}
        title={TOUR_WORDS.endTour}
        confirmLabel={TOUR_WORDS.endTour}
        busy={busy}
        onConfirm={() => void end()}
        onCancel={() => setEnding(false)}
      >
        <p className="mb-3">
          {left.length} checkpoint(s) not scanned:{' '}
          {left.map((id) => onTourList.find((c) => c.id === id)?.name ?? 'A deleted checkpoint').join(', ')}.
        </p>
        <TextArea
          label={TOUR_WORDS.endReasonLabel}
          rows={3}
          value={reason}
          error={reasonError}
          onChange={(event) => {
            setReason(event.target.value);
            setReasonError(undefined);
          }}
        />
      </ConfirmDialog>
    </div>
  );
}
