/**
 * List search (DESIGN.md): case-insensitive; the query is split into words
 * and every word must appear in one of the listed fields. One rule for
 * homes, users, concerns and reports.
 */
export function searchWords(query: string): string[] {
  return query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
}

export function matchesSearch(
  words: readonly string[],
  fields: ReadonlyArray<string | number | null | undefined>,
): boolean {
  if (words.length === 0) return true;
  const haystack = fields
    .filter((f): f is string | number => f !== null && f !== undefined && f !== '')
    .map((f) => String(f).toLocaleLowerCase());
  return words.every((word) => haystack.some((field) => field.includes(word)));
}

/** Filters a list with the search rule; `fieldsOf` names the searched fields. */
export function searchList<T>(
  items: readonly T[],
  query: string,
  fieldsOf: (item: T) => ReadonlyArray<string | number | null | undefined>,
): T[] {
  const words = searchWords(query);
  if (words.length === 0) return [...items];
  return items.filter((item) => matchesSearch(words, fieldsOf(item)));
}
