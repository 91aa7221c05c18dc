/**
 * A date chosen on a calendar (react-day-picker, single day): a button that
 * shows the chosen date and opens the calendar in place, which suits both
 * the bottom sheet on a phone and the page on a desk.
 */
import { endOfYear, format, startOfYear, subYears } from 'date-fns';
import { useId, useState, type CSSProperties } from 'react';
import { DayPicker } from 'react-day-picker';
import 'react-day-picker/style.css';
import { FieldError, inputClass } from '../../ui/Field.tsx';

// The app's black and grey rather than the calendar's default blue.
const CALENDAR_COLOURS = { '--rdp-accent-color': '#000', '--rdp-accent-background-color': '#f3f4f6', '--rdp-today-color': '#b45309' } as CSSProperties;

/** A day's name holds the number shown on it ("Monday 2 November 2026"), so speech and sight agree. */
function labelDayButton(date: Date, modifiers: { today?: boolean; selected?: boolean }): string {
  return `${format(date, 'EEEE d MMMM yyyy')}${modifiers.today ? ', today' : ''}${modifiers.selected ? ', selected' : ''}`;
}

export function DateField({
  label,
  value,
  onChange,
  error,
  disableFuture = false,
}: {
  label: string;
  value: Date | undefined;
  onChange: (date: Date | undefined) => void;
  error?: string;
  /** Incidents have happened already: days after today cannot be picked. */
  disableFuture?: boolean;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const today = new Date();
  return (
    <div>
      <span id={`${id}-label`} className="block text-sm font-medium">
        {label}
      </span>
      <button
        id={`${id}-button`}
        type="button"
        aria-labelledby={`${id}-label ${id}-button`}
        aria-expanded={open}
        aria-controls={`${id}-calendar`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onClick={() => setOpen((o) => !o)}
        className={`${inputClass} text-left ${value ? '' : 'text-gray-600'}`}
      >
        {value ? format(value, 'MMM d, yyyy') : 'Pick a date'}
      </button>
      {open && (
        <div id={`${id}-calendar`} className="mt-2 inline-block rounded border border-gray-200 bg-white p-2 shadow-sm">
          <DayPicker
            mode="single"
            style={CALENDAR_COLOURS}
            labels={{ labelDayButton }}
            selected={value}
            defaultMonth={value ?? today}
            captionLayout="dropdown"
            startMonth={startOfYear(subYears(today, 10))}
            endMonth={endOfYear(today)}
            disabled={disableFuture ? { after: today } : undefined}
            onSelect={(date) => {
              onChange(date);
              if (date) setOpen(false);
            }}
          />
        </div>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
