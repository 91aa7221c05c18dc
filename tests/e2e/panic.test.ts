/**
 * Officer safety in Chromium against a real PocketBase, in the demo
 * community and in a large one (2,000 homes), with two browsers: an officer
 * on a phone and a manager at a desk whose app stays open on Homes.
 *
 * The officer starts a shift from the menu; presses Panic and cancels in
 * the countdown (nothing reaches the server); presses Panic again and lets
 * it go: the manager's open app shows the alarm (the time from the alert's
 * arrival on the server to the banner is printed), the manager responds,
 * the officer sees who responds and says they are safe, and both banners
 * go. Then offline: Panic offers the emergency call at once, the alert
 * waits on the phone, reaches the server and the manager once the phone is
 * back online, and the manager resolves it. The server holds each step once.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { DEMO_MANAGER, DEMO_REGULAR, type DemoAccount } from '../../scripts/seed/demo-account.ts';
import type { TestServer } from '../support/pocketbase.ts';
import { startLargeCommunity } from './large-community.ts';
import { startDemoServer } from './pwa-helpers.ts';
import { HERE, located, navArea, navigate, screenshot, signedInPage, waitUntil } from './screens-helpers.ts';

/** Sync steps wait longer than a click: two cores run the server, two browsers and the test. */
const SYNCED_MS = 60_000;

interface Community {
  server: TestServer;
  manager: DemoAccount;
  officer: DemoAccount;
  label: string;
}

let desk: Browser;
let phone: Browser;
beforeAll(async () => {
  desk = await launchChromium();
  phone = await launchChromium();
});
afterAll(async () => {
  await desk?.close();
  await phone?.close();
});

async function userNamed(server: TestServer, email: string): Promise<{ id: string; name: string }> {
  const user = await server.admin
    .collection('users')
    .getFirstListItem(server.admin.filter('email = {:e}', { e: email }));
  return { id: user.id, name: `${user.first_name} ${user.last_name}`.trim() };
}

async function alertsOf(server: TestServer, officer: string) {
  return server.admin
    .collection('alerts')
    .getFullList({ filter: server.admin.filter('officer = {:o}', { o: officer }), sort: 'created' });
}

/** Presses Panic and waits for the countdown. */
async function pressPanic(page: Page) {
  await page.getByRole('button', { name: 'Panic', exact: true }).click();
  const countdown = page.getByRole('dialog');
  await countdown.getByText(/Sending your alert in \d…/).waitFor();
  return countdown;
}

async function journey(community: Community): Promise<void> {
  const { server, label } = community;
  const officerUser = await userNamed(server, community.officer.email);
  const managerUser = await userNamed(server, community.manager.email);
  const before = (await alertsOf(server, officerUser.id)).length;

  const manager = await signedInPage(desk, server.url, 'desktop', community.manager);
  const mpage = manager.page;
  const officer = await located(await signedInPage(phone, server.url, 'phone', community.officer), server.url);
  const page = officer.page;

  // ---- a shift, from the menu -------------------------------------------------------------------------------
  const menu = await navArea(page);
  await menu.getByRole('button', { name: 'Start shift' }).click();
  await page.getByText('Shift started').waitFor();
  const shifts = await waitUntil(
    'the shift on the server',
    () =>
      server.admin
        .collection('duty_shifts')
        .getFullList({ filter: server.admin.filter('officer = {:o} && ended_at = ""', { o: officerUser.id }) }),
    (list) => list.length === 1,
    SYNCED_MS,
  );
  expect(shifts[0]!.start_position).toMatchObject({ latitude: HERE.latitude, longitude: HERE.longitude });

  // ---- the lone-worker check: due, 'Are you OK?', answered ------------------------------------------------------
  const communityId = shifts[0]!.community as string;
  const saved = await server.admin
    .collection('safety_settings')
    .getFullList({ filter: server.admin.filter('community = {:c}', { c: communityId }) });
  const checks = { check_minutes: 15, check_grace_minutes: 5, shift_limit_hours: 14 };
  if (saved[0]) await server.admin.collection('safety_settings').update(saved[0].id, checks);
  else await server.admin.collection('safety_settings').create({ community: communityId, ...checks });
  // The shift began 16 minutes ago: its first check is due, its grace not yet gone.
  await server.admin
    .collection('duty_shifts')
    .update(shifts[0]!.id, { started_at: new Date(Date.now() - 16 * 60_000).toISOString().replace('T', ' ') });
  const prompt = page.getByRole('region', { name: 'Are you OK?' });
  await prompt.waitFor({ timeout: SYNCED_MS });
  await screenshot(page, `check-in-due-${label}`);
  await prompt.getByRole('button', { name: "I'm OK" }).click();
  await prompt.waitFor({ state: 'detached' });
  await waitUntil(
    'the answer on the server',
    () => server.admin.collection('duty_shifts').getOne(shifts[0]!.id),
    (record) => record.checked_at !== '',
    SYNCED_MS,
  );
  // No check for the rest of the journey.
  await server.admin
    .collection('safety_settings')
    .update(
      (
        await server.admin
          .collection('safety_settings')
          .getFirstListItem(server.admin.filter('community = {:c}', { c: communityId }))
      ).id,
      { check_minutes: 0 },
    );

  // ---- Cancel in the countdown sends nothing ------------------------------------------------------------------
  const cancelled = await pressPanic(page);
  await screenshot(page, `panic-countdown-${community.label}`);
  await cancelled.getByRole('button', { name: 'Cancel' }).click();
  await cancelled.waitFor({ state: 'detached' });
  // Longer than the countdown: had it gone on, the alert would be queued by now.
  await page.waitForTimeout(6_500);
  expect(await page.evaluate(() => document.querySelectorAll('[data-alert]').length)).toBe(0);
  expect((await alertsOf(server, officerUser.id)).length).toBe(before);

  // ---- Panic online: the manager's open app rings, responds; the officer sees it and is safe ----------------
  const countdown = await pressPanic(page);
  await countdown.getByText('Your alert is sent. Help is being called.').waitFor({ timeout: SYNCED_MS });
  const raised = await waitUntil(
    'the alert on the server',
    () => alertsOf(server, officerUser.id),
    (list) => list.length === before + 1,
    SYNCED_MS,
  );
  const onServerAt = Date.now();
  const alert = raised[raised.length - 1]!;
  expect([alert.kind, alert.shift, alert.ended_at]).toEqual(['panic', shifts[0]!.id, '']);
  expect(alert.position).toMatchObject({ latitude: HERE.latitude, longitude: HERE.longitude });
  const banner = mpage.getByRole('region', { name: `Panic: ${officerUser.name}` });
  await banner.waitFor({ timeout: SYNCED_MS });
  const latency = Date.now() - onServerAt;
  console.log(`[${community.label}] alert on the server → the manager's banner: ${latency} ms`);
  // Realtime carries it: the banner follows the server within 2 s (the 60 s above only bounds a stuck run).
  expect(latency).toBeLessThan(2_000);
  await expect(banner.getByRole('link', { name: 'Map' }).getAttribute('href')).resolves.toContain('26.934200');
  await screenshot(mpage, `panic-alarm-manager-${community.label}`);
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  await banner.getByRole('button', { name: "I'm responding" }).click();
  await banner.getByText('You are responding').waitFor();
  const own = page.getByRole('region', { name: `Panic: ${officerUser.name}` });
  await own.getByText(`Responding: ${managerUser.name}`).waitFor({ timeout: SYNCED_MS });
  await screenshot(page, `panic-responding-${community.label}`);
  await own.getByRole('button', { name: "I'm safe" }).click();
  // The server ends the alert; the banner goes when that change comes back.
  await own.waitFor({ state: 'detached', timeout: SYNCED_MS });
  await banner.waitFor({ state: 'detached', timeout: SYNCED_MS });
  const ended = await waitUntil(
    'the alert ended on the server',
    () => server.admin.collection('alerts').getOne(alert.id),
    (record) => record.ended_at !== '',
    SYNCED_MS,
  );
  expect([ended.end_kind, ended.ended_by]).toEqual(['safe', officerUser.id]);
  const steps = await server.admin
    .collection('alert_events')
    .getFullList({ filter: server.admin.filter('alert = {:a}', { a: alert.id }), sort: 'at' });
  expect(steps.map((s) => [s.kind, s.by])).toEqual([
    ['responding', managerUser.id],
    ['safe', officerUser.id],
  ]);

  // ---- Panic offline: the emergency call at once, the alert when the phone is back ----------------------------
  await officer.context.setOffline(true);
  // The badge follows the browser's offline event; on a loaded machine its re-render can take more than a click's 10 s.
  await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor({ timeout: SYNCED_MS });
  const offline = await pressPanic(page);
  await offline.getByText(/No connection. Your alert is saved/).waitFor({ timeout: SYNCED_MS });
  const call = offline.getByRole('link', { name: /^Call / });
  expect(await call.getAttribute('href')).toMatch(/^tel:\+?\d+$/);
  await screenshot(page, `panic-offline-${community.label}`);
  expect((await alertsOf(server, officerUser.id)).length).toBe(before + 1);
  await officer.context.setOffline(false);
  const queued = await waitUntil(
    'the queued alert on the server',
    () => alertsOf(server, officerUser.id),
    (list) => list.length === before + 2,
    SYNCED_MS,
  );
  await offline.getByText('Your alert is sent. Help is being called.').waitFor({ timeout: SYNCED_MS });
  const late = mpage.getByRole('region', { name: `Panic: ${officerUser.name}` });
  await late.waitFor({ timeout: SYNCED_MS });
  await late.getByRole('button', { name: 'Resolved' }).click();
  await late.waitFor({ state: 'detached', timeout: SYNCED_MS });
  const resolved = await waitUntil(
    'the late alert resolved on the server',
    () => server.admin.collection('alerts').getOne(queued[queued.length - 1]!.id),
    (record) => record.ended_at !== '',
    SYNCED_MS,
  );
  expect([resolved.end_kind, resolved.ended_by]).toEqual(['resolved', managerUser.id]);
  // Once each, whatever the reconnects replayed.
  expect((await alertsOf(server, officerUser.id)).length).toBe(before + 2);

  // The manager's Safety screen: who is on duty, and the alerts with their steps.
  await navigate(mpage, 'Safety');
  await mpage.locator(`[data-on-duty="${officerUser.id}"]`).waitFor({ timeout: SYNCED_MS });
  await mpage
    .locator(`[data-alert-item="${alert.id}"]`)
    .getByText(`${managerUser.name} responding`)
    .waitFor({ timeout: SYNCED_MS });
  await screenshot(mpage, `safety-manager-${community.label}`);
  await officer.context.close();
  await manager.context.close();
}

describe('in the demo community', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  test('a shift, a cancelled panic, a panic answered and ended, a panic sent after reconnecting', async () => {
    await journey({ server, manager: DEMO_MANAGER, officer: DEMO_REGULAR, label: 'demo' });
  });
});

describe('in a community of 2,000 homes', () => {
  let community: Community;
  beforeAll(async () => {
    community = { ...(await startLargeCommunity('large-safety')), label: 'large' };
  });
  afterAll(async () => {
    await community?.server.stop();
  });

  test('the same journey, with a large mirror on both', async () => {
    await journey(community);
  });
});
