/**
 * The Homes list at a desk (from Tailwind's `lg`, 1024 px): one dense row
 * per home, so a manager sees fifteen homes and more at 1280x800 where the
 * cards show three. The same homes as the cards (the same search over the
 * mirror, so offline too), the same notices, last call and actions, drawn
 * by the card's own parts. Sorted by a click on a column's header
 * (`aria-sort` says how); the order's cost is in homeColumns.ts. Only the
 * rows on screen are drawn (VirtualList).
 */
import { streetLine } from '../../domain/address.ts';
import { memo } from 'react';
import type { HouseWithPeople } from '../../data/resources/homes.ts';
import { ItemErrorBoundary } from '../../ui/ErrorBoundary.tsx';
import { VirtualList } from '../../ui/VirtualList.tsx';
import {
  addressLine,
  hasPendingChanges,
  HomeActionButtons,
  HomeHistoryButton,
  LastCall,
  Notices,
} from './HomeCard.tsx';
import { useHomeItem, type HomeItemProps } from './homeItem.ts';
import {
  HOME_COLUMN_LABELS,
  HOME_COLUMNS,
  phoneWords,
  residentNames,
  type HomeColumn,
  type HomeSort,
} from './homeColumns.ts';

/** The columns' widths: one template for the header and every row, so the columns line up. */
const gridOf = (director: boolean) =>
  `grid min-w-0 items-center gap-x-3 px-3 ${
    director
      ? 'grid-cols-[minmax(0,1.8fr)_minmax(0,1.2fr)_minmax(7.5rem,1fr)_minmax(0,2fr)_minmax(0,1.7fr)_14.5rem]'
      : 'grid-cols-[minmax(0,1.8fr)_minmax(0,1.2fr)_minmax(7.5rem,1fr)_minmax(0,2fr)_minmax(0,1.7fr)_10.5rem]'
  }`;

const ROW_PX = 37;
const homeKey = (home: HouseWithPeople) => home.house.id;

/** One home's row. Memoised as the cards are: a keystroke redraws only the rows that come into the list. */
const HomeRow = memo(function HomeRow(props: HomeItemProps) {
  const { home, director, onAction } = props;
  const { house } = home;
  const { notices, callDisabledReason, retries } = useHomeItem(props);
  const running = notices.includes('call-in-progress') || notices.includes('call-waiting');
  const address = addressLine(house);
  const names = residentNames(home.residents).join(', ');
  const phones = home.phones.map((p) => phoneWords(p.phone_number)).join(', ');
  return (
    <>
      <div role="rowheader" className="flex min-w-0 items-center gap-2 py-1" title={address}>
        <span className="truncate font-semibold">{streetLine(house)}</span>
        {hasPendingChanges(home) && (
          <span className="shrink-0 rounded-full bg-gray-200 px-2 py-0.5 text-xs font-medium text-gray-800">
            Not yet sent
          </span>
        )}
      </div>
      <div role="cell" className="truncate py-1 text-gray-800" title={names || undefined}>
        {names}
      </div>
      <div role="cell" className="truncate py-1 text-gray-800 tabular-nums" title={phones || undefined}>
        {phones}
      </div>
      <div role="cell" className="min-w-0 py-1">
        <Notices
          notices={notices}
          onHouseCheck={() => onAction('check', home)}
          address={address}
          latestCall={home.latestCall}
          retries={retries}
          dense
        />
      </div>
      <div role="cell" className="flex min-w-0 flex-wrap items-center gap-x-2 py-1 text-gray-800">
        {home.latestCall && (
          <LastCall
            call={home.latestCall}
            running={running}
            onCallHistory={() => onAction('history', home)}
            callHistoryLabel={`Call history of ${address}`}
            prefix={false}
          />
        )}
      </div>
      <div role="cell" className="flex items-center justify-end gap-2 py-1">
        <HomeHistoryButton address={address} onHistory={() => onAction('changes', home)} />
        <HomeActionButtons
          address={address}
          callDisabledReason={callDisabledReason}
          onCall={() => onAction('call', home)}
          onEdit={() => onAction('update', home)}
          onDelete={director ? () => onAction('delete', home) : undefined}
          dense
        />
      </div>
    </>
  );
});

function SortArrow({ direction }: { direction: HomeSort['direction'] | null }) {
  return (
    <span aria-hidden="true" className={`w-3 text-xs ${direction ? 'text-gray-900' : 'text-gray-400'}`}>
      {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
    </span>
  );
}

function ColumnHeader({
  column,
  sort,
  onSort,
}: {
  column: HomeColumn;
  sort: HomeSort;
  onSort: (column: HomeColumn) => void;
}) {
  const direction = sort.column === column ? sort.direction : null;
  return (
    <div role="columnheader" aria-sort={direction ?? undefined} className="min-w-0">
      <button
        type="button"
        onClick={() => onSort(column)}
        className="inline-flex max-w-full items-center gap-1 rounded py-2 font-semibold hover:text-blue-800"
      >
        <span className="truncate">{HOME_COLUMN_LABELS[column]}</span>
        <SortArrow direction={direction} />
      </button>
    </div>
  );
}

export interface HomesTableProps extends Omit<HomeItemProps, 'home' | 'placedCallId' | 'cancelling'> {
  /** The homes found, in the table's order. */
  homes: readonly HouseWithPeople[];
  sort: HomeSort;
  onSort: (column: HomeColumn) => void;
  /** By home: the id of a call just placed from this device. */
  marked: ReadonlyMap<string, string>;
  /** Homes whose retries are being cancelled now. */
  cancelling: ReadonlySet<string>;
}

export function HomesTable({ homes, sort, onSort, marked, cancelling, ...row }: HomesTableProps) {
  const grid = gridOf(row.director);
  return (
    <div
      role="table"
      aria-label="Homes"
      aria-rowcount={homes.length + 1}
      className="rounded-lg border border-gray-200 bg-white text-sm shadow-sm"
    >
      {/* Under the sticky top bar (54 px at a desk), the headers stay in view while the rows scroll. */}
      <div role="rowgroup" className="sticky top-[3.375rem] z-10 rounded-t-lg border-b border-gray-300 bg-gray-100">
        <div role="row" aria-rowindex={1} className={grid}>
          {HOME_COLUMNS.map((column) => (
            <ColumnHeader key={column} column={column} sort={sort} onSort={onSort} />
          ))}
          <div role="columnheader" className="py-2 text-right font-semibold">
            Actions
          </div>
        </div>
      </div>
      <VirtualList
        listKey="homes-table"
        label="Homes"
        items={homes}
        getKey={homeKey}
        estimateRowHeight={() => ROW_PX}
        overscan={8}
        rows={{ firstIndex: 2, className: `${grid} border-b border-gray-100 hover:bg-gray-50` }}
        renderItem={(home) => (
          <ItemErrorBoundary resetKey={home.house.updated} as="cell">
            <HomeRow
              home={home}
              placedCallId={marked.get(home.house.id)}
              cancelling={cancelling.has(home.house.id)}
              {...row}
            />
          </ItemErrorBoundary>
        )}
      />
    </div>
  );
}
