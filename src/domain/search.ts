/**
 * List search (docs/product.md#list-search): case-insensitive; the query is split into words
 * and every word must appear in one of the listed fields. One rule for
 * homes, users, concerns and reports.
 *
 * Phone numbers are stored in E.164 ('+15615550115') and searched by their
 * digits, so a number typed as a resident reads it out matches in any form:
 * a word of digits and phone punctuation ('(561)', '555-0115',
 * '561.555.0115', '+1') is searched by its digits alone (a short one such
 * as '2-3' as typed); the phone fields
 * are listed by their digits (phoneDigits).
 */
const PHONE_WORD = /^[\d()+\-.]+$/;
const NOT_DIGITS = /\D/g;

/** A number's digits only: how phone numbers are listed and phone-like words searched. */
export function phoneDigits(value: string | null | undefined): string {
  return (value ?? '').replace(NOT_DIGITS, '');
}

function searchWord(word: string): string {
  if (!PHONE_WORD.test(word)) return word;
  const digits = phoneDigits(word);
  // A country code ('+1') or 3 digits and more; a short one ('2-3', an apt) is kept as typed.
  return digits.length >= 3 || (word.startsWith('+') && digits !== '') ? digits : word;
}

export function searchWords(query: string): string[] {
  return query.toLocaleLowerCase().split(/\s+/).filter(Boolean).map(searchWord);
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
