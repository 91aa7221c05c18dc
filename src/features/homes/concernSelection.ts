/** The choice of concerns for a call (docs/product.md#calls-to-residents): at most three at a time. */
import { LIMITS } from '../../domain/schemas.ts';

export const MAX_CONCERNS = LIMITS.concernsPerCall;
/** The same words as the server's refusal of a fourth concern (one copy, in the call script's module). */
export { LIMIT_EXCEEDED_MESSAGE } from '../../domain/callScript.ts';

export interface Toggled {
  selected: string[];
  /** True when the click asked for a fourth concern: nothing changed. */
  limitExceeded: boolean;
}

/** Ticks or unticks one concern; a fourth is refused. Order of choosing is kept. */
export function toggleConcern(selected: readonly string[], id: string): Toggled {
  if (selected.includes(id)) return { selected: selected.filter((s) => s !== id), limitExceeded: false };
  if (selected.length >= MAX_CONCERNS) return { selected: [...selected], limitExceeded: true };
  return { selected: [...selected, id], limitExceeded: false };
}

/** The pre-selection (the house's pending ids, docs/product.md#calls-to-residents), limited to known concerns and to three. */
export function initialSelection(pendingIds: readonly string[], knownIds: ReadonlySet<string>): string[] {
  return [...new Set(pendingIds)].filter((id) => knownIds.has(id)).slice(0, MAX_CONCERNS);
}
