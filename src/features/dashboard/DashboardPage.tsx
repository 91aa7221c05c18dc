/**
 * The manager's view, for directors and managers: for a chosen
 * period (this month at first) the reports by type and by week, house
 * checks done against due and how many found issues, calls by outcome and the ten homes with the most
 * reports: charts with their numbers beside them, all from the mirror (the
 * period's records by index), so it works offline for what the device holds.
 */
import { endOfDay, format, startOfDay, startOfMinute } from 'date-fns';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useHouseCheckReports, usePeriodRecords, usePeriodRounds } from '../../data/resources/activity.ts';
import { useSignedInStaff } from '../../data/auth.ts';
import { useHouses } from '../../data/resources/homes.ts';
import { SHOWS_REPORTS_AND_ROUNDS, useHistoryRange } from '../../data/resources/historyRange.ts';
import { currentMonthRange } from '../../domain/dateRange.ts';
import { DateField } from '../../ui/DateField.tsx';
import { formatDate } from '../../ui/dateTime.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { RangeNote } from '../../ui/RangeNote.tsx';
import { useShownTheme } from '../../ui/theme.ts';
import { useNow } from '../../ui/useNow.ts';
import { BarChartCard } from './BarChartCard.tsx';
import { checksSince, dashboardFigures, tourFigures, type DashboardFigures, type TourFigures } from './figures.ts';
import { OFFLINE_PERIOD_NOT_ON_DEVICE } from '../../ui/offlineWords.ts';

const DASHBOARD_TITLE = 'Dashboard';

/** The bars' colours (Chart.js draws on a canvas, out of CSS's reach): night mode's are lighter, for a dark card. */
const CHART_COLORS = {
  light: {
    primary: '#1f2937',
    done: '#059669',
    open: '#f59e0b',
    calls: '#0369a1',
    issues: '#dc2626',
    unknown: '#9ca3af',
  },
  dark: {
    primary: '#e5e7eb',
    done: '#34d399',
    open: '#fbbf24',
    calls: '#38bdf8',
    issues: '#f87171',
    unknown: '#6b7280',
  },
};

export function DashboardPage() {
  const type = useSignedInStaff()?.type;
  if (type !== 'director' && type !== 'manager') {
    return (
      <section>
        <h1 className="text-2xl font-semibold">{DASHBOARD_TITLE}</h1>
        <p className="mt-4 rounded bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status">
          The dashboard is for directors and managers.
        </p>
        {/* Not a dead end: an officer who followed a link here goes on to the reports. */}
        <p className="mt-4 text-sm">
          <Link to="/reports" className="inline-flex min-h-11 items-center text-gray-700 underline hover:text-black">
            ← Reports
          </Link>
        </p>
      </section>
    );
  }
  return <Dashboard />;
}

function Dashboard() {
  const [period, setPeriod] = useState(() => currentMonthRange());
  const { from, to } = period;
  const now = useNow();
  const range = useHistoryRange(from, to, SHOWS_REPORTS_AND_ROUNDS);
  const records = usePeriodRecords(from, to);
  const houses = useHouses('');
  const homes = useMemo(() => houses?.map(({ house }) => house), [houses]);
  const since = useMemo(() => (homes ? checksSince(homes, from, to) : from), [homes, from, to]);
  // The period's own house checks are among its reports; only the checks of the windows' days before it are read apart.
  const checksBefore = useHouseCheckReports(since, new Date(from.getTime() - 1));
  const me = useSignedInStaff();
  const periodRounds = usePeriodRounds(me?.community ?? '', startOfMinute(now).getTime(), from, to);
  const tours = useMemo(
    () =>
      periodRounds
        ? tourFigures(periodRounds.rounds, (id) => periodRounds.checkpoints.get(id)?.name ?? 'A deleted checkpoint')
        : undefined,
    [periodRounds],
  );
  const figures = useMemo(
    () =>
      records && homes && checksBefore
        ? dashboardFigures({
            from,
            to,
            now,
            reports: records.reports,
            calls: records.calls,
            homes,
            checkReports: [...checksBefore, ...records.reports],
          })
        : undefined,
    [records, homes, checksBefore, from, to, now],
  );

  return (
    <section>
      <p className="text-sm">
        <Link to="/reports" className="text-gray-700 underline hover:text-black">
          ← Reports
        </Link>
      </p>
      <h1 className="mt-1 text-2xl font-semibold">{DASHBOARD_TITLE}</h1>
      <p className="mt-1 text-sm text-gray-700">
        {formatDate(from)} – {formatDate(to)}
      </p>

      <div className="mt-4 grid grid-cols-2 gap-3 sm:max-w-lg">
        <DateField
          label="From date"
          value={from}
          yearsBack={5}
          onChange={(day) => day && setPeriod({ from: startOfDay(day), to: day > to ? endOfDay(day) : to })}
        />
        <DateField
          label="To date"
          value={to}
          yearsBack={5}
          isDayDisabled={(day) => day < from}
          onChange={(day) => day && setPeriod({ from, to: endOfDay(day) })}
        />
      </div>

      <RangeNote
        state={range.state}
        onRetry={range.retry}
        words={{
          loading: 'Loading the reports of this period…',
          offline: OFFLINE_PERIOD_NOT_ON_DEVICE,
          failed: 'Part of this period could not be loaded. The figures count what the device holds.',
        }}
      />

      {figures ? (
        <Figures figures={figures} tours={tours} />
      ) : (
        <div className="mt-6 flex justify-center">
          <Spinner label="Loading the figures" />
        </div>
      )}
    </section>
  );
}

const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${Math.round((part / whole) * 100)}%`);

function Figures({ figures, tours }: { figures: DashboardFigures; tours: TourFigures | undefined }) {
  const COLORS = CHART_COLORS[useShownTheme()];
  const types = figures.byType.filter((row) => row.count > 0);
  const checks = figures.houseChecks;
  const answers = figures.answers;
  return (
    <div className="mt-4 grid gap-4">
      <BarChartCard
        title="Reports by type"
        summary={`${figures.total} report(s)`}
        labels={types.map((row) => row.label)}
        series={[{ label: 'Reports', color: COLORS.primary, values: types.map((row) => row.count) }]}
        horizontal
        rowHeading="Type"
        emptyText="No reports in this period."
      />
      <BarChartCard
        title="Reports by week"
        summary="Weeks start on Monday."
        labels={figures.byWeek.map((week) => week.label)}
        series={[{ label: 'Reports', color: COLORS.primary, values: figures.byWeek.map((week) => week.count) }]}
        rowHeading="Week"
        emptyText="No reports in this period."
      />
      <BarChartCard
        title="House checks done against due"
        summary={`${checks.done} of ${checks.due} due check(s) done (${percent(checks.done, checks.due)})`}
        labels={checks.days.map((day) => format(day.day, 'MMM d'))}
        series={[
          { label: 'Done', color: COLORS.done, values: checks.days.map((day) => day.done) },
          { label: 'Not done', color: COLORS.open, values: checks.days.map((day) => day.due - day.done) },
        ]}
        stacked
        rowHeading="Day"
        extra={{ heading: 'Due', values: checks.days.map((day) => String(day.due)) }}
        emptyText="No house checks were due in this period."
      />
      <BarChartCard
        title="House checks with issues"
        summary={`${answers.checks} house check(s), ${answers.issues} with issues (${percent(answers.issues, answers.checks)})`}
        labels={answers.days.map((day) => format(day.day, 'MMM d'))}
        series={[
          { label: 'Everything ok', color: COLORS.done, values: answers.days.map((day) => day.ok) },
          { label: 'Issues found', color: COLORS.issues, values: answers.days.map((day) => day.issues) },
          // Checks made before the answer was kept, with a remark that does not tell.
          ...(answers.unknown > 0
            ? [{ label: 'Not recorded', color: COLORS.unknown, values: answers.days.map((day) => day.unknown) }]
            : []),
        ]}
        stacked
        rowHeading="Day"
        emptyText="No house checks in this period."
      />
      <BarChartCard
        title="Calls by outcome"
        summary={`${figures.callTotal} call(s)`}
        labels={figures.calls.map((row) => row.label)}
        series={[{ label: 'Calls', color: COLORS.calls, values: figures.calls.map((row) => row.count) }]}
        horizontal
        rowHeading="Outcome"
        emptyText="No calls in this period."
      />
      <BarChartCard
        title="Homes with the most reports"
        summary="The ten homes with the most reports in this period."
        labels={figures.topHomes.map((home) => home.label)}
        series={[{ label: 'Reports', color: COLORS.primary, values: figures.topHomes.map((home) => home.count) }]}
        horizontal
        rowHeading="Home"
        emptyText="No reports name a home in this period."
      />
      {tours && (
        <>
          <BarChartCard
            title="Tour rounds"
            summary={`${tours.onTime} of ${tours.finished} round(s) on time (${percent(tours.onTime, tours.finished)})`}
            labels={tours.byStatus.map((row) => row.label)}
            series={[{ label: 'Rounds', color: COLORS.done, values: tours.byStatus.map((row) => row.count) }]}
            horizontal
            rowHeading="Status"
            emptyText="No tour rounds ended in this period."
          />
          <BarChartCard
            title="Missed checkpoints by place"
            summary="The checkpoints most often left unscanned in this period's rounds."
            labels={tours.missedCheckpoints.map((row) => row.label)}
            series={[
              { label: 'Times missed', color: COLORS.issues, values: tours.missedCheckpoints.map((row) => row.count) },
            ]}
            horizontal
            rowHeading="Checkpoint"
            emptyText="No checkpoint was missed in this period."
          />
        </>
      )}
    </div>
  );
}
