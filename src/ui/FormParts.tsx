/** The generic parts of a form beside the fields of `Field.tsx`: titled sections, a checkbox, Add and Remove for rows. */
import type { InputHTMLAttributes, ReactNode } from 'react';

/** A titled block of a form (a fieldset with its legend): Home, Resident, Phone. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-3 rounded-lg border border-gray-200 p-4">
      <legend className="px-1 text-base font-semibold">{title}</legend>
      {children}
    </fieldset>
  );
}

/** A checkbox with its label beside it. */
export function Checkbox({ label, ...props }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="flex items-center gap-2 text-sm font-medium">
      <input type="checkbox" className="h-4 w-4 accent-black" {...props} />
      {label}
    </label>
  );
}

/** Remove for one row of a list in a form; `label` names the row for screen readers ('Remove phone 2'). */
export function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className="rounded border border-gray-300 px-3 py-1 text-sm font-medium hover:bg-gray-100"
    >
      Remove
    </button>
  );
}

/** Adds a row to a list in a form ('Add resident'). */
export function AddButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="rounded border border-dashed border-gray-400 px-3 py-2 text-sm font-medium hover:bg-gray-100"
    >
      {label}
    </button>
  );
}
