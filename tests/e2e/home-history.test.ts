/**
 * A home's History, at phone and desktop size, on the built app with a real
 * PocketBase and the demo data: an officer adds a resident and changes the
 * security code from another device, the manager edits the note in the app;
 * History on the card lists both saves newest first, with who and the
 * values in the form's words, a long note whole; offline it reads from the
 * mirror, says that a change made offline comes later, and shows it once
 * the device is back online and the server has it.
 */
import type { Page } from 'playwright-core';
import PocketBase, { type RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_MANAGER, DEMO_REGULAR } from '../../scripts/seed/demo-account.ts';
import {
  dialog,
  expectNoSeriousA11yViolations,
  expectToast,
  navigate,
  openedDialog,
  screenshot,
  signedInPage,
  SIZE_NAMES,
  useScreensApp,
  waitUntil,
  type SizedPage,
} from './screens-helpers.ts';
import { waitForWorkerControl } from './pwa-helpers.ts';
import { SAVE_GAP_MS } from '../../src/features/homes/homeHistory.ts';

const env = useScreensApp();

const HOMES = { phone: 'PGE-1020', desktop: 'PGE-1021' } as const;
const LONG_NOTE = `Side gate sticks: lift it before you push. ${'The dog in the back yard is friendly but loud; ring twice. '.repeat(6)}Key with unit 4.`;

let officer: PocketBase;
let officerName = '';
let managerName = '';

beforeAll(async () => {
  officer = new PocketBase(env.app.server.url);
  officer.autoCancellation(false);
  const auth = await officer.collection('users').authWithPassword(DEMO_REGULAR.email, DEMO_REGULAR.password);
  officerName = `${auth.record.first_name} ${auth.record.last_name}`;
  const manager = await env.app.server.admin
    .collection('users')
    .getFirstListItem(env.app.server.admin.filter('email = {:e}', { e: DEMO_MANAGER.email }));
  managerName = `${manager.first_name} ${manager.last_name}`;
});

async function houseByMember(memberNumber: string): Promise<RecordModel> {
  const admin = env.app.server.admin;
  return admin.collection('houses').getFirstListItem(admin.filter('member_number = {:m}', { m: memberNumber }));
}

async function cardOf(page: Page, memberNumber: string) {
  await navigate(page, 'Homes');
  await page.getByLabel('Search homes').fill(memberNumber);
  const card = page.getByRole('article');
  await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(1);
  return card;
}

/** The saves of the open History sheet, newest first, as their texts. */
async function saves(page: Page): Promise<string[]> {
  const sheet = dialog(page, 'History');
  return sheet.locator('ol[aria-label="Changes"] > li').allInnerTexts();
}

/** Whether the sheet's content is as wide as the sheet: nothing runs past its edge (a long value wraps). */
async function fitsItsWidth(page: Page): Promise<boolean> {
  return dialog(page, 'History')
    .locator('ol[aria-label="Changes"]')
    .evaluate((list) => {
      const scroller = list.parentElement!;
      return scroller.scrollWidth <= scroller.clientWidth && list.scrollWidth <= list.clientWidth;
    });
}

describe.each(SIZE_NAMES)('at %s size', (size) => {
  let sized: SizedPage;
  let page: Page;
  beforeAll(async () => {
    sized = await signedInPage(env.browser, env.app.server.url, size, DEMO_MANAGER);
    page = sized.page;
  });
  afterAll(() => sized?.context.close());

  test('the changes of two people, newest first; offline from the mirror; an offline change once it is sent', async () => {
    const member = HOMES[size];
    const house = await houseByMember(member);
    const oldCode = String(house.security_code);
    const oldNote = String(house.note);

    // Another device: the officer adds a resident and changes the security code.
    const batch = officer.createBatch();
    batch
      .collection('residents')
      .create({ first_name: 'Yolanda', last_name: 'Vasquez', owner: false, house: house.id });
    batch.collection('houses').update(house.id, { security_code: '5678' });
    await batch.send();

    // This device: the manager edits the note.
    const card = await cardOf(page, member);
    await card.getByText('Security code:').locator('..').getByText('5678').waitFor({ timeout: 15_000 });
    await card.getByRole('button', { name: /^Edit / }).click();
    const update = await openedDialog(page, 'Update Home');
    await update.getByLabel('Note', { exact: true }).fill(LONG_NOTE);
    await update.getByRole('button', { name: 'Update Home' }).click();
    await expectToast(page, 'Success', 'Home updated');
    await update.waitFor({ state: 'detached' });
    await waitUntil(
      'the note on the server',
      () => houseByMember(member),
      (h) => h.note === LONG_NOTE,
    );
    const noteSavedAt = Date.now();

    await screenshot(page, 'home-history-card');
    await card.getByRole('button', { name: /^History of / }).click();
    const sheet = await openedDialog(page, 'History');
    await expect.poll(() => saves(page), { timeout: 15_000 }).toHaveLength(2);
    const [newest, older] = await saves(page);
    expect(newest).toContain(managerName);
    expect(newest).toMatch(/less than a minute ago|1 minute ago/);
    expect(newest).toContain(`Note: ${oldNote ? `'${oldNote}'` : '(none)'} → '${LONG_NOTE}'`);
    expect(older).toContain(officerName);
    expect(older).toContain(`Security code: ${oldCode || '(none)'} → 5678`);
    expect(older).toContain('Added resident Yolanda Vasquez');
    expect(await fitsItsWidth(page)).toBe(true);
    await expectNoSeriousA11yViolations(page, 'the History sheet');
    await screenshot(page, 'home-history');
    await sheet.getByRole('button', { name: 'Close' }).first().click();
    await sheet.waitFor({ state: 'detached' });

    // Offline: lazy sheets come from the worker's precache, so wait until it controls the page.
    await waitForWorkerControl(page);
    await sized.context.setOffline(true);
    try {
      await card.getByRole('button', { name: /^Edit / }).click();
      const offlineEdit = await openedDialog(page, 'Update Home');
      await offlineEdit.getByLabel('Security code', { exact: true }).fill('2468');
      await offlineEdit.getByRole('button', { name: 'Update Home' }).click();
      await offlineEdit.waitFor({ state: 'detached' });
      await card.getByText('Not yet sent').waitFor();

      await card.getByRole('button', { name: /^History of / }).click();
      const offline = await openedDialog(page, 'History');
      await offline.getByText(/appear here once the server has them/).waitFor();
      await expect.poll(() => saves(page)).toHaveLength(2);
      expect((await saves(page))[0]).toContain(`Note: `);
      expect(await fitsItsWidth(page)).toBe(true);
      await screenshot(page, 'home-history-offline');
      await offline.getByRole('button', { name: 'Close' }).first().click();
      await offline.waitFor({ state: 'detached' });
    } finally {
      // Rows of one author less than SAVE_GAP_MS apart are one save: the offline
      // change must reach the server later than that after the note, or it joins it.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, noteSavedAt + SAVE_GAP_MS + 500 - Date.now())));
      await sized.context.setOffline(false);
    }

    // Back online, the outbox sends the change; the server's history comes back to the sheet.
    await card.getByText('Not yet sent').waitFor({ state: 'detached', timeout: 30_000 });
    await card.getByRole('button', { name: /^History of / }).click();
    await openedDialog(page, 'History');
    await expect.poll(() => saves(page), { timeout: 15_000 }).toHaveLength(3);
    const [sent] = await saves(page);
    expect(sent).toContain(managerName);
    expect(sent).toContain('Security code: 5678 → 2468');
    await dialog(page, 'History').getByRole('button', { name: 'Close' }).first().click();
  });
});
