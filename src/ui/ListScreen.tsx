/**
 * The frame of a searchable list screen (Users, Concerns): title with an
 * optional add button, a notice (e.g. why management is disabled offline),
 * the search box with the result count, then a spinner while loading, the
 * empty text, or the list itself.
 */
import type { ReactNode } from 'react';
import { searchBoxProps } from './Field.tsx';
import { Spinner } from './Spinner.tsx';

export interface ListScreenProps {
  title: string;
  /** The add button, shown only when given (directors). */
  add?: { label: string; disabled: boolean; onClick: () => void };
  /** More buttons of the screen, before the add button (Concerns: Call settings). */
  actions?: ReactNode;
  notice?: string | null;
  search: { value: string; onChange: (value: string) => void; label: string; placeholder: string };
  /** undefined while the first load is pending. */
  count: number | undefined;
  countText: (count: number) => string;
  emptyText: string;
  loadingLabel: string;
  /** The list, shown when there is something to show. */
  items: ReactNode;
  /** Sheets and dialogs of the screen, always mounted (the add sheet opens on an empty list too). */
  children?: ReactNode;
}

export function ListScreen({
  title,
  add,
  actions,
  notice,
  search,
  count,
  countText,
  emptyText,
  loadingLabel,
  items,
  children,
}: ListScreenProps) {
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <div className="flex flex-wrap items-center gap-2">
          {actions}
          {add && (
            <button
              type="button"
              disabled={add.disabled}
              onClick={add.onClick}
              className="rounded bg-black px-4 py-2 font-medium text-white disabled:cursor-not-allowed disabled:opacity-50"
            >
              {add.label}
            </button>
          )}
        </div>
      </div>
      {notice && (
        <p role="status" className="mt-3 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {notice}
        </p>
      )}
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <input
          {...searchBoxProps}
          aria-label={search.label}
          placeholder={search.placeholder}
          value={search.value}
          onChange={(event) => search.onChange(event.target.value)}
          className="w-full rounded border border-gray-300 bg-white px-3 py-2 focus:border-black focus:ring-1 focus:ring-black focus:outline-none sm:max-w-sm"
        />
        {count !== undefined && <p className="text-sm text-gray-700">{countText(count)}</p>}
      </div>
      {count === undefined ? (
        <div className="mt-10 flex justify-center">
          <Spinner label={loadingLabel} />
        </div>
      ) : count === 0 ? (
        <p className="mt-10 text-center text-gray-700">{emptyText}</p>
      ) : (
        items
      )}
      {children}
    </section>
  );
}
