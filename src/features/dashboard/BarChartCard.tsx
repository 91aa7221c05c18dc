/**
 * One figure of the manager's view: a bar chart (Chart.js through
 * react-chartjs-2) with its numbers beside it as a table, so a screen
 * reader (and anyone who wants the exact number) reads the same figures.
 * The canvas is hidden from assistive technology: the table says it all.
 */
import {
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  Tooltip,
  type ChartData,
  type ChartOptions,
} from 'chart.js';
import { useId, type ReactNode } from 'react';
import { Bar } from 'react-chartjs-2';
import { useShownTheme } from '../../ui/theme.ts';

ChartJS.register(BarElement, CategoryScale, LinearScale, Tooltip, Legend);

export interface Series {
  label: string;
  color: string;
  values: readonly number[];
}

export interface BarChartCardProps {
  title: string;
  /** One line under the title (a total, 'N of M done'). */
  summary?: ReactNode;
  labels: readonly string[];
  series: readonly Series[];
  /** Horizontal bars: long labels (types, addresses) stay readable on a phone. */
  horizontal?: boolean;
  stacked?: boolean;
  /** The table's first column heading. */
  rowHeading: string;
  /** Shown instead of the chart and table when there is nothing to count. */
  emptyText: string;
  /** Extra columns of the table after the series (e.g. a percentage). */
  extra?: { heading: string; values: readonly string[] };
}

export function BarChartCard({
  title,
  summary,
  labels,
  series,
  horizontal = false,
  stacked = false,
  rowHeading,
  emptyText,
  extra,
}: BarChartCardProps) {
  const id = useId();
  const empty = labels.length === 0 || series.every((s) => s.values.every((v) => v === 0));
  const data: ChartData<'bar'> = {
    labels: [...labels],
    datasets: series.map((s) => ({
      label: s.label,
      data: [...s.values],
      backgroundColor: s.color,
      borderRadius: 3,
      maxBarThickness: 28,
    })),
  };
  // The axes' words and grid lines: Chart.js's defaults are dark grey, unreadable on night mode's dark card.
  const axes = useShownTheme() === 'dark' ? { ticks: '#d1d5db', grid: 'rgba(255, 255, 255, 0.12)' } : undefined;
  const options: ChartOptions<'bar'> = {
    indexAxis: horizontal ? 'y' : 'x',
    responsive: true,
    maintainAspectRatio: false,
    // Drawn at once: the figures follow the mirror live, and a redraw that animates every time is noise.
    animation: false,
    plugins: { legend: { display: series.length > 1, position: 'bottom', labels: { color: axes?.ticks } } },
    scales: {
      x: {
        stacked,
        beginAtZero: true,
        ticks: { precision: 0, autoSkip: !horizontal, color: axes?.ticks },
        grid: { color: axes?.grid },
      },
      y: {
        stacked,
        beginAtZero: true,
        ticks: { precision: 0, autoSkip: horizontal ? false : true, color: axes?.ticks },
        grid: { color: axes?.grid },
      },
    },
  };
  // Horizontal bars get a row each; vertical charts a fixed height that fits a phone.
  const height = horizontal ? Math.max(120, labels.length * 30 + 48) : 240;

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      {summary && <p className="mt-1 text-sm text-gray-700">{summary}</p>}
      {empty ? (
        <p className="mt-3 text-sm text-gray-700">{emptyText}</p>
      ) : (
        <div className="mt-3 grid gap-4 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div className="relative min-w-0" style={{ height }} aria-hidden="true">
            <Bar data={data} options={options} />
          </div>
          {/* A long table scrolls in its box; the box takes the keyboard focus so it scrolls without a mouse too. */}
          <div
            className="max-h-96 overflow-auto rounded focus:ring-2 focus:ring-black focus:outline-none"
            tabIndex={0}
            role="region"
            aria-label={`${title}: the numbers`}
          >
            <table className="w-full text-left text-sm" aria-labelledby={`${id}-title`}>
              <thead className="sticky top-0 bg-white">
                <tr className="border-b border-gray-200">
                  <th scope="col" className="py-1 pr-2 font-medium">
                    {rowHeading}
                  </th>
                  {series.map((s) => (
                    <th key={s.label} scope="col" className="py-1 pl-2 text-right font-medium">
                      {s.label}
                    </th>
                  ))}
                  {extra && (
                    <th scope="col" className="py-1 pl-2 text-right font-medium">
                      {extra.heading}
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {labels.map((label, row) => (
                  <tr key={`${label}-${row}`} className="border-b border-gray-100 last:border-0">
                    <th scope="row" className="py-1 pr-2 font-normal break-words">
                      {label}
                    </th>
                    {series.map((s) => (
                      <td key={s.label} className="py-1 pl-2 text-right tabular-nums">
                        {s.values[row]}
                      </td>
                    ))}
                    {extra && <td className="py-1 pl-2 text-right tabular-nums">{extra.values[row]}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}
