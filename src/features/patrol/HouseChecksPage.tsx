/**
 * Today's house checks, opened from the Homes screen: every home
 * whose check is due today by the due rule (docs/product.md#house-checks), with the house check note and
 * the House check action, and the progress of the day ('7 of 12 checked').
 * A home checked today moves to Done with the time, the officer and the
 * answer to 'Is everything ok?'. Read
 * from the mirror, so it works offline and follows the checks logged on
 * every device (src/data/resources/houseChecks.ts; which homes count:
 * src/domain/todaysHouseChecks.ts).
 *
 * The House check dialog is the Homes screen's own: the app hands it in
 * (`CheckDialog`), since a feature never imports another (docs/architecture.md#the-layers).
 */
import { Suspense, useCallback, useState, type ComponentType } from 'react';
import { Link } from 'react-router-dom';
import type { HouseRecord } from '../../api/records.ts';
import { useOnline } from '../../data/hooks.ts';
import { useLoadProgress } from '../../data/loadProgress.ts';
import type { HouseWithPeople } from '../../data/resources/homes.ts';
import { useTodaysHouseChecks, type DayChecks } from '../../data/resources/houseChecks.ts';
import { everythingOkLine, hasIssues } from '../../domain/houseCheckAnswer.ts';
import { parsePbDate } from '../../domain/pbDate.ts';
import { checkProgress } from '../../domain/todaysHouseChecks.ts';
import { ItemErrorBoundary } from '../../ui/ErrorBoundary.tsx';
import { formatAddress, formatDateTime, formatTime, personName } from '../../ui/format.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { SyncProgress } from '../../ui/SyncProgress.tsx';
import { useNow } from '../../ui/useNow.ts';
import { VirtualList } from '../../ui/VirtualList.tsx';
import { OFFLINE_HOUSE_CHECKS_NOTE } from '../../ui/offlineWords.ts';

export interface HouseCheckDialogProps {
  house: HouseRecord;
  onClose: () => void;
}

const homeKey = (home: HouseWithPeople) => home.house.id;
/** One card a row on a phone, up to three on a desktop (as on Homes). */
const columns = (width: number) => Math.max(1, Math.min(3, Math.floor((width + 16) / 296)));

function windowText(house: HouseRecord): string {
  const day = (value: string) => formatDateTime(value, 'MMM d');
  return `${day(house.house_check_start_date)} – ${day(house.house_check_end_date)}`;
}

function DueCard({ home, onCheck }: { home: HouseWithPeople; onCheck: (house: HouseRecord) => void }) {
  const { house } = home;
  const titleId = `due-${house.id}-title`;
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col gap-2 rounded-lg border border-gray-200 bg-white p-4 shadow-sm"
    >
      <h3 id={titleId} className="font-semibold break-words">
        {formatAddress(house)}
      </h3>
      {house.city && <p className="text-sm text-gray-700">{house.city}</p>}
      <p className="text-xs text-gray-600">Window {windowText(house)}</p>
      {house.house_check_note && (
        <p className="text-sm break-words whitespace-pre-line">
          <span className="font-medium">House check note: </span>
          {house.house_check_note}
        </p>
      )}
      <button
        type="button"
        onClick={() => onCheck(house)}
        aria-describedby={titleId}
        className="mt-auto self-start rounded bg-black px-4 py-2 font-medium text-white hover:bg-gray-800"
      >
        House check
      </button>
    </article>
  );
}

function DoneCard({ home, checks }: { home: HouseWithPeople; checks: DayChecks | undefined }) {
  const { house } = home;
  const report = checks?.byHome.get(house.id);
  // The report tells who and when; until it reaches this device, the home's own last-checked date tells when.
  const when = parsePbDate(report?.incident_time) ?? parsePbDate(house.house_check_last_date);
  const officer = report ? checks?.officers.get(report.created_by) : undefined;
  const titleId = `done-${house.id}-title`;
  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col gap-1 rounded-lg border border-green-200 bg-green-50 p-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} className="font-semibold break-words">
          {formatAddress(house)}
        </h3>
        {report?._pending && (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">Not yet sent</span>
        )}
      </div>
      <p className="text-sm text-gray-800" data-testid="checked-by">
        Checked {when ? formatTime(when) : ''}
        {report ? ` by ${personName(officer)}` : ''}
      </p>
      {report && report.type === 'house_check' && (
        <p
          className={`text-sm font-medium ${hasIssues(report) ? 'text-red-800' : 'text-gray-800'}`}
          data-testid="check-answer"
        >
          {everythingOkLine(report)}
        </p>
      )}
    </article>
  );
}

export function HouseChecksPage({ CheckDialog }: { CheckDialog: ComponentType<HouseCheckDialogProps> }) {
  const now = useNow();
  const online = useOnline();
  const loading = useLoadProgress('houses');
  const { today, checks } = useTodaysHouseChecks(now);
  // Kept as it was when the dialog opened: a live update cannot pull it away mid-check.
  const [checking, setChecking] = useState<HouseRecord | null>(null);
  const onCheck = useCallback((house: HouseRecord) => setChecking(house), []);

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">House checks</h1>
          <p className="text-sm text-gray-700">{formatDateTime(now, 'EEEE, MMM d')}</p>
        </div>
        <Link to="/homes" className="rounded border border-gray-300 bg-white px-4 py-2 font-medium hover:bg-gray-100">
          Back to Homes
        </Link>
      </div>
      {!online && (
        <p role="status" className="rounded border border-gray-300 bg-gray-100 px-3 py-2 text-sm text-gray-800">
          {OFFLINE_HOUSE_CHECKS_NOTE}
        </p>
      )}
      {loading ? (
        <SyncProgress noun="homes" progress={loading} />
      ) : today === undefined ? (
        <div className="flex justify-center py-12">
          <Spinner label="Loading house checks" />
        </div>
      ) : (
        <>
          <div>
            <p className="font-medium" role="status" aria-live="polite" data-testid="house-check-progress">
              {checkProgress(today)}
            </p>
            {today.total > 0 && (
              <div className="mt-2 h-2 overflow-hidden rounded-full bg-gray-200" aria-hidden="true">
                <div
                  className="h-full rounded-full bg-green-600"
                  style={{ width: `${(100 * today.done.length) / today.total}%` }}
                />
              </div>
            )}
          </div>
          <section aria-labelledby="due-heading" className="space-y-3">
            <h2 id="due-heading" className="text-lg font-semibold">
              To check ({today.due.length})
            </h2>
            {today.due.length === 0 ? (
              <p className="rounded-lg border border-dashed border-gray-300 bg-white p-6 text-center">
                {today.total === 0 ? 'No house checks are due today.' : "All of today's house checks are done."}
              </p>
            ) : (
              <VirtualList
                listKey="house-checks-due"
                label="House checks to do"
                items={today.due}
                getKey={homeKey}
                columns={columns}
                estimateRowHeight={() => 170}
                gap={12}
                renderItem={(home) => (
                  <ItemErrorBoundary resetKey={home.house.updated}>
                    <DueCard home={home} onCheck={onCheck} />
                  </ItemErrorBoundary>
                )}
              />
            )}
          </section>
          {today.done.length > 0 && (
            <section aria-labelledby="done-heading" className="space-y-3">
              <h2 id="done-heading" className="text-lg font-semibold">
                Done ({today.done.length})
              </h2>
              <VirtualList
                listKey="house-checks-done"
                label="House checks done today"
                items={today.done}
                getKey={homeKey}
                columns={columns}
                estimateRowHeight={() => 90}
                gap={12}
                renderItem={(home) => (
                  <ItemErrorBoundary resetKey={home.house.updated}>
                    <DoneCard home={home} checks={checks} />
                  </ItemErrorBoundary>
                )}
              />
            </section>
          )}
        </>
      )}
      {/* Its own boundary: while the dialog's chunk loads, the screen stays (a boundary higher up would swap it for a spinner). */}
      {checking && (
        <Suspense fallback={null}>
          <CheckDialog house={checking} onClose={() => setChecking(null)} />
        </Suspense>
      )}
    </section>
  );
}
