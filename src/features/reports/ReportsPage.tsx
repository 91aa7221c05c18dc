/**
 * The report list (docs/product.md#the-reports-list): the whole current month newest first on
 * opening; search, 'Filter + Sort', print (one report or the list) and CSV
 * export of what is shown. It reads the local mirror only; an older range
 * is pulled into the mirror on demand.
 */
import { format } from 'date-fns';
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link } from 'react-router-dom';
import { useSignedInStaff } from '../../data/auth.ts';
import { SHOWS_REPORTS, useHistoryRange } from '../../data/resources/historyRange.ts';
import { type ReportWithLinks, useReports } from '../../data/resources/reports.ts';
import { useLoadProgress } from '../../data/loadProgress.ts';
import { saveBlob } from '../../ui/saveBlob.ts';
import { formatDate } from '../../ui/dateTime.ts';
import { ItemErrorBoundary } from '../../ui/ErrorBoundary.tsx';
import { searchBoxProps } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { RangeNote } from '../../ui/RangeNote.tsx';
import { SyncProgress } from '../../ui/SyncProgress.tsx';
import { useNow } from '../../ui/useNow.ts';
import { VirtualList } from '../../ui/VirtualList.tsx';
import { reportsCsv } from './csv.ts';
import { FilterDialog } from './FilterDialog.tsx';
import type { NarrativeChoice } from './narrative.ts';
import { ReportCard } from './ReportCard.tsx';
import { ReportPrintRow } from './ReportPrintRow.tsx';
import { defaultFilter, type ListFilter } from './reportFilter.ts';
import { OFFLINE_OLDER_REPORTS } from '../../ui/offlineWords.ts';

const buttonClass = 'rounded border border-gray-300 bg-white px-3 py-2 text-sm font-medium hover:bg-gray-100';

const SEARCH_PLACEHOLDER = 'Address, type, resident, member number, etc...';

/** While printing: the whole filtered list, or one report. */
type Printing = { only: string | null } | null;

const reportKey = (item: ReportWithLinks) => item.report.id;
/** Two columns of cards at a desk, one on a phone or a narrow window. */
const reportColumns = (width: number) => (width >= 960 ? 2 : 1);

export function ReportsPage() {
  const [filter, setFilter] = useState<ListFilter>(() => defaultFilter());
  const [search, setSearch] = useState('');
  const [dialogOpen, setDialogOpen] = useState(false);
  // The screen draws only the cards in view; paper gets every filtered
  // report (or the one asked for) from a print-only list that exists only
  // while printing.
  const [printing, setPrinting] = useState<Printing>(null);
  const printingNow = useRef(false);
  // The narrative version picked on each card (see ReportCard).
  const [picks, setPicks] = useState<ReadonlyMap<string, NarrativeChoice>>(() => new Map());
  const now = useNow();
  const reports = useReports({
    from: filter.from,
    to: filter.to,
    types: filter.types,
    sort: filter.sort,
    withIssues: filter.withIssues,
    search,
  });
  const loading = useLoadProgress('reports');
  const range = useHistoryRange(filter.from, filter.to, SHOWS_REPORTS);
  const printOnly = printing?.only ?? null;
  // The manager's view is for directors and managers.
  const staffType = useSignedInStaff()?.type;
  const seesDashboard = staffType === 'director' || staffType === 'manager';

  useEffect(() => {
    // The browser's own Print (menu, Ctrl+P) snapshots the page right after
    // 'beforeprint': the print list must be in the DOM by then.
    const before = () => {
      if (printingNow.current) return;
      printingNow.current = true;
      flushSync(() => setPrinting({ only: null }));
    };
    const after = () => {
      printingNow.current = false;
      setPrinting(null);
    };
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, []);

  const print = (reportId: string | null) => {
    // The page must show the right cards before the print dialog snapshots it.
    printingNow.current = true;
    flushSync(() => setPrinting({ only: reportId }));
    window.print();
  };

  const pick = (reportId: string, choice: NarrativeChoice) =>
    setPicks((previous) => new Map(previous).set(reportId, choice));
  const card = (item: ReportWithLinks, idPrefix?: string) => (
    <ReportCard
      item={item}
      now={now}
      onPrint={() => print(item.report.id)}
      picked={picks.get(item.report.id)}
      onPick={(choice) => pick(item.report.id, choice)}
      idPrefix={idPrefix}
    />
  );
  const printed =
    printing && reports
      ? printing.only === null
        ? reports
        : reports.filter((item) => item.report.id === printing.only)
      : [];

  const period = `${formatDate(filter.from)} – ${formatDate(filter.to)}`;

  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className={`text-2xl font-semibold print:text-lg ${printOnly ? 'print:hidden' : ''}`}>Reports</h1>
        <div className="no-print flex flex-wrap gap-2">
          <button type="button" className={buttonClass} onClick={() => setDialogOpen(true)}>
            Filter + Sort
          </button>
          {filter.filtered && (
            <button type="button" className={buttonClass} onClick={() => setFilter(defaultFilter())}>
              Clear filter
            </button>
          )}
          <Link to="/reports/daily" className={buttonClass}>
            Daily report
          </Link>
          {seesDashboard && (
            <Link to="/reports/dashboard" className={buttonClass}>
              Dashboard
            </Link>
          )}
          <Link
            to="/reports/create"
            className="rounded bg-black px-3 py-2 text-sm font-medium text-white hover:bg-gray-800"
          >
            Create Report
          </Link>
        </div>
      </div>

      <p className={`mt-1 text-sm text-gray-700 print:text-xs ${printOnly ? 'print:hidden' : ''}`}>
        {period}
        {filter.withIssues ? (
          <span> · House checks with issues</span>
        ) : (
          filter.types.length > 0 && <span> · {filter.types.length} type(s)</span>
        )}
        <span> · {filter.sort === 'newest' ? 'Newest first' : 'Oldest first'}</span>
      </p>

      <div className="no-print mt-4 flex flex-wrap items-center gap-3">
        {/* The placeholder is wider than a phone's input at 16 px (less makes
            iOS zoom in), and an input's placeholder cannot wrap: the native one
            is transparent (it still names the box's purpose to assistive
            technology) and a copy that wraps is drawn over the box, which
            grows to hold it. */}
        <div className="grid w-full sm:w-auto sm:max-w-md sm:flex-1">
          <input
            {...searchBoxProps}
            aria-label="Search reports"
            placeholder={SEARCH_PLACEHOLDER}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="col-start-1 row-start-1 w-full rounded border border-gray-300 px-3 py-2 placeholder:text-transparent focus:border-black focus:ring-1 focus:ring-black focus:outline-none"
          />
          <span
            aria-hidden="true"
            className={`pointer-events-none col-start-1 row-start-1 self-center border border-transparent px-3 py-2 text-gray-500 ${search ? 'invisible' : ''}`}
          >
            {SEARCH_PLACEHOLDER}
          </span>
        </div>
        <div className="flex gap-2">
          <button
            type="button"
            className={buttonClass}
            onClick={() => print(null)}
            disabled={!reports || reports.length === 0}
          >
            Print
          </button>
          <button
            type="button"
            className={buttonClass}
            onClick={() => reports && downloadCsv(reports, filter)}
            disabled={!reports || reports.length === 0}
          >
            Export CSV
          </button>
        </div>
      </div>

      <p
        className={`mt-3 text-sm font-medium print:mt-0 print:text-xs ${printOnly ? 'print:hidden' : ''}`}
        aria-live="polite"
      >
        {reports && !loading ? `${reports.length} report(s)` : ''}
      </p>
      <RangeNote
        state={range.state}
        onRetry={range.retry}
        words={{
          loading: 'Loading older reports…',
          offline: OFFLINE_OLDER_REPORTS,
          failed: 'Older reports could not be loaded. Showing the reports on this device.',
        }}
      />

      {loading ? (
        <SyncProgress noun="reports" progress={loading} />
      ) : reports === undefined ? (
        <div className="mt-6 flex justify-center">
          <Spinner />
        </div>
      ) : reports.length === 0 ? (
        <p className="mt-6 text-center text-gray-700">No reports found</p>
      ) : (
        <VirtualList
          listKey="reports"
          label="Reports"
          className={`mt-3 ${printing ? 'print:hidden' : ''}`}
          items={reports}
          getKey={reportKey}
          estimateRowHeight={(columns) => (columns === 1 ? 420 : 320)}
          columns={reportColumns}
          gap={16}
          overscan={3}
          renderItem={(item) => <ItemErrorBoundary resetKey={item.report.updated}>{card(item)}</ItemErrorBoundary>}
        />
      )}

      {/* One report prints as its whole card, photos included; the list as compact rows. */}
      {printed.length > 0 && (
        <div className="hidden print:block">
          {printed.map((item) => (
            <ItemErrorBoundary key={item.report.id} resetKey={item.report.updated}>
              {printOnly ? card(item, 'print-') : <ReportPrintRow item={item} picked={picks.get(item.report.id)} />}
            </ItemErrorBoundary>
          ))}
        </div>
      )}

      <FilterDialog
        open={dialogOpen}
        filter={filter}
        onClose={() => setDialogOpen(false)}
        onApply={(next) => {
          setFilter(next);
          setDialogOpen(false);
        }}
      />
    </section>
  );
}

function downloadCsv(rows: readonly ReportWithLinks[], filter: ListFilter) {
  // The byte-order mark makes spreadsheet programs read the file as UTF-8.
  const blob = new Blob(['\uFEFF', reportsCsv(rows)], { type: 'text/csv;charset=utf-8' });
  saveBlob(blob, `reports-${format(filter.from, 'yyyy-MM-dd')}-to-${format(filter.to, 'yyyy-MM-dd')}.csv`);
}
