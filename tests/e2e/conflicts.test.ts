/**
 * Two phones of one community, each in its own browser context, through the
 * real screens: the officer edits a home's note offline, the manager saves
 * another note online, the officer reconnects. The officer's badge says
 * there is something to resolve; the sheet shows who changed the note when,
 * both values, and 'Keep mine' / 'Keep theirs'. Either choice reaches the
 * server and the manager's screen at once (realtime); nothing is undone
 * silently.
 */
import type { Locator, Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_MANAGER, DEMO_REGULAR } from '../../scripts/seed/demo-account.ts';
import { waitForWorkerControl } from './pwa-helpers.ts';
import {
  DEMO_COMMUNITY_IDS,
  expectNoSeriousA11yViolations,
  expectToast,
  navArea,
  openedDialog,
  screenshot,
  signedInPage,
  useScreensApp,
  waitUntil,
  type SizedPage,
} from './screens-helpers.ts';

const env = useScreensApp();

let houses: RecordModel[];
let managerName: string;

beforeAll(async () => {
  const admin = env.app.server.admin;
  houses = await admin.collection('houses').getFullList({
    filter: admin.filter('community = {:c} && member_number != ""', { c: DEMO_COMMUNITY_IDS.primary }),
    sort: 'member_number',
  });
  const manager = await admin
    .collection('users')
    .getFirstListItem(admin.filter('email = {:e}', { e: DEMO_MANAGER.email }));
  managerName = `${manager.first_name} ${manager.last_name}`;
});

/** The top bar's Log out (in the side drawer on a phone). */
async function logOutButton(page: Page): Promise<Locator> {
  return (await navArea(page)).getByRole('button', { name: 'Log out' });
}

/** The home's card on the Homes screen, found by its member number. */
async function cardOf(page: Page, house: RecordModel): Promise<Locator> {
  await page.getByLabel('Search homes').fill(String(house.member_number));
  const card = page.getByRole('article');
  await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(1);
  return card;
}

/** Edits the note through Update Home, as a person does (offline: the words say it is kept on the device). */
async function saveNote(page: Page, house: RecordModel, note: string, offline = false): Promise<void> {
  const card = await cardOf(page, house);
  await card.getByRole('button', { name: /^Edit / }).click();
  const form = await openedDialog(page, 'Update Home');
  await form.getByLabel('Note', { exact: true }).fill(note);
  await form.getByRole('button', { name: 'Update Home' }).click();
  await form.waitFor({ state: 'detached' });
  await expectToast(
    page,
    'Success',
    offline ? 'Home update saved on this device; it will be sent when you are back online.' : 'Home updated',
  );
}

const noteOnServer = (house: RecordModel) =>
  env.app.server.admin
    .collection('houses')
    .getOne(house.id)
    .then((h) => String(h.note));

// As they work: the officer on a phone, the manager at a desk. What this journey checks happens below the
// screen (the outbox, the sync), the same at both sizes; each screen at both sizes is the screens-* journeys'.
describe.each(['phone'] as const)('at %s size', (size) => {
  let officer: SizedPage;
  let manager: SizedPage;
  beforeAll(async () => {
    officer = await signedInPage(env.browser, env.app.server.url, size, DEMO_REGULAR);
    manager = await signedInPage(env.browser, env.app.server.url, 'desktop', DEMO_MANAGER);
    // Offline the app comes from the worker's precache.
    await waitForWorkerControl(officer.page);
  });
  afterAll(async () => {
    await officer?.context.close();
    await manager?.context.close();
  });

  /** The officer writes `mine` offline, the manager `theirs` online; the officer comes back online. */
  async function overtake(house: RecordModel, mine: string, theirs: string): Promise<void> {
    await officer.context.setOffline(true);
    try {
      await saveNote(officer.page, house, mine, true);
      await saveNote(manager.page, house, theirs);
      await waitUntil(
        'the manager’s note on the server',
        () => noteOnServer(house),
        (note) => note === theirs,
      );
    } finally {
      await officer.context.setOffline(false);
    }
    await officer.page.getByRole('button', { name: 'Sync status: 1 to resolve' }).waitFor({ timeout: 20_000 });
    // Nothing was overwritten.
    expect(await noteOnServer(house)).toBe(theirs);
  }

  /** The sync panel's Resolve: the sheet with both notes. */
  async function openConflict(mine: string, theirs: string): Promise<Locator> {
    await officer.page.getByRole('button', { name: 'Sync status: 1 to resolve' }).click();
    const panel = await openedDialog(officer.page, 'Sync');
    await panel.getByText('Someone else changed this while you were offline. Choose what to keep.').waitFor();
    await panel.getByText('0 waiting to be sent · 0 failed · 1 to resolve').waitFor();
    await screenshot(officer.page, 'conflict-panel');
    await panel.getByRole('button', { name: 'Resolve' }).click();
    const sheet = await openedDialog(officer.page, 'Changed while you were offline');
    await sheet.getByText(new RegExp(`^Changed by ${managerName} at .+ while you were offline$`)).waitFor();
    await sheet.getByRole('radio', { name: new RegExp(`^Keep mine ${mine}`) }).waitFor();
    await sheet.getByRole('radio', { name: new RegExp(`^Keep theirs ${theirs}`) }).waitFor();
    return sheet;
  }

  test("'Keep mine': the officer's note goes over the manager's, and the manager's screen shows it at once", async () => {
    const house = houses[size === 'phone' ? 0 : 2]!;
    const mine = `Officer note ${size} A`;
    const theirs = `Manager note ${size} B`;
    await overtake(house, mine, theirs);
    const sheet = await openConflict(mine, theirs);
    await expectNoSeriousA11yViolations(officer.page, 'the conflict sheet');
    await screenshot(officer.page, 'conflict-sheet');
    await sheet.getByRole('radio', { name: new RegExp(`^Keep mine`) }).check();
    await sheet.getByRole('button', { name: 'Save' }).click();
    await sheet.waitFor({ state: 'detached' });
    await expectToast(officer.page, 'Success', 'Your choice is saved');
    await waitUntil(
      'the officer’s note on the server',
      () => noteOnServer(house),
      (note) => note === mine,
    );
    // Realtime: the manager's card changes without a reload.
    const managerCard = await cardOf(manager.page, house);
    await managerCard.getByText(mine).waitFor({ timeout: 20_000 });
    await officer.page.getByRole('button', { name: 'Sync status: Synced' }).waitFor({ timeout: 20_000 });
  });

  test("'Keep theirs': nothing is sent, the officer's screen shows the manager's note; a merged text is offered too", async () => {
    const house = houses[size === 'phone' ? 1 : 3]!;
    const mine = `Officer note ${size} C`;
    const theirs = `Manager note ${size} D`;
    await overtake(house, mine, theirs);
    // Log out asks first, and 'Send now' says this one waits for a choice, not for the server.
    await logOutButton(officer.page).then((button) => button.click());
    const question = await openedDialog(officer.page, '1 change is not sent yet');
    await question.getByRole('button', { name: 'Send now' }).click();
    await question
      .getByText(
        '1 changed by someone else while you were offline: choose what to keep (Resolve, in the sync panel), or log out anyway.',
      )
      .waitFor();
    await question.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'detached' });
    const sheet = await openConflict(mine, theirs);
    // A note can be edited into a merged value.
    await sheet.getByRole('radio', { name: 'Edit a merged value' }).check();
    await expect.poll(() => sheet.getByLabel('Note: merged value').inputValue()).toBe(mine);
    await screenshot(officer.page, 'conflict-sheet-merge');
    // Settling works offline too: the choice is kept on the device.
    await officer.context.setOffline(true);
    try {
      await sheet.getByRole('radio', { name: new RegExp(`^Keep theirs`) }).check();
      await screenshot(officer.page, 'conflict-sheet-offline');
      await sheet.getByRole('button', { name: 'Save' }).click();
      await sheet.waitFor({ state: 'detached' });
      await officer.page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor();
    } finally {
      await officer.context.setOffline(false);
    }
    await officer.page.getByRole('button', { name: 'Sync status: Synced' }).waitFor({ timeout: 20_000 });
    expect(await noteOnServer(house)).toBe(theirs);
    const officerCard = await cardOf(officer.page, house);
    await officerCard.getByText(theirs).waitFor();
    expect(await officerCard.getByText(mine).count()).toBe(0);
  });
});
