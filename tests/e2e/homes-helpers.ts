/**
 * The Homes list draws only the cards near the screen (a
 * community of 20,000 homes), so a journey that wants a card further down,
 * or every card, scrolls the page to it as a user does.
 */
import type { Locator, Page } from 'playwright-core';
import { scrollOn, scrollToY } from './scrolling.ts';

type Row = Record<string, unknown>;

/** A home as the search sees it: its fields, and who lives there. */
export interface SearchedHome {
  house: Row;
  residents: Row[];
  phones: Row[];
}

const digits = (text: string) => text.replace(/\D/g, '');

/**
 * The search rule (docs/product.md#list-search), written again here from the text rather
 * than imported from the app: case-insensitive, every word of the query in
 * one of the home's fields, its residents' names or its phone numbers; a
 * word of digits and phone punctuation with 3 digits or more, or a '+' and
 * a country code, is looked for by its digits among the numbers' digits.
 */
export function matches({ house, residents, phones }: SearchedHome, query: string): boolean {
  const fields = [
    ...['address', 'apt', 'city', 'state', 'zip', 'security_code', 'member_number'].map((f) => String(house[f] ?? '')),
    ...residents.flatMap((r) => [String(r.first_name ?? ''), String(r.last_name ?? '')]),
    ...phones.map((p) => digits(String(p.phone_number ?? ''))),
  ].map((field) => field.toLowerCase());
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) =>
      /^[\d()+\-.]+$/.test(word) && (digits(word).length >= 3 || (word.startsWith('+') && digits(word) !== ''))
        ? digits(word)
        : word,
    )
    .every((word) => fields.some((field) => field !== '' && field.includes(word)));
}

/** Homes with their residents and phones, from lists of each (a seed's or the server's). */
export function withPeople<H extends Row>(
  houses: H[],
  residents: Row[],
  phones: Row[],
): Array<SearchedHome & { house: H }> {
  const byHouse = (rows: Row[]) => {
    const map = new Map<unknown, Row[]>();
    for (const row of rows) map.set(row.house, [...(map.get(row.house) ?? []), row]);
    return map;
  };
  const residentsOf = byHouse(residents);
  const phonesOf = byHouse(phones);
  return houses.map((house) => ({
    house,
    residents: residentsOf.get(house.id) ?? [],
    phones: phonesOf.get(house.id) ?? [],
  }));
}

/**
 * The names (address lines) of every card of the list, in its order, read
 * while scrolling from the top to the end; then back to the top. A home
 * whose card failed to draw has no card, so no name.
 */
export async function everyHomeCard(page: Page): Promise<string[]> {
  const seen = new Map<number, string>();
  await scrollToY(page, 0);
  for (let step = 0; step < 1_000; step++) {
    const cards = await page.evaluate(() =>
      [...document.querySelectorAll('[role="list"][aria-label="Homes"] [role="listitem"]')].map(
        (item) =>
          [
            Number(item.getAttribute('aria-posinset')),
            item.querySelector('article')?.getAttribute('aria-label') ?? null,
          ] as const,
      ),
    );
    for (const [position, name] of cards) if (name !== null) seen.set(position, name);
    if (!(await scrollOn(page, 0.8))) break;
  }
  await scrollToY(page, 0);
  return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, name]) => name);
}

/** The card whose name matches, scrolled into view (from the top of the list down). */
export async function scrollToHomeCard(page: Page, name: RegExp): Promise<Locator> {
  const card = page.getByRole('article', { name });
  await scrollToY(page, 0);
  for (let step = 0; step < 1_000 && (await card.count()) === 0; step++) {
    if (!(await scrollOn(page, 0.8))) break;
  }
  await card.scrollIntoViewIfNeeded();
  return card;
}
