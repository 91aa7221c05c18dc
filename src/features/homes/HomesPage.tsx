/**
 * The Homes screen (docs/product.md#homes): search, count, Add Home, one card per home,
 * and the sheets it opens (Add Home, Update Home, Select concerns, House
 * check). The list is the local mirror, so it works offline and updates
 * live; only calls need a connection. The search runs on the mirror's
 * in-memory index and the list draws only the cards on screen (docs/scaling.md:
 * communities of 20,000 homes). At a desk (from `lg`) the homes are a dense
 * table instead (HomesTable.tsx), sorted by its columns; 'Cards' brings
 * the cards back there, and the choice is kept on the device.
 */
import { memo, useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage } from '../../api/errorMessage.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { useIsDirector, useSignedInRecord, useSignedInUser } from '../../data/auth.ts';
import { fileBaseUrl } from '../../data/fileToken.ts';
import {
  type HouseWithPeople,
  queueDeleteHome,
  useHomeReportCount,
  useHouses,
  useTopHomes,
} from '../../data/resources/homes.ts';
import { useOnline } from '../../data/hooks.ts';
import { useOnlineActions } from '../../data/onlineActions.ts';
import { useLoadProgress } from '../../data/loadProgress.ts';
import { dueFirst, HOME_ORDER_LABELS, HOME_ORDERS, type HomeOrder } from '../../domain/homeOrder.ts';
import { inputClass, searchBoxProps, SelectInput } from '../../ui/Field.tsx';
import { ItemErrorBoundary } from '../../ui/ErrorBoundary.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { SyncProgress, SyncProgressLine } from '../../ui/SyncProgress.tsx';
import { useToast } from '../../ui/toast.tsx';
import { useNow } from '../../ui/useNow.ts';
import { useConfirmedDelete } from '../../ui/useConfirmedDelete.ts';
import { lazyPart } from '../../ui/lazyPart.tsx';
import { VirtualList } from '../../ui/VirtualList.tsx';
import { addressLine, HomeCard } from './HomeCard.tsx';
import { homeImageUrl } from './homeImage.ts';
import { useCallMarkers } from './hooks.ts';
import { savedWords } from '../../ui/savedWords.ts';
import { DESK_QUERY, useMediaQuery } from '../../ui/useMediaQuery.ts';
import { useHomeItem, type HomeAction, type HomeItemProps } from './homeItem.ts';
import { ADDRESS_ORDER, nextSort, orderHomes, sortFound, type HomeColumn, type HomeSort } from './homeColumns.ts';
import { OFFLINE_CALLS } from '../../ui/offlineWords.ts';

// The desk's table, loaded when a wide screen first shows it: a phone never needs it (scripts/bundle-budget.ts).
const HomesTable = lazyPart(() => import('./HomesTable.tsx').then((m) => m.HomesTable));
// Loaded when first opened: the forms' phone input and date picker are not needed to show the homes.
const HomeFormSheet = lazyPart(() => import('./HomeFormSheet.tsx').then((m) => m.HomeFormSheet));
const HouseCheckDialog = lazyPart(() => import('./HouseCheckDialog.tsx').then((m) => m.HouseCheckDialog));
const SelectConcernsSheet = lazyPart(() => import('./SelectConcernsSheet.tsx').then((m) => m.SelectConcernsSheet));
const CallHistorySheet = lazyPart(() => import('./CallHistorySheet.tsx').then((m) => m.CallHistorySheet));
const HomeHistorySheet = lazyPart(() => import('./HomeHistorySheet.tsx').then((m) => m.HomeHistorySheet));

const homeKey = (home: HouseWithPeople) => home.house.id;
/** Cards of at least 280 px, at most three a row: one on a phone, a grid on a desktop. */
const homeColumns = (width: number) => Math.max(1, Math.min(3, Math.floor((width + 16) / 296)));
/** A compact phone card, a desktop row with its photos. */
const homeRowHeight = (columns: number) => (columns === 1 ? 200 : 430);

/** The open sheet; a home is kept as it was when the sheet opened, so a live update cannot pull it away mid-edit. */
type OpenSheet =
  { kind: 'add' } | { kind: 'update' | 'call' | 'check' | 'history' | 'changes'; home: HouseWithPeople } | null;

/** How a desk shows the homes; a phone always shows cards. */
type HomesView = 'table' | 'cards';
const VIEW_KEY = 'scms.homes-view';

function readView(): HomesView {
  try {
    return localStorage.getItem(VIEW_KEY) === 'cards' ? 'cards' : 'table';
  } catch {
    return 'table';
  }
}

/** The desk's view, kept on the device (storage refused, it lasts the page's life). */
function useHomesView(): [HomesView, (view: HomesView) => void] {
  const [view, setView] = useState(readView);
  const choose = useCallback((next: HomesView) => {
    setView(next);
    try {
      localStorage.setItem(VIEW_KEY, next);
    } catch {
      // Private mode or storage full: the choice holds until the page closes.
    }
  }, []);
  return [view, choose];
}

function ViewSwitch({ view, onChange }: { view: HomesView; onChange: (view: HomesView) => void }) {
  const option = (value: HomesView, label: string) => (
    <button
      type="button"
      aria-pressed={view === value}
      onClick={() => onChange(value)}
      className={`px-3 py-2 font-medium ${view === value ? 'bg-gray-900 text-white' : 'bg-white hover:bg-gray-100'}`}
    >
      {label}
    </button>
  );
  return (
    <div role="group" aria-label="View" className="flex overflow-hidden rounded border border-gray-300">
      {option('table', 'Table')}
      {option('cards', 'Cards')}
    </div>
  );
}

/**
 * One card of the list. Memoised: a keystroke in the search redraws only
 * the cards that come into the list, not the ones that stay.
 */
const HomeItem = memo(function HomeItem(props: HomeItemProps) {
  const { home, director, onAction } = props;
  const { notices, callDisabledReason, retries } = useHomeItem(props);
  return (
    <ItemErrorBoundary resetKey={home.house.updated}>
      <HomeCard
        home={home}
        imageUrl={homeImageUrl(fileBaseUrl(), home.house)}
        notices={notices}
        callDisabledReason={callDisabledReason}
        onCall={() => onAction('call', home)}
        onEdit={() => onAction('update', home)}
        onDelete={director ? () => onAction('delete', home) : undefined}
        onHouseCheck={() => onAction('check', home)}
        latestCall={home.latestCall}
        retries={retries}
        onCallHistory={() => onAction('history', home)}
        onHistory={() => onAction('changes', home)}
      />
    </ItemErrorBoundary>
  );
});

/** Where the count of homes (or the progress of their first load) sits beside the search. */
function countPlace(table: boolean): string {
  return table ? 'col-start-2 row-start-1 self-center' : 'col-start-1 row-start-2 pb-2.5 sm:col-span-2 sm:pb-0';
}

export function HomesPage() {
  const [search, setSearch] = useState('');
  const [sheet, setSheet] = useState<OpenSheet>(null);
  const [order, setOrder] = useState<HomeOrder>('address');
  const found = useHouses(search);
  const loading = useLoadProgress('houses');
  const online = useOnline();
  const { marked, mark, settle } = useCallMarkers();
  const now = useNow();
  const desk = useMediaQuery(DESK_QUERY);
  const [view, setView] = useHomesView();
  const table = desk && view === 'table';
  const [sort, setSort] = useState<HomeSort>(ADDRESS_ORDER);
  const onSort = useCallback((column: HomeColumn) => setSort((current) => nextSort(current, column)), []);
  // The table's order of every home: once per list version and sort (Notices: and per minute), not per keystroke.
  const all = useHouses('');
  const noticesNow = sort.column === 'notices' ? now : null;
  const columnOrder = useMemo(
    () => (table && all ? orderHomes(all, sort, noticesNow ?? new Date()) : null),
    [table, all, sort, noticesNow],
  );
  // The index keeps address order; "due first" moves the due homes up in one pass (no sort per keystroke).
  const homes = useMemo(() => {
    if (!found) return found;
    if (table) return sortFound(found, all ?? found, sort, columnOrder);
    return order !== 'address' ? dueFirst(found, (home) => home.house, now) : found;
  }, [found, all, table, sort, columnOrder, order, now]);
  // Until the search index holds every home (an offline start at 20,000 homes takes over a
  // second), the top of the list straight from the mirror, in the same order: nothing moves.
  const top = useTopHomes(found === undefined && search === '' && !table && order === 'address');
  const listed = homes ?? (top?.length ? top : undefined);
  // Nothing to show yet while homes are still arriving: the progress, never 'No homes found'
  // for a list still filling. Whatever the mirror holds is the top of the list (a new phone
  // loads that first, src/data/sync/topOfHomes.ts), so it shows while the rest arrives.
  const waitingForHomes = loading !== null && !listed?.length;
  const close = () => setSheet(null);
  const { db } = useSyncEngine();
  const user = useSignedInUser();
  const director = useIsDirector();
  const staffType = useSignedInRecord()?.type;
  const canCancelRetries = staffType === 'director' || staffType === 'manager';
  const toast = useToast();
  const { cancelCallRetries } = useOnlineActions();
  // Homes whose retries are being cancelled now (an online action: it waits for the server's answer).
  const [cancelling, setCancelling] = useState<ReadonlySet<string>>(() => new Set());
  const cancelRetries = useCallback(
    async (houseId: string) => {
      const without = (current: ReadonlySet<string>) => new Set([...current].filter((id) => id !== houseId));
      setCancelling((current) => new Set(current).add(houseId));
      try {
        toast({ title: 'Success', description: await cancelCallRetries(houseId) });
      } catch (error) {
        toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
      } finally {
        setCancelling(without);
      }
    },
    [cancelCallRetries, toast],
  );
  // Through the outbox like every home write: works offline, the mirror hides the home at once.
  const { deleting, askDelete, cancelDelete, busy, confirmDelete } = useConfirmedDelete<HouseWithPeople>(
    async (home) => {
      try {
        if (!user) throw new Error('Not signed in');
        await queueDeleteHome(db, user, home.house);
        toast({ title: 'Success', description: savedWords(online, 'Home deleted', 'Deletion of the home') });
      } catch (error) {
        toast({ title: 'Fail', description: errorMessage(error), variant: 'destructive' });
      }
    },
  );
  const reportCount = useHomeReportCount(deleting?.house.id);
  const onAction = useCallback(
    (action: HomeAction, home: HouseWithPeople) => {
      if (action === 'delete') askDelete(home);
      else if (action === 'cancel-retries') void cancelRetries(home.house.id);
      else setSheet({ kind: action, home });
    },
    [askDelete, cancelRetries],
  );
  const addButton = (
    <button
      type="button"
      onClick={() => setSheet({ kind: 'add' })}
      className="rounded bg-black px-4 py-2 font-medium text-white hover:bg-gray-800"
    >
      Add Home
    </button>
  );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Homes</h1>
        <div className="flex flex-wrap gap-2">
          {desk && <ViewSwitch view={view} onChange={setView} />}
          {/* Today's house checks: the patrol's list of the day, with its progress. */}
          <Link
            to="/homes/house-checks"
            className="rounded border border-gray-300 bg-white px-4 py-2 font-medium hover:bg-gray-100"
          >
            House checks
          </Link>
          {addButton}
        </div>
      </div>
      {/* On a phone the sort choice shares the count's row: the first screen keeps its room for the homes. */}
      <div className="grid grid-cols-[minmax(0,1fr)_auto] items-end gap-x-3 gap-y-2 sm:gap-y-4">
        <div className="col-span-2 sm:col-span-1">
          <label htmlFor="homes-search" className="sr-only">
            Search homes
          </label>
          <input
            id="homes-search"
            {...searchBoxProps}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search homes..."
            className={`${inputClass} bg-white`}
          />
        </div>
        {/* The table sorts by its columns' headers instead. */}
        {!table && (
          <SelectInput
            label="Sort by"
            className="col-start-2 row-start-2 w-[12.5rem] sm:row-start-1 sm:w-60"
            value={order}
            onChange={(event) => setOrder(event.target.value as HomeOrder)}
          >
            {HOME_ORDERS.map((value) => (
              <option key={value} value={value}>
                {HOME_ORDER_LABELS[value]}
              </option>
            ))}
          </SelectInput>
        )}
        {loading && !waitingForHomes ? (
          <SyncProgressLine
            noun="homes"
            // The top of the list is in before the load's first transaction: count what the list holds too.
            progress={{ ...loading, loaded: Math.max(loading.loaded, all?.length ?? 0) }}
            className={`${countPlace(table)} text-sm text-gray-700`}
          />
        ) : (
          !loading &&
          homes !== undefined && (
            <p className={`${countPlace(table)} text-sm text-gray-700`} aria-live="polite">
              Showing {homes.length} home(s)
            </p>
          )
        )}
      </div>
      {!online && (
        <p role="status" className="rounded border border-gray-300 bg-gray-100 px-3 py-2 text-sm text-gray-800">
          {OFFLINE_CALLS}
        </p>
      )}
      {waitingForHomes ? (
        <SyncProgress noun="homes" progress={loading} />
      ) : listed === undefined ? (
        <div className="flex justify-center py-12">
          <Spinner label="Loading homes" />
        </div>
      ) : (
        <>
          {listed.length === 0 ? (
            <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-gray-300 bg-white p-8 text-center">
              <p className="font-medium">No homes found</p>
              {addButton}
            </div>
          ) : table ? (
            <HomesTable
              homes={listed}
              sort={sort}
              onSort={onSort}
              marked={marked}
              cancelling={cancelling}
              online={online}
              director={director}
              canCancelRetries={canCancelRetries}
              now={now}
              onAction={onAction}
              onCallSeen={settle}
            />
          ) : (
            <VirtualList
              listKey="homes"
              label="Homes"
              items={listed}
              getKey={homeKey}
              columns={homeColumns}
              estimateRowHeight={homeRowHeight}
              gap={16}
              overscan={4}
              reuseRows
              renderItem={(home) => (
                <HomeItem
                  home={home}
                  placedCallId={marked.get(home.house.id)}
                  online={online}
                  director={director}
                  canCancelRetries={canCancelRetries}
                  cancelling={cancelling.has(home.house.id)}
                  now={now}
                  onAction={onAction}
                  onCallSeen={settle}
                />
              )}
            />
          )}
        </>
      )}
      {sheet?.kind === 'add' && <HomeFormSheet mode="add" onClose={close} />}
      {sheet?.kind === 'update' && <HomeFormSheet mode="update" home={sheet.home} onClose={close} />}
      {sheet?.kind === 'call' && (
        <SelectConcernsSheet
          home={sheet.home}
          onClose={close}
          onCallPlaced={(callId) => mark(sheet.home.house.id, callId)}
        />
      )}
      {sheet?.kind === 'check' && <HouseCheckDialog house={sheet.home.house} onClose={close} />}
      {sheet?.kind === 'history' && <CallHistorySheet house={sheet.home.house} onClose={close} />}
      {sheet?.kind === 'changes' && <HomeHistorySheet home={sheet.home} onClose={close} />}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete home?"
        confirmLabel="Delete"
        destructive
        busy={busy}
        // A home with reports keeps them, so it stays (the server refuses too, for reports this device has not pulled).
        confirmDisabled={reportCount === undefined || reportCount > 0}
        onConfirm={() => void confirmDelete()}
        onCancel={cancelDelete}
      >
        {deleting && (
          <>
            <p className="font-semibold text-gray-900">{addressLine(deleting.house)}</p>
            {reportCount ? (
              <p role="alert" className="mt-2 font-medium text-red-800">
                This home has {reportCount} report(s) and cannot be deleted.
              </p>
            ) : (
              <p className="mt-2">The home will be removed with its residents and phones.</p>
            )}
          </>
        )}
      </ConfirmDialog>
    </div>
  );
}
