/**
 * The report list's filter state (docs/product.md#the-reports-list): it opens on the whole current
 * month, newest first; applying the dialog enters the filtered state
 * (dates, types, sort, and 'Only house checks with issues': the house
 * checks answered No to 'Is everything ok?');
 * clearing returns to the default. Missing dates stop the filter with
 * 'Filter error — Dates must be selected' and no query runs (docs/product.md#decisions).
 */
import { currentMonthRange, dayRange } from '../../domain/dateRange.ts';
import type { ReportType } from '../../domain/reportTypes.ts';
import { reportFilterSchema } from '../../domain/schemas.ts';

export type ReportSort = 'newest' | 'oldest';

export interface ListFilter {
  from: Date;
  to: Date;
  types: ReportType[];
  sort: ReportSort;
  /** Only house checks answered 'No' to 'Is everything ok?' (types is then just house_check). */
  withIssues: boolean;
  /** True once the user applied the dialog: shows 'Clear filter'. */
  filtered: boolean;
}

/** What the dialog holds while it is being filled in. */
export interface FilterDraft {
  from: Date | undefined;
  to: Date | undefined;
  types: ReportType[];
  sort: ReportSort;
  withIssues: boolean;
}

export const FILTER_ERROR_TITLE = 'Filter error';
export const WITH_ISSUES_LABEL = 'Only house checks with issues';

export function defaultFilter(now: Date = new Date()): ListFilter {
  return { ...currentMonthRange(now), types: [], sort: 'newest', withIssues: false, filtered: false };
}

export type FilterOutcome = { ok: true; filter: ListFilter } | { ok: false; title: string; message: string };

export function applyDraft(draft: FilterDraft): FilterOutcome {
  const parsed = reportFilterSchema.safeParse(draft);
  if (!parsed.success)
    return {
      ok: false,
      title: FILTER_ERROR_TITLE,
      message: parsed.error.issues[0]?.message ?? 'Dates must be selected',
    };
  const { from, to, types, sort } = parsed.data;
  // Dates picked in the wrong order still mean the days between them.
  const [first, last] = from <= to ? [from, to] : [to, from];
  // Checks with issues are house checks: the other types would show nothing.
  const withIssues = draft.withIssues;
  return {
    ok: true,
    filter: { ...dayRange(first, last), types: withIssues ? ['house_check'] : types, sort, withIssues, filtered: true },
  };
}

export function draftOf(filter: ListFilter): FilterDraft {
  return {
    from: filter.from,
    to: filter.to,
    types: [...filter.types],
    sort: filter.sort,
    withIssues: filter.withIssues,
  };
}
