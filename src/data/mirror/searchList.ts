/**
 * One sorted search list of the in-memory search index (searchIndex.ts):
 * records with a lowercase haystack of their searched fields, kept in the
 * list's order, searched by src/domain/search.ts's rule.
 *
 * - Each record's haystack is built once after the record changes: by the
 *   first search that reads it, or ahead of it by `warm` (the index calls it
 *   in idle slices), so a keystroke costs one `includes` per query word per
 *   record, and no reads. A first load changes each home several times
 *   (its house, then its residents, phones and latest call arrive in other
 *   pages); building the haystack each time was most of the index's work.
 * - A record whose sort key did not change keeps its place: only new and
 *   moved records are merged into the order.
 * - A list built from other records (a home from its house, residents and
 *   phones) can be told a record changed (`invalidate`) and rebuild it when
 *   next read: a home whose house, residents and phones arrive in three
 *   pages of a first load is then built once per drawing, not per page.
 * - Records are kept in the list's order, so a search is a filter, never a
 *   sort; the order is repaired lazily, on the next search.
 * - A query that only extends a recent one (another letter, another word)
 *   narrows that one's results instead of scanning the whole list; going
 *   back (Backspace) finds the earlier result in the same small cache.
 */
import { searchWords } from '../../domain/search.ts';

export type Field = string | number | null | undefined;

/**
 * The fields of a record as one lowercase string, joined by a newline
 * (which lowercases each field as it would alone): a query word never holds
 * whitespace (the query is split on it), so a word found in the haystack
 * lies within one field, as the rule wants.
 */
export function haystackOf(fields: readonly Field[]): string {
  const parts: string[] = [];
  for (const field of fields) if (field !== null && field !== undefined && field !== '') parts.push(String(field));
  // One join and one lowercasing make one flat string. Appending field by field built a tree of
  // partial strings (one per field) that the heap held until a search first read the haystack:
  // at 20,000 homes with their residents and phones, megabytes before the first keystroke.
  return parts.join('\n').toLocaleLowerCase();
}

interface Entry<T, K> {
  id: string;
  item: T;
  sortKey: K;
  /** null until built (see above). */
  hay: string | null;
}

/** A narrowing of the list to some records before the words apply (reports: the date range and types). */
export interface SearchScope<T> {
  /** Equal keys mean equal scopes: results are reused by key. */
  key: string;
  includes: (item: T) => boolean;
}

interface RecentSearch<T, K> {
  scope: string;
  words: string[];
  found: Entry<T, K>[];
  items: T[];
}

/** Searches kept for narrowing and for going back a letter. */
const RECENT_SEARCHES = 8;

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * One list of the index: records with their haystacks, in the list's order.
 * The order is repaired lazily, on the next search: the changed records are
 * sorted and merged into the others.
 */
export class SearchList<T, K> {
  private readonly entries = new Map<string, Entry<T, K>>();
  private ordered: Entry<T, K>[] = [];
  /** Ids whose place in `ordered` may be stale (changed, added or removed). */
  private readonly moved = new Set<string>();
  private recent: RecentSearch<T, K>[] = [];
  /** Entries whose haystack is not built yet. */
  private readonly cold = new Set<Entry<T, K>>();
  /** Ids to rebuild (with `build`) before the next read. */
  private readonly stale = new Set<string>();

  constructor(
    private readonly keyOf: (item: T) => K,
    private readonly compareKeys: (a: K, b: K) => number,
    private readonly fieldsOf: (item: T) => readonly Field[],
    /** The record of an id as it is now (undefined: gone), for `invalidate`. */
    private readonly build?: (id: string) => T | undefined,
  ) {}

  get size(): number {
    this.settleStale();
    return this.entries.size;
  }

  get(id: string): T | undefined {
    this.settleStale();
    return this.entries.get(id)?.item;
  }

  /** The record of this id changed (or went): rebuilt with `build` when the list is next read. */
  invalidate(id: string): void {
    if (!this.build) throw new Error('SearchList.invalidate needs a build function');
    this.stale.add(id);
    this.recent = [];
  }

  /** Puts the record of this id as `build` makes it now, or removes it when it is gone. */
  rebuild(id: string): void {
    if (!this.build) throw new Error('SearchList.rebuild needs a build function');
    const item = this.build(id);
    if (item) this.put(id, item);
    else this.remove(id);
  }

  put(id: string, item: T): void {
    const sortKey = this.keyOf(item);
    const entry = this.entries.get(id);
    if (entry && !this.moved.has(id) && this.compareKeys(entry.sortKey, sortKey) === 0) {
      // The same place in the order: changed where it stands, `ordered` stays sorted.
      entry.item = item;
      entry.hay = null;
      this.cold.add(entry);
    } else {
      if (entry) this.cold.delete(entry);
      const fresh: Entry<T, K> = { id, item, sortKey, hay: null };
      this.entries.set(id, fresh);
      this.cold.add(fresh);
      this.moved.add(id);
    }
    this.recent = [];
  }

  remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.cold.delete(entry);
    this.moved.add(id);
    this.recent = [];
  }

  clear(): void {
    this.stale.clear();
    this.entries.clear();
    this.ordered = [];
    this.moved.clear();
    this.cold.clear();
    this.recent = [];
  }

  /** Builds up to `limit` haystacks not built yet; true when none is left. */
  warm(limit: number): boolean {
    this.settleStale();
    let n = 0;
    for (const entry of this.cold) {
      if (n++ >= limit) return false;
      this.hayOf(entry);
    }
    return true;
  }

  private hayOf(entry: Entry<T, K>): string {
    if (entry.hay === null) {
      entry.hay = haystackOf(this.fieldsOf(entry.item));
      this.cold.delete(entry);
    }
    return entry.hay;
  }

  /** Every record matching every word of the query (src/domain/search.ts), in the list's order. The same array while nothing changed. */
  search(query: string, scope?: SearchScope<T>): T[] {
    this.settleStale();
    this.settleOrder();
    const words = searchWords(query);
    const scopeKey = scope?.key ?? '';
    let base: RecentSearch<T, K> | undefined;
    for (const past of this.recent) {
      if (past.scope !== scopeKey) continue;
      if (past.words.length === words.length && past.words.every((w, i) => w === words[i])) {
        // Most recent first, so Backspace returns the very array shown before.
        this.recent = [past, ...this.recent.filter((r) => r !== past)];
        return past.items;
      }
      // Every record matching the new words matches the past ones too when each past word lies inside a new word.
      if (past.words.every((w) => words.some((n) => n.includes(w))) && (!base || past.found.length < base.found.length))
        base = past;
    }
    let found: Entry<T, K>[];
    const matches = (e: Entry<T, K>) => {
      const hay = e.hay ?? this.hayOf(e);
      return words.every((w) => hay.includes(w));
    };
    if (base) found = words.length === 0 ? base.found : base.found.filter(matches);
    else {
      const source = scope ? this.ordered.filter((e) => scope.includes(e.item)) : this.ordered;
      found = words.length === 0 ? source : source.filter(matches);
    }
    const items = found.map((e) => e.item);
    this.recent = [{ scope: scopeKey, words, found, items }, ...this.recent].slice(0, RECENT_SEARCHES);
    return items;
  }

  private settleStale(): void {
    if (this.stale.size === 0) return;
    const ids = [...this.stale];
    this.stale.clear();
    for (const id of ids) this.rebuild(id);
  }

  private compare = (a: Entry<T, K>, b: Entry<T, K>): number => this.compareKeys(a.sortKey, b.sortKey) || byId(a, b);

  private settleOrder(): void {
    if (this.moved.size === 0) return;
    // Sort only what changed and merge it into the rest: a sync page of 1,000 homes does not re-sort 20,000.
    const kept = this.ordered.filter((e) => !this.moved.has(e.id));
    const changed: Entry<T, K>[] = [];
    for (const id of this.moved) {
      const entry = this.entries.get(id);
      if (entry) changed.push(entry);
    }
    changed.sort(this.compare);
    const merged: Entry<T, K>[] = new Array(kept.length + changed.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < kept.length && j < changed.length)
      merged[k++] = this.compare(kept[i]!, changed[j]!) <= 0 ? kept[i++]! : changed[j++]!;
    while (i < kept.length) merged[k++] = kept[i++]!;
    while (j < changed.length) merged[k++] = changed[j++]!;
    this.ordered = merged;
    this.moved.clear();
  }
}
