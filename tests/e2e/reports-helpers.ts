/**
 * Shared steps of the Reports journeys (tests/e2e/reports-*.test.ts): a
 * signed-in browser context at a phone or desktop size, what the server
 * holds (read with the superuser client, the tests' source of truth), the
 * list as the page shows it, screenshots and the axe-core check.
 */
import type { Browser, Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { expect } from 'vitest';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import { DEMO_COMMUNITY_IDS } from '../../scripts/seed/demo-data.ts';
import { reportTypeLabel } from '../../src/domain/reportTypes.ts';
import { screenshotsOf, type SizeName } from '../support/journey.ts';
import type { TestServer } from '../support/pocketbase.ts';
import { signedInUserId } from './pwa-helpers.ts';
import { signedInPage, type SizedPage } from './screens-helpers.ts';
import { scrollOn, scrollToY } from './scrolling.ts';

export { SIZES, type SizeName, expectNoSeriousA11yViolations, waitUntil } from '../support/journey.ts';

/** The demo director's community: Palm Grove Estates. */
export const COMMUNITY = DEMO_COMMUNITY_IDS.primary;

/** A tiny teal PNG (16×12), as a picked photo: small to send, visible in screenshots. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAAFUlEQVR42mPgndJBEmIY1TCqATsCAIV93sFVhzWVAAAAAElFTkSuQmCC',
  'base64',
);

export interface SignedIn extends SizedPage {
  userId: string;
}

/** A fresh context at the given size signed in as the demo director, with the first pull done (signedInPage). */
export async function signedIn(browser: Browser, server: TestServer, size: SizeName): Promise<SignedIn> {
  const sized = await signedInPage(browser, server.url, size, DEMO_DIRECTOR);
  return { ...sized, userId: await signedInUserId(sized.page) };
}

/** Goes to the Reports list through the navigation (the side drawer on a phone). */
export async function openReports(page: Page): Promise<void> {
  if ((page.viewportSize()?.width ?? 1280) < 768) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Reports', exact: true }).click();
  } else {
    await page.locator('nav').getByRole('link', { name: 'Reports', exact: true }).click();
  }
  await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
}

// ---- the server's data -------------------------------------------------------

export interface ServerReport extends RecordModel {
  created: string;
  incident_time: string;
  type: string;
  narative: string;
  ai_generated_narative: string;
  house: string;
  resident: string;
  created_by: string;
  phone_number: string;
  photos: string[];
  expand?: { house?: RecordModel; resident?: RecordModel; created_by?: RecordModel };
}

/** Every report of the demo community, with its home, resident and officer. */
export async function communityReports(server: TestServer): Promise<ServerReport[]> {
  return server.admin.collection('reports').getFullList<ServerReport>({
    filter: server.admin.filter('community = {:c}', { c: COMMUNITY }),
    expand: 'house,resident,created_by',
  });
}

/** Reports with this exact original narrative (how the journeys find the one they wrote). */
export async function reportsByNarrative(server: TestServer, narative: string): Promise<ServerReport[]> {
  return server.admin
    .collection('reports')
    .getFullList<ServerReport>({ filter: server.admin.filter('narative = {:n}', { n: narative }) });
}

const time = (pbDate: string) => new Date(pbDate.replace(' ', 'T')).getTime();

export function incidentBetween(report: ServerReport, from: Date, to: Date): boolean {
  const at = time(report.incident_time);
  return at >= from.getTime() && at <= to.getTime();
}

/**
 * The search rule (docs/product.md#list-search), written out again here so the test does not
 * trust the app's code: case-insensitive, every word of the query in one of
 * the fields (the type both as stored and as shown, the officer's name); a
 * word of digits and phone punctuation with 3 digits or more is looked for
 * by its digits.
 */
export function matchesSearch(report: ServerReport, query: string): boolean {
  const house = report.expand?.house;
  const resident = report.expand?.resident;
  const officer = report.expand?.created_by;
  const fields = [
    house?.address,
    house?.apt,
    house?.city,
    house?.state,
    house?.zip,
    report.type,
    reportTypeLabel(report.type),
    resident?.first_name,
    resident?.last_name,
    house?.member_number,
    officer?.first_name,
    officer?.last_name,
  ]
    .filter((field): field is string => typeof field === 'string' && field !== '')
    .map((field) => field.toLowerCase());
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      const digits = word.replace(/\D/g, '');
      return /^[\d()+\-.]+$/.test(word) && (digits.length >= 3 || (word.startsWith('+') && digits !== ''))
        ? digits
        : word;
    })
    .every((word) => fields.some((field) => field.includes(word)));
}

// ---- the list as shown -------------------------------------------------------

/**
 * The ids of the cards of the whole list, top to bottom (each card is
 * labelled by `report-{id}-title`). The list is virtualised: only the cards
 * near the screen are in the DOM, so this scrolls the window through the
 * list (scrolling.ts), reads each item by its position (aria-posinset of
 * aria-setsize), and scrolls back to where the page was.
 */
export async function cardIds(page: Page): Promise<string[]> {
  return (await listedCards(page)).map((card) => card.id);
}

/** Each card of the whole list (see cardIds) with its text as shown. */
export async function listedCards(page: Page): Promise<Array<{ id: string; text: string }>> {
  const found = new Map<number, { id: string; text: string }>();
  let setSize = 0;
  const back = await page.evaluate(() => window.scrollY);
  await scrollToY(page, 0);
  for (let still = 0; still < 3;) {
    const { drawn, lastTop, scrollY } = await page.evaluate(() => {
      const items = [...document.querySelectorAll('[role="list"][aria-label="Reports"] > * > [role="listitem"]')];
      return {
        drawn: items.map((item) => {
          const article = item.querySelector<HTMLElement>('article[aria-labelledby^="report-"]');
          return {
            setSize: Number(item.getAttribute('aria-setsize')),
            position: Number(item.getAttribute('aria-posinset')),
            label: article?.getAttribute('aria-labelledby') ?? null,
            text: article?.innerText ?? '',
          };
        }),
        // Where the last drawn card starts, in the page (under the sticky bar).
        lastTop: Math.max(0, ...items.map((item) => item.getBoundingClientRect().top + window.scrollY - 64)),
        scrollY: window.scrollY,
      };
    });
    for (const { setSize: size, position, label, text } of drawn) {
      setSize = size;
      if (label) found.set(position, { id: label.replace(/^report-/, '').replace(/-title$/, ''), text });
    }
    if (found.size >= setSize) break;
    // The drawn cards run on past the screen's edge: the next step starts at the last of them,
    // so none is skipped and a step covers them all (a screen when one card is taller than that).
    const moved = scrollY < lastTop ? await scrollToY(page, lastTop) : false;
    still = moved || (await scrollOn(page, 1)) ? 0 : still + 1;
  }
  await scrollToY(page, back);
  return [...found].sort(([a], [b]) => a - b).map(([, card]) => card);
}

/** The card of one report. */
export function card(page: Page, reportId: string) {
  return page.locator(`article[aria-labelledby="report-${reportId}-title"]`);
}

async function countText(page: Page): Promise<string> {
  return (await page.getByText(/^\d+ report\(s\)$/).textContent({ timeout: 10_000 })) ?? '';
}

/**
 * The list shows exactly `expected` (the count line and the cards), in
 * creation order: newest first or oldest first. Reports created in one
 * batch may share a creation time, so the order is checked as a
 * non-increasing (or non-decreasing) run of creation times.
 */
export async function expectList(
  page: Page,
  expected: readonly ServerReport[],
  sort: 'newest' | 'oldest',
): Promise<string[]> {
  // The mirror fills and the live query answers asynchronously: wait for the count to settle on the expected one.
  await expect.poll(() => countText(page), { timeout: 15_000 }).toBe(`${expected.length} report(s)`);
  const ids = await cardIds(page);
  expect([...ids].sort()).toEqual(expected.map((r) => r.id).sort());
  const created = new Map(expected.map((r) => [r.id, r.created]));
  const times = ids.map((id) => created.get(id)!);
  const sorted = [...times].sort((a, b) => (sort === 'newest' ? b.localeCompare(a) : a.localeCompare(b)));
  expect(times).toEqual(sorted);
  return ids;
}

/** A report waiting in the outbox, as read from the page's IndexedDB. */
export interface QueuedReport {
  id: string;
  narative: string;
  photos: number;
  status: string;
}

/**
 * The reports waiting in the user's outbox (src/data/mirror/db.ts's OutboxEntry
 * shape). Read and summarised inside the page: the photos are Blobs, which
 * do not cross to the test.
 */
export async function queuedReports(page: Page, userId: string): Promise<QueuedReport[]> {
  return page.evaluate(
    (database) =>
      new Promise<QueuedReport[]>((resolve, reject) => {
        const open = indexedDB.open(database);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('outbox', 'readonly').objectStore('outbox').getAll();
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            open.result.close();
            type Op = {
              action: string;
              collection: string;
              id: string;
              body: { narative?: string };
              files?: { photos?: Blob[] };
            };
            const entries = request.result as Array<{ status: string; ops: Op[] }>;
            resolve(
              entries.flatMap((entry) =>
                entry.ops
                  .filter((op) => op.action === 'create' && op.collection === 'reports')
                  .map((op) => ({
                    id: op.id,
                    narative: op.body.narative ?? '',
                    photos: op.files?.photos?.length ?? 0,
                    status: entry.status,
                  })),
              ),
            );
          };
        };
      }),
    `scms-${userId}`,
  );
}

// ---- artefacts and checks ----------------------------------------------------

/** Saves test-results/screenshots/reports-{name}-{size}.png (the whole page when asked). */
export const screenshot = screenshotsOf('reports');

/** A word unique to one test run, to find what a journey wrote. */
export function uniqueTag(): string {
  return Math.random().toString(36).slice(2, 8);
}

/**
 * Picks a home in the 'Search home...' combobox. Waits until the choice has
 * settled: Headless UI closes the suggestions and gives the focus back to the
 * input just after the click, and text typed elsewhere before then would
 * land in the combobox.
 */
export async function chooseHome(page: Page, address: string): Promise<void> {
  const homeBox = page.getByRole('combobox', { name: 'Home' });
  await homeBox.fill(address);
  await page
    .getByRole('listbox')
    .getByRole('option', { name: new RegExp(`^${address}`) })
    .click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
  await expect.poll(() => homeBox.inputValue()).toBe(address);
}

/** Writes the original narrative and checks it is where it was meant to go. */
export async function fillNarrative(page: Page, text: string): Promise<void> {
  const narrative = page.getByLabel('Original narrative');
  await narrative.fill(text);
  await expect.poll(() => narrative.inputValue()).toBe(text);
}
