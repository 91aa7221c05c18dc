/**
 * The 'Filter + Sort' dialog (docs/product.md#the-reports-list): From and To dates, a collapsible
 * list of the report types, 'Only house checks with issues' (the checks
 * answered No to 'Is everything ok?'), Sort by, and Filter. Missing dates keep the
 * dialog open with 'Filter error — Dates must be selected'; nothing is
 * applied, so no query runs (docs/product.md#decisions).
 */
import { Disclosure, DisclosureButton, DisclosurePanel } from '@headlessui/react';
import { useState } from 'react';
import { REPORT_TYPES, type ReportType } from '../../domain/reportTypes.ts';
import { SelectInput } from '../../ui/Field.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { useToast } from '../../ui/toast.tsx';
import { DateField } from '../../ui/DateField.tsx';
import {
  applyDraft,
  draftOf,
  WITH_ISSUES_LABEL,
  type FilterDraft,
  type ListFilter,
  type ReportSort,
} from './reportFilter.ts';

export function FilterDialog({
  open,
  filter,
  onClose,
  onApply,
}: {
  open: boolean;
  filter: ListFilter;
  onClose: () => void;
  onApply: (filter: ListFilter) => void;
}) {
  return (
    <Sheet open={open} onClose={onClose} title="Filter + Sort">
      {/* Mounted afresh on each opening, so the draft starts from the list's current filter. */}
      {open && <FilterForm filter={filter} onApply={onApply} />}
    </Sheet>
  );
}

function FilterForm({ filter, onApply }: { filter: ListFilter; onApply: (filter: ListFilter) => void }) {
  const toast = useToast();
  const [draft, setDraft] = useState<FilterDraft>(() => draftOf(filter));
  const update = (patch: Partial<FilterDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const toggleType = (type: ReportType, checked: boolean) =>
    update({ types: checked ? [...draft.types, type] : draft.types.filter((t) => t !== type) });

  const submit = () => {
    const outcome = applyDraft(draft);
    if (!outcome.ok) {
      toast({ title: outcome.title, description: outcome.message, variant: 'destructive' });
      return;
    }
    onApply(outcome.filter);
  };

  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <DateField
          label="From date"
          value={draft.from}
          onChange={(from) => update({ from: from ?? undefined })}
          yearsBack={10}
        />
        <DateField label="To date" value={draft.to} onChange={(to) => update({ to: to ?? undefined })} yearsBack={10} />
      </div>
      <Disclosure as="div" className="rounded border border-gray-300">
        <DisclosureButton className="group flex w-full items-center justify-between px-3 py-2 text-left text-sm font-medium">
          <span>
            Report types
            <span className="ml-2 font-normal text-gray-600">
              {draft.types.length === 0 ? '(all)' : `(${draft.types.length} selected)`}
            </span>
          </span>
          <svg
            width="16"
            height="16"
            viewBox="0 0 24 24"
            aria-hidden="true"
            className="transition group-data-[open]:rotate-180"
          >
            <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </DisclosureButton>
        <DisclosurePanel
          as="fieldset"
          disabled={draft.withIssues}
          className="grid gap-1 border-t border-gray-200 px-3 py-2 disabled:text-gray-500 sm:grid-cols-2"
        >
          <legend className="sr-only">Report types</legend>
          {REPORT_TYPES.map((type) => (
            <label key={type.value} className="flex items-center gap-2 py-1 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-black"
                checked={draft.types.includes(type.value)}
                onChange={(e) => toggleType(type.value, e.target.checked)}
              />
              {type.label}
            </label>
          ))}
        </DisclosurePanel>
      </Disclosure>
      {/* A house check's answer to 'Is everything ok?': checks with issues are house checks, so the types follow. */}
      <label className="flex items-center gap-2 rounded border border-gray-300 px-3 py-2 text-sm font-medium">
        <input
          type="checkbox"
          className="size-4 accent-black"
          checked={draft.withIssues}
          onChange={(e) =>
            update(e.target.checked ? { withIssues: true, types: ['house_check'] } : { withIssues: false })
          }
        />
        {WITH_ISSUES_LABEL}
      </label>
      <SelectInput label="Sort by" value={draft.sort} onChange={(e) => update({ sort: e.target.value as ReportSort })}>
        <option value="newest">Newest</option>
        <option value="oldest">Oldest</option>
      </SelectInput>
      <button type="submit" className="w-full rounded bg-black py-2 font-medium text-white">
        Filter
      </button>
    </form>
  );
}
