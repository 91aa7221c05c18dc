/**
 * The one date picker (react-day-picker, single day): a button showing the
 * date that opens a calendar in place, which suits a bottom sheet on a phone
 * and a page on a desk. As the home form says (docs/product.md#the-home-form), clicking the selected day clears it;
 * picking (or clearing) closes the calendar.
 */
import { endOfYear, format, startOfYear, subYears } from 'date-fns';
import { useCallback, useId, useState, type CSSProperties } from 'react';
import { DayPicker, type Matcher, type Modifiers } from 'react-day-picker';
import 'react-day-picker/style.css';
import { formatDate } from './dateTime.ts';
import { FieldError, inputClass } from './Field.tsx';

// The app's black and grey (night mode's too: src/index.css) rather than the
// calendar's blue, and days a thumb can hit (44 px; seven of them still fit a
// half-width column).
const CALENDAR_STYLE = {
  '--rdp-accent-color': 'var(--color-black)',
  '--rdp-accent-background-color': 'var(--color-gray-200)',
  '--rdp-day-width': '44px',
  '--rdp-day-height': '44px',
  '--rdp-day_button-width': '44px',
  '--rdp-day_button-height': '44px',
  '--rdp-nav_button-width': '44px',
  '--rdp-nav_button-height': '44px',
} as CSSProperties;

/**
 * The caption (month and year dropdowns) and the previous/next buttons side
 * by side in a grid, the days on a row of their own below: the library's
 * stylesheet places the buttons absolutely over the caption's end, so a wider
 * font, a bigger text size or zoom slid the year dropdown under 'previous
 * month' and took its clicks. Short of room, the caption's column narrows
 * and its dropdowns wrap; the buttons keep theirs.
 */
const CALENDAR_PART_STYLES = {
  month: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', alignItems: 'center', columnGap: '0.5rem' },
  month_caption: { height: 'auto', minHeight: 'var(--rdp-nav-height)' },
  // The month and year dropdowns lie over their words and are 44 px tall on a phone (src/index.css): so are their boxes.
  dropdown_root: { minHeight: '2.75rem' },
  dropdowns: { flexWrap: 'wrap', rowGap: '0.25rem' },
  nav: { position: 'static', height: 'auto' },
  month_grid: { gridColumn: '1 / -1', justifySelf: 'start' },
} satisfies Partial<
  Record<'month' | 'month_caption' | 'dropdown_root' | 'dropdowns' | 'nav' | 'month_grid', CSSProperties>
>;

/** A day's name starts with its visible number ("25 November 2026, Wednesday"), so speech input finds it. */
function labelDayButton(date: Date, modifiers: Modifiers): string {
  return `${format(date, 'd MMMM yyyy, EEEE')}${modifiers.today ? ', today' : ''}${modifiers.selected ? ', selected' : ''}`;
}

export interface DateFieldProps {
  label: string;
  value: Date | null | undefined;
  onChange: (date: Date | null) => void;
  /** Days that cannot be picked. */
  isDayDisabled?: (day: Date) => boolean;
  /** The whole picker is disabled (e.g. an end date until a start date exists). */
  disabled?: boolean;
  error?: string;
  /** Month and year dropdowns reaching this many years back (reports); plain month arrows otherwise. */
  yearsBack?: number;
}

export function DateField({
  label,
  value,
  onChange,
  isDayDisabled,
  disabled = false,
  error,
  yearsBack,
}: DateFieldProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const shown = open && !disabled;
  const today = new Date();
  // In a long sheet on a phone the calendar would open below the fold.
  const reveal = useCallback((el: HTMLDivElement | null) => el?.scrollIntoView?.({ block: 'nearest' }), []);
  return (
    <div>
      <span id={`${id}-label`} className="block text-sm font-medium">
        {label}
      </span>
      <button
        id={`${id}-button`}
        type="button"
        disabled={disabled}
        onClick={() => setOpen(!open)}
        aria-expanded={shown}
        aria-controls={`${id}-calendar`}
        aria-labelledby={`${id}-label ${id}-button`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`${inputClass} flex items-center justify-between bg-white text-left disabled:cursor-not-allowed disabled:bg-gray-100 disabled:text-gray-600 ${value ? '' : 'text-gray-600'}`}
      >
        {value ? formatDate(value) : 'Pick a date'}
        <svg
          width="18"
          height="18"
          viewBox="0 0 24 24"
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <rect x="3" y="4" width="18" height="18" rx="2" />
          <path d="M16 2v4M8 2v4M3 10h18" />
        </svg>
      </button>
      {shown && (
        <div
          id={`${id}-calendar`}
          ref={reveal}
          className="mt-2 inline-block rounded-lg border border-gray-200 bg-white p-2 shadow"
        >
          <DayPicker
            mode="single"
            style={CALENDAR_STYLE}
            navLayout="after"
            styles={CALENDAR_PART_STYLES}
            labels={{ labelDayButton }}
            selected={value ?? undefined}
            defaultMonth={value ?? today}
            disabled={isDayDisabled as Matcher | undefined}
            {...(yearsBack
              ? {
                  captionLayout: 'dropdown' as const,
                  startMonth: startOfYear(subYears(today, yearsBack)),
                  endMonth: endOfYear(today),
                }
              : {})}
            onSelect={(day) => {
              onChange(day ?? null);
              setOpen(false);
            }}
          />
        </div>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
