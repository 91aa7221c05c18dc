/**
 * Own passwords in the built app against a real PocketBase, at
 * phone and desktop size: a director adds a user and logs out; the new user
 * logs in with the temporary password (four groups, easy to read out) and
 * must choose their own before anything else, without typing the temporary
 * one again (offline, the screen says a connection is needed), then
 * lands on Homes and can change it again from the menu; the director resets
 * it and sees the new one-time password, and the old session is void;
 * left unused past its time it stops working, the card and the log in say so.
 * 'Forgot password?' on the login page says to ask the director when the
 * server has no mail, and with mail (a local SMTP sink) sends the reset
 * e-mail whose link sets a new password. Screenshots of each new screen,
 * online and offline.
 */
import type { Page } from 'playwright-core';
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import { parsePbDate, pbDate } from '../../src/domain/pbDate.ts';
import { TEMPORARY_PASSWORD_ALPHABET, TEMPORARY_PASSWORD_EXPIRED } from '../../src/domain/temporaryPassword.ts';
import { createCommunity, startTestServer, type CommunityFixture, type TestServer } from '../support/pocketbase.ts';
import { decodedMail, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { distDir, idb, signedInUserId, waitForFirstSync } from './pwa-helpers.ts';
import {
  expectNoSeriousA11yViolations,
  expectToast,
  navArea,
  navigate,
  openedDialog,
  screenshot,
  sizedContext,
  SIZE_NAMES,
  useScreensApp,
  waitUntil,
} from './screens-helpers.ts';

const env = useScreensApp();

const GROUP = `[${TEMPORARY_PASSWORD_ALPHABET}]{4}`;
const TEMPORARY_PASSWORD_SHAPE = new RegExp(`^${GROUP}-${GROUP}-${GROUP}-${GROUP}$`);

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(env.app.server.url);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

async function logOut(page: Page): Promise<void> {
  const area = await navArea(page);
  await area.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Log in to manage your community' }).waitFor();
}

/** The Users screen's card of this user (its list item). */
const userCard = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });

const serverUser = async (email: string) =>
  (
    await env.app.server.admin
      .collection('users')
      .getFullList({ filter: env.app.server.admin.filter('email = {:email}', { email }) })
  )[0];
/**
 * What the page's live connection and pulls of users did, kept so that a
 * wait for a change the server pushes can say, when it fails, whether the
 * connection was cut, came back, and what was pulled after (the last 40 lines).
 */
function liveLog(page: Page): { note: (what: string) => void; text: () => string } {
  const started = Date.now();
  const lines: string[] = [];
  const note = (what: string) => lines.push(`${((Date.now() - started) / 1000).toFixed(2)} s ${what}`);
  const watched = (url: string) => /\/api\/(realtime|collections\/users\/)/.test(url);
  const short = (url: string) => new URL(url).pathname + (new URL(url).search ? ' (query)' : '');
  page.on('request', (r) => watched(r.url()) && note(`${r.method()} ${short(r.url())}`));
  page.on('response', (r) => watched(r.url()) && note(`${r.status()} ${short(r.url())}`));
  page.on('requestfailed', (r) => watched(r.url()) && note(`failed ${short(r.url())}: ${r.failure()?.errorText}`));
  page.on('console', (m) => m.type() === 'error' && note(`console: ${m.text().slice(0, 200)}`));
  return { note, text: () => lines.slice(-40).join('\n') };
}

const savedToken = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('pocketbase_auth') ?? '{}') as { token?: string }).token ?? '');

describe.each(SIZE_NAMES)('at %s size', (size) => {
  test('a new user must choose a password at the first log in; the director resets it', async () => {
    const context = await sizedContext(env.browser, size);
    const page = await context.newPage();
    const live = liveLog(page);
    try {
      // The director adds a colleague and is shown the temporary password once.
      await logIn(page, DEMO_DIRECTOR.email, DEMO_DIRECTOR.password);
      await page.getByRole('heading', { name: 'Homes' }).waitFor();
      const email = `sam.${size}@palmgrove.example`;
      const last = `Newhire${size}`;
      await navigate(page, 'Users');
      await page.getByRole('button', { name: 'Add User' }).click();
      const add = await openedDialog(page, 'Add User');
      await add.getByLabel('First name').fill('Sam');
      await add.getByLabel('Last name').fill(last);
      await add.getByLabel('Type').selectOption({ label: 'Regular' });
      await add.getByLabel('Email').fill(email);
      await add.getByRole('button', { name: 'Add User' }).click();
      const shown = await openedDialog(page, 'Temporary password');
      const temporary = (await shown.getByTestId('temporary-password').innerText()).trim();
      // Four groups of lowercase letters and digits, none read or typed for another.
      expect(temporary).toMatch(TEMPORARY_PASSWORD_SHAPE);
      await screenshot(page, 'password-temporary-shown');
      // It says until when it works (72 hours by default), as the server set it.
      const expires = parsePbDate(String((await serverUser(email))?.temporary_password_expires))!;
      await shown.getByText(/^It works until [A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2}\.$/).waitFor();
      expect(expires.getTime()).toBeGreaterThan(Date.now() + 71 * 3600_000);
      await shown.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });
      // The director sees that this colleague still has the temporary password.
      await userCard(page, `${last}, Sam`).getByText('Temporary password', { exact: true }).waitFor();
      await logOut(page);

      // The colleague logs in with it: the password change comes first, on any route.
      await logIn(page, email, temporary);
      await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      await page.goto(`${env.app.server.url}/reports`);
      await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Reports' }).count()).toBe(0);
      await screenshot(page, 'password-first-login');
      await expectNoSeriousA11yViolations(page, 'the first-login password screen');

      await context.setOffline(true);
      await page.getByText('You are offline — setting a new password needs a connection.').waitFor();
      await expect(page.getByRole('button', { name: 'Change password' }).isDisabled()).resolves.toBe(true);
      await screenshot(page, 'password-first-login-offline');
      await context.setOffline(false);
      await page
        .getByText('You are offline — setting a new password needs a connection.')
        .waitFor({ state: 'detached' });

      // The temporary password is not asked again (the session proves it): the new one only.
      expect(await page.getByLabel('Temporary password').count()).toBe(0);
      expect(await page.getByLabel('Current password').count()).toBe(0);
      // The form's own rules first, then the server's answer to keeping the temporary password.
      const newPassword = `Sams-own-${size}-1`;
      await page.getByLabel('New password', { exact: true }).fill('short');
      await page.getByLabel('Confirm new password').fill('shorter');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password must be between 8 and 24 characters').waitFor();
      await page.getByText('Passwords do not match').waitFor();
      await page.getByLabel('New password', { exact: true }).fill(temporary);
      await page.getByLabel('Confirm new password').fill(temporary);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('password: Choose a password different from the current one.').waitFor();
      expect((await serverUser(email))?.must_change_password).toBe(true);

      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('Confirm new password').fill(newPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('heading', { name: 'Homes', level: 1 }).waitFor();
      await expectToast(page, 'Success', 'Password changed');
      expect(new URL(page.url()).pathname).toBe('/homes');
      expect((await serverUser(email))?.must_change_password).toBe(false);
      // Still signed in, on a token of the new password: the mirror fills.
      const userId = (await serverUser(email))!.id;
      await waitForFirstSync(page, userId);

      // Later changes go through the menu (the toast dismissed first, so the sheet's screenshot shows only the sheet).
      await page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('button', { name: 'Close' }).click();
      await (await navArea(page)).getByRole('button', { name: 'Change password' }).click();
      const sheet = await openedDialog(page, 'Change password');
      // The form's code loads on the first opening (Layout.tsx).
      await sheet.getByLabel('Current password').waitFor({ state: 'visible', timeout: 30_000 });
      await screenshot(page, 'password-change');
      await expectNoSeriousA11yViolations(page, 'the Change password sheet');
      await context.setOffline(true);
      await sheet.getByText('You are offline — setting a new password needs a connection.').waitFor();
      await screenshot(page, 'password-change-offline');
      await context.setOffline(false);
      await sheet.getByRole('button', { name: 'Close' }).first().click();
      await sheet.waitFor({ state: 'detached' });

      const oldSession = await savedToken(page);
      await logOut(page);

      // The director resets it: a new one-time password, the old sessions end.
      await logIn(page, DEMO_DIRECTOR.email, DEMO_DIRECTOR.password);
      await page.getByRole('heading', { name: 'Homes' }).waitFor();
      await navigate(page, 'Users');
      // Their own password now: no badge.
      await userCard(page, `${last}, Sam`).waitFor();
      expect(await userCard(page, `${last}, Sam`).getByText('Temporary password', { exact: true }).count()).toBe(0);
      await page.getByRole('button', { name: `Reset password of ${last}, Sam` }).click();
      const confirm = await openedDialog(page, 'Reset password?');
      await expect(confirm.innerText()).resolves.toContain(email);
      await screenshot(page, 'password-reset-confirm');
      await expectNoSeriousA11yViolations(page, 'the Reset password confirmation');
      await confirm.getByRole('button', { name: 'Reset password' }).click();
      const reset = await openedDialog(page, 'Temporary password');
      await page.getByText('Password reset').waitFor();
      const resetPassword = (await reset.getByTestId('temporary-password').innerText()).trim();
      expect(resetPassword).toMatch(TEMPORARY_PASSWORD_SHAPE);
      expect(resetPassword).not.toBe(temporary);
      await screenshot(page, 'password-reset-shown');
      await reset.getByRole('button', { name: 'Done' }).click();
      await reset.waitFor({ state: 'detached' });
      await waitUntil(
        'the flag on the server',
        () => serverUser(email),
        (user) => user?.must_change_password === true,
      );
      await userCard(page, `${last}, Sam`).getByText('Temporary password', { exact: true }).waitFor();
      // The session of the password the user chose is over.
      const stale = new PocketBase(env.app.server.url);
      stale.authStore.save(oldSession, null);
      await expect(stale.collection('users').authRefresh()).rejects.toMatchObject({ status: 401 });

      // Offline, the director's reset button is disabled with the reason.
      await context.setOffline(true);
      await expect(page.getByRole('button', { name: `Reset password of ${last}, Sam` }).isDisabled()).resolves.toBe(
        true,
      );
      await context.setOffline(false);
      live.note('back online');

      // Left unused past its time, the temporary password stops working: the
      // director's card says so, and the log in says why.
      await env.app.server.admin.collection('users').update(userId, {
        temporary_password_expires: pbDate(new Date(Date.now() - 60_000)),
      });
      live.note('expiry changed on the server');
      // It arrives live, or by the pull after the live connection comes back if going offline cut it.
      await userCard(page, `${last}, Sam`)
        .getByText('Temporary password expired', { exact: true })
        .waitFor({ timeout: 30_000 })
        .catch(async (error: unknown) => {
          // Whether the change reached the mirror (and the card did not show it) or never arrived.
          const mirrored = await idb<Record<string, unknown> | undefined>(
            page,
            `scms-${await signedInUserId(page)}`,
            'users',
            'get',
            userId,
          ).catch((reason: unknown) => String(reason));
          const held = JSON.stringify(mirrored, ['must_change_password', 'temporary_password_expires', 'updated']);
          throw new Error(
            `the card never said it expired; the page's clock ${new Date(await page.evaluate(() => Date.now())).toISOString()}, ` +
              `the mirror holds ${held}; the live connection and pulls:\n${live.text()}`,
            { cause: error },
          );
        });
      await screenshot(page, 'password-temporary-expired-card');
      await logOut(page);
      await logIn(page, email, resetPassword);
      const refusal = page.getByRole('alert').filter({ hasText: 'Error authenticating' });
      await refusal.getByText(TEMPORARY_PASSWORD_EXPIRED).waitFor();
      await screenshot(page, 'password-temporary-expired-login');
      // A wrong password still gets the plain banner.
      await page.getByLabel('Password', { exact: true }).fill('not-the-password-1');
      await page.getByRole('button', { name: 'Login' }).click();
      await waitUntil(
        'the plain banner',
        () => refusal.innerText(),
        (text) => text.trim() === 'Error authenticating',
      );
    } finally {
      await context.close();
    }
  });

  test("'Forgot password?' without mail says to ask the director; offline it says a connection is needed", async () => {
    const context = await sizedContext(env.browser, size);
    const page = await context.newPage();
    try {
      await page.goto(env.app.server.url);
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      await page.getByText('Ask your director to reset your password.', { exact: false }).waitFor();
      await screenshot(page, 'forgot-password');
      await expectNoSeriousA11yViolations(page, 'the login page with Forgot password');
      await page.reload();
      await page.getByRole('button', { name: 'Forgot password?' }).waitFor();
      await context.setOffline(true);
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      await page.getByText('You are offline — resetting a password needs a connection.').waitFor();
      await screenshot(page, 'forgot-password-offline');
      // Back online, asking again works.
      await context.setOffline(false);
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      await page.getByText('Ask your director to reset your password.', { exact: false }).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('with mail configured', () => {
  let mailServer: TestServer;
  let sink: SmtpSink;
  let c: CommunityFixture;
  beforeAll(async () => {
    sink = await startSmtpSink();
    mailServer = await startTestServer(
      { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(sink.port), SMTP_SENDER: 'patrol@scms.test' },
      { publicDir: distDir },
    );
    c = await createCommunity(mailServer.admin, 'mailjourney');
  });
  afterAll(async () => {
    await mailServer?.stop();
    await sink?.stop();
  });

  describe.each(SIZE_NAMES)('at %s size', (size) => {
    test("'Forgot password?' sends the reset e-mail; its link sets a new password that logs in", async () => {
      const account = size === 'phone' ? c.regular : c.manager;
      const context = await sizedContext(env.browser, size);
      const page = await context.newPage();
      try {
        await page.goto(mailServer.url);
        await page.getByLabel('Email', { exact: true }).fill(account.email);
        await page.getByRole('button', { name: 'Forgot password?' }).click();
        // The address typed for the login is offered for the link.
        const field = page.getByLabel('Email for the reset link');
        await expect(field.inputValue()).resolves.toBe(account.email);
        await screenshot(page, 'forgot-password-mail');
        await expectNoSeriousA11yViolations(page, 'the login page with the reset e-mail form');
        const before = sink.messages.length;
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await page
          .getByText(
            `If ${account.email} belongs to an account, an e-mail with a link to reset the password is on its way.`,
            { exact: false },
          )
          .waitFor();
        await screenshot(page, 'forgot-password-sent');
        const mail = await sink.next(before);
        expect(mail.to).toEqual([account.email]);
        const token = /confirm-password-reset\/([\w.-]+)/.exec(decodedMail(mail.raw))?.[1];
        expect(token).toBeTruthy();

        // The link's page (PocketBase's own) sets the new password.
        const newPassword = `Reset-by-mail-${size}`;
        await page.goto(`${mailServer.url}/_/#/auth/confirm-password-reset/${token}`);
        await page.getByLabel('New password', { exact: false }).first().fill(newPassword);
        await page.getByLabel('New password confirm', { exact: false }).fill(newPassword);
        await page.getByRole('button', { name: /Set new password/i }).click();
        await waitUntil(
          'the new password to log in',
          () =>
            mailServer
              .client()
              .collection('users')
              .authWithPassword(account.email, newPassword)
              .then(
                () => true,
                () => false,
              ),
          (ok) => ok,
        );

        // An unknown address gets the same words, and no e-mail.
        await page.goto(mailServer.url);
        await page.getByRole('button', { name: 'Forgot password?' }).click();
        await page.getByLabel('Email for the reset link').fill('nobody.here@scms.test');
        const count = sink.messages.length;
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await page
          .getByText(
            'If nobody.here@scms.test belongs to an account, an e-mail with a link to reset the password is on its way.',
            { exact: false },
          )
          .waitFor();
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(sink.messages.length).toBe(count);
      } finally {
        await context.close();
      }
    });
  });
});
