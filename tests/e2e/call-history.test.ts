/**
 * Calls that reach people, at phone and desktop size, through
 * the real call route, the telephony stand-in and the server's retries:
 * a director sets the community's call settings on the Concerns screen;
 * a call to a number that is busy first and answers on the retry shows
 * both attempts in 'Call history' (live, then offline from the mirror) and
 * 'Last call: Answered 10:42' on the card; a call answered with a 1 is
 * 'Acknowledged'; a do-not-call phone is passed over with its reason; and a
 * call in quiet hours asks 'It is 22:14 for the resident, within the
 * community's quiet hours (21:00–08:00). Call anyway?'; its busy or
 * unanswered first try leaves the card saying 'Busy — next try 08:00' (not
 * 'Call in progress...') until the director cancels the retries, which
 * 'Call history' then records, and the home can be called again.
 */
import type { Locator, Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import { attemptsOf, runDue, settingsAwayFromQuietHours } from '../support/call-jobs.ts';
import {
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
import { expectNoOverlap } from './layout-helpers.ts';

// A settings minute is one second here, so the retry five "minutes" later comes within the journey.
const env = useScreensApp({ telephony: { stepDelayMs: 300, callMinuteSeconds: 1 } });

/**
 * Demo homes whose primary phone plays one path of the stand-in (README,
 * Telephony stand-in). The quiet-hours homes are busy (PGE-1009) and never
 * answer (PGE-1011): their retry waits for the end of quiet hours.
 */
const HOMES = {
  phone: { called: 'PGE-1014', doNotCall: 'PGE-1008', quiet: 'PGE-1009' },
  desktop: { called: 'PGE-1013', doNotCall: 'PGE-1012', quiet: 'PGE-1011' },
} as const;
const QUIET_FIRST_OUTCOME = { phone: 'Busy', desktop: 'No answer' } as const;

let settingsId = '';

beforeAll(async () => {
  const admin = env.app.server.admin;
  const community = await admin.collection('communities').getFirstListItem(admin.filter('name = "Palm Grove Estates"'));
  // One retry a "minute" (a second) later, quiet hours far from now: the journey runs at any hour.
  settingsId = (
    await admin
      .collection('call_settings')
      .create({ ...settingsAwayFromQuietHours(community.id), retries: 1, retry_minutes: 1 })
  ).id;
});

async function houseByMember(memberNumber: string): Promise<RecordModel> {
  const admin = env.app.server.admin;
  return admin.collection('houses').getFirstListItem(admin.filter('member_number = {:m}', { m: memberNumber }));
}

async function cardOf(page: Page, memberNumber: string): Promise<Locator> {
  await navigate(page, 'Homes');
  await page.getByLabel('Search homes').fill(memberNumber);
  const card = page.getByRole('article');
  await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(1);
  return card;
}

/** Opens the sheet, chooses a concern and presses Reach Out To Resident; → the sheet. */
async function reachOut(page: Page, card: Locator): Promise<Locator> {
  await card.getByRole('button', { name: /^Call resident of / }).click();
  const sheet = await openedDialog(page, 'Select concerns');
  await sheet.getByRole('checkbox', { name: 'Gate left open' }).check();
  await sheet.getByRole('button', { name: 'Reach Out To Resident' }).click();
  return sheet;
}

async function newestCall(houseId: string): Promise<RecordModel> {
  const admin = env.app.server.admin;
  return waitUntil(
    'the call record',
    () =>
      admin.collection('calls').getFullList({ filter: admin.filter('house = {:h}', { h: houseId }), sort: '-created' }),
    (calls) => calls.length > 0,
  ).then((calls) => calls[0]!);
}

/** Runs due attempts (as the cron does every minute) until the job is over; at most one run a second (the routes' rate limit). */
async function followJob(callId: string): Promise<RecordModel> {
  const admin = env.app.server.admin;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const call = await admin.collection('calls').getOne(callId);
    if (call.progress === 'done') return call;
    if (Date.now() > deadline) throw new Error(`the call job did not end: ${JSON.stringify(call)}`);
    await runDue(env.app.server);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
  }
}

/** Minutes since midnight of 'HH:MM'. */
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const time = (date: string) => {
  const d = new Date(date.replace(' ', 'T'));
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

describe.each(SIZE_NAMES)('at %s size', (size) => {
  let sized: SizedPage;
  let page: Page;
  beforeAll(async () => {
    sized = await signedInPage(env.browser, env.app.server.url, size, DEMO_DIRECTOR);
    page = sized.page;
  });
  afterAll(() => sized?.context.close());

  test('busy, then answered on the retry: both attempts in Call history, live and offline; the card says Answered', async () => {
    const member = HOMES[size].called;
    const house = await houseByMember(member);
    const card = await cardOf(page, member);
    await reachOut(page, card);
    const confirm = await openedDialog(page, 'Are you sure you want to call the resident?');
    await confirm.getByRole('button', { name: 'Call', exact: true }).click();
    await expectToast(page, 'Success', 'Call placed to the resident');

    const call = await newestCall(house.id);
    const done = await followJob(call.id);
    const attempts = await attemptsOf(env.app.server, call.id);
    const expectedOutcome = member === 'PGE-1013' ? ['answered'] : ['busy', 'answered'];
    expect(attempts.map((a) => a.outcome)).toEqual(expectedOutcome);
    const answered = attempts.at(-1)!;
    const word = done.acknowledged ? 'Acknowledged' : `Answered ${time(answered.ended_at as string)}`;
    expect(done.outcome).toBe('answered');

    // The card: the call is over, in a word.
    await card.getByText(`Last call: ${word}`).waitFor({ timeout: 15_000 });
    // One state: the call's end, once on the card, replaced 'Call in progress...' at once.
    await expect(card.getByText('Call in progress...').count()).resolves.toBe(0);

    await card.getByRole('button', { name: 'Call history' }).click();
    const history = await openedDialog(page, 'Call history');
    const entry = history.getByRole('list', { name: 'Calls' }).getByRole('listitem').first();
    const rows = entry.getByRole('list', { name: 'Attempts' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(expectedOutcome.length);
    const texts = await rows.allInnerTexts();
    if (member === 'PGE-1013') {
      expect(texts[0]).toContain('Answered, Acknowledged');
      await entry.getByText('Acknowledged', { exact: true }).first().waitFor();
    } else {
      expect(texts[0]).toContain('Busy');
      expect(texts[1]).toContain('Answered');
    }
    const director = await env.app.server.admin.collection('users').getOne(call.created_by as string);
    await entry.getByText(`Placed by ${director.first_name} ${director.last_name}`, { exact: false }).waitFor();
    await entry.getByText('Gate left open', { exact: false }).waitFor();
    await expectNoSeriousA11yViolations(page, 'Call history');
    await screenshot(page, 'call-history');
    await history.getByRole('button', { name: 'Close' }).first().click();
    await history.waitFor({ state: 'detached' });

    // Offline, the history reads from the mirror.
    // Lazy screens and dialogs offline come from the worker's precache: wait until it controls the page.
    await waitForWorkerControl(page);
    await sized.context.setOffline(true);
    try {
      await card.getByRole('button', { name: 'Call history' }).click();
      const offline = await openedDialog(page, 'Call history');
      await expect
        .poll(() => offline.getByRole('list', { name: 'Attempts' }).first().getByRole('listitem').count())
        .toBe(expectedOutcome.length);
      await screenshot(page, 'call-history-offline');
      await offline.getByRole('button', { name: 'Close' }).first().click();
      await offline.waitFor({ state: 'detached' });
      // The sync panel: a small dialog under the bar (no longer a popover).
      await page.getByRole('button', { name: /^Sync status: Offline/ }).click();
      const panel = await openedDialog(page, 'Sync');
      await panel.getByText('Offline — your changes are kept on this device').waitFor();
      await expectNoSeriousA11yViolations(page, 'the sync panel');
      await screenshot(page, 'sync-panel-offline');
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });
    } finally {
      await sized.context.setOffline(false);
    }
  });

  test('a do-not-call phone is passed over and the sheet says why; none left to call, no call', async () => {
    const member = HOMES[size].doNotCall;
    const card = await cardOf(page, member);
    await card.getByRole('button', { name: /^Edit / }).click();
    const form = await openedDialog(page, 'Update Home');
    // Every number of the home: the resident asked not to be called at all.
    const boxes = form.getByLabel('Do not call', { exact: true });
    await expect.poll(() => boxes.count()).toBeGreaterThan(0);
    for (const box of await boxes.all()) await box.check();
    await screenshot(page, 'phone-do-not-call');
    await form.getByRole('button', { name: 'Update Home' }).click();
    await form.waitFor({ state: 'detached' });
    const house = await houseByMember(member);
    await waitUntil(
      'the phone to be saved do-not-call',
      () =>
        env.app.server.admin
          .collection('phones')
          .getFullList({ filter: env.app.server.admin.filter('house = {:h}', { h: house.id }) }),
      (phones) => phones.length > 0 && phones.every((p) => p.do_not_call === true),
    );

    await card.getByRole('button', { name: /^Call resident of / }).click();
    const sheet = await openedDialog(page, 'Select concerns');
    await sheet
      .getByRole('region', { name: 'Numbers, in the order they are tried' })
      .getByText('Not called: the resident asked not to be called on this number.')
      .first()
      .waitFor();
    await sheet.getByRole('checkbox', { name: 'Gate left open' }).check();
    await expect(sheet.getByRole('button', { name: 'Reach Out To Resident' }).isDisabled()).resolves.toBe(true);
    await sheet.getByText("Not called: the resident asked not to be called on any of this home's numbers.").waitFor();
    await screenshot(page, 'call-sheet-do-not-call');
    await expectNoSeriousA11yViolations(page, 'the call sheet with a do-not-call phone');
    await sheet.getByRole('button', { name: 'Close' }).first().click();
    await sheet.waitFor({ state: 'detached' });
    expect(
      await env.app.server.admin
        .collection('calls')
        .getFullList({ filter: env.app.server.admin.filter('house = {:h}', { h: house.id }) }),
    ).toHaveLength(0);
  });

  test('quiet hours set on the Concerns screen: the call asks with the local time, is placed on a yes, waits for their end until the director cancels the retries', async () => {
    await navigate(page, 'Concerns');
    await page.getByRole('button', { name: 'Call settings' }).click();
    const settings = await openedDialog(page, 'Call settings');
    const hour = (offset: number) => `${String((new Date().getUTCHours() + offset + 24) % 24).padStart(2, '0')}:00`;
    await settings.getByLabel('From', { exact: true }).fill(hour(-1));
    await settings.getByLabel('To', { exact: true }).fill(hour(2));
    await settings.getByLabel('Time zone', { exact: true }).selectOption('UTC');
    await expectNoSeriousA11yViolations(page, 'Call settings');
    await screenshot(page, 'call-settings');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Success', 'Call settings saved');
    await settings.waitFor({ state: 'detached' });
    expect(await env.app.server.admin.collection('call_settings').getOne(settingsId)).toMatchObject({
      quiet_start: hour(-1),
      quiet_end: hour(2),
      time_zone: 'UTC',
    });

    try {
      const member = HOMES[size].quiet;
      const house = await houseByMember(member);
      const card = await cardOf(page, member);
      await reachOut(page, card);
      const question = page.getByRole('dialog', {
        name: /^It is \d\d:\d\d for the resident, within the community's quiet hours \(\d\d:\d\d–\d\d:\d\d\)\. Call anyway\?$/,
      });
      // The dialog's own box has no size (its panel is fixed): wait for its title.
      await question.getByRole('heading').first().waitFor();
      // The resident's local time (UTC here), give or take the minute that may turn meanwhile.
      const now = new Date();
      const title = await question.getByRole('heading').first().innerText();
      const asked = minutesOf(title.slice(6, 11));
      const utcNow = now.getUTCHours() * 60 + now.getUTCMinutes();
      expect(Math.min(Math.abs(asked - utcNow), 1440 - Math.abs(asked - utcNow))).toBeLessThanOrEqual(1);
      await screenshot(page, 'call-quiet-hours');
      await question.getByRole('button', { name: 'Call anyway' }).click();
      await expectToast(page, 'Success', 'Call placed to the resident');
      const call = await newestCall(house.id);

      // The first try is busy (or unanswered); the retry waits for the end of quiet hours, hours away.
      const [, retry] = await waitUntil(
        'the retry to be scheduled',
        () => attemptsOf(env.app.server, call.id),
        (attempts) => attempts[1]?.state === 'scheduled',
      );
      const notice = card.getByRole('group', { name: 'Notice' });
      const waiting = `${QUIET_FIRST_OUTCOME[size]} — next try ${time(retry!.due_at as string)}`;
      await notice.getByText(waiting, { exact: true }).waitFor({ timeout: 15_000 });
      // Nothing rings now: not 'Call in progress...', and no Last call word beside it.
      await expect(card.getByText('Call in progress...').count()).resolves.toBe(0);
      await expect(card.getByText(/^Last call:/).count()).resolves.toBe(0);
      const cancel = card.getByRole('button', { name: /^Cancel retries of / });
      const box = (await cancel.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(44);
      expect(box.height).toBeGreaterThanOrEqual(44);
      await expectNoOverlap({
        'Cancel retries': cancel,
        Call: card.getByRole('button', { name: /^Call resident of / }),
        'Call history': card.getByRole('button', { name: 'Call history' }),
      });
      await expectNoSeriousA11yViolations(page, 'a card whose call waits for its next try');
      await screenshot(page, 'call-waiting-next-try');

      // The director cancels the retries: the card says how the call ended; the retry is never dialled.
      await cancel.click();
      await expectToast(page, 'Success', 'Retries cancelled');
      await card.getByText(`Last call: ${QUIET_FIRST_OUTCOME[size]}`, { exact: true }).waitFor({ timeout: 15_000 });
      await expect(card.getByText(waiting).count()).resolves.toBe(0);
      await expect(cancel.count()).resolves.toBe(0);
      const cancelled = await env.app.server.admin.collection('calls').getOne(call.id);
      const director = await env.app.server.admin.collection('users').getOne(call.created_by as string);
      expect(cancelled).toMatchObject({ progress: 'done', retries_cancelled_by: director.id });
      expect((await attemptsOf(env.app.server, call.id))[1]).toMatchObject({ state: 'skipped' });

      // 'Call history' says who cancelled and when.
      await card.getByRole('button', { name: 'Call history' }).click();
      const history = await openedDialog(page, 'Call history');
      const entry = history.getByRole('list', { name: 'Calls' }).getByRole('listitem').first();
      await entry
        .getByText(
          `Retries cancelled by ${director.first_name} ${director.last_name} · ${time(cancelled.retries_cancelled_at as string)}`,
        )
        .waitFor();
      await entry.getByText('Not called: the retries were cancelled.').waitFor();
      await screenshot(page, 'call-history-retries-cancelled');
      await history.getByRole('button', { name: 'Close' }).first().click();
      await history.waitFor({ state: 'detached' });

      // The home can be called again.
      await reachOut(page, card);
      await page
        .getByRole('dialog', { name: /^It is \d\d:\d\d for the resident/ })
        .getByRole('button', { name: 'Call anyway' })
        .click();
      await expectToast(page, 'Success', 'Call placed to the resident');
    } finally {
      // The other size's journey calls outside quiet hours.
      await env.app.server.admin
        .collection('call_settings')
        .update(settingsId, { quiet_start: '00:00', quiet_end: '00:00' });
    }
  });
});
