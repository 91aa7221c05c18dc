/**
 * A date picker for the house-check window (spec §2): a button showing the
 * date that opens a calendar below it. Clicking the selected day clears it;
 * picking (or clearing) closes the calendar.
 */
import { format } from 'date-fns';
import { useCallback, useId, useState, type CSSProperties } from 'react';
import { DayPicker, type Modifiers } from 'react-day-picker';
import 'react-day-picker/style.css';
import { FieldError } from '../../ui/Field.tsx';

/** A day's name starts with its visible number, so speech input ("click 25") finds it. */
function dayLabel(date: Date, modifiers: Modifiers): string {
  return `${format(date, 'd MMMM yyyy, EEEE')}${modifiers.today ? ', today' : ''}${modifiers.selected ? ', selected' : ''}`;
}

export interface DateFieldProps {
  label: string;
  value: Date | null;
  onChange: (date: Date | null) => void;
  isDayDisabled: (day: Date) => boolean;
  /** The whole picker is disabled (the end date until a start date exists). */
  disabled?: boolean;
  error?: string;
}

export function DateField({ label, value, onChange, isDayDisabled, disabled = false, error }: DateFieldProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const shown = open && !disabled;
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
        aria-labelledby={`${id}-label ${id}-button`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="mt-1 flex w-full items-center justify-between rounded border border-gray-300 bg-white px-3 py-2 text-left aria-[invalid=true]:border-red-600 disabled:cursor-not-allowed disabled:bg-gray-100 disabled:text-gray-600"
      >
        {value ? format(value, 'PPP') : 'Pick a date'}
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
          <rect x="3" y="4" width="18" height="18" rx="2" />
          <path d="M16 2v4M8 2v4M3 10h18" />
        </svg>
      </button>
      {shown && (
        <div ref={reveal} className="mt-2 inline-block rounded-lg border border-gray-200 bg-white p-2 shadow">
          <DayPicker
            mode="single"
            selected={value ?? undefined}
            defaultMonth={value ?? undefined}
            disabled={isDayDisabled}
            labels={{ labelDayButton: dayLabel }}
            // The calendar's CSS sets its colours on its own root, so they are overridden there.
            // Smaller days than the default, so the calendar fits a half-width column.
            style={
              {
                '--rdp-accent-color': '#000',
                '--rdp-accent-background-color': '#e5e7eb',
                '--rdp-day-width': '38px',
                '--rdp-day-height': '38px',
                '--rdp-day_button-width': '36px',
                '--rdp-day_button-height': '36px',
              } as CSSProperties
            }
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
