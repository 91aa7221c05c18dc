/**
 * Managing users and concerns (docs/product.md#who-may-do-what) at phone and desktop size: a
 * director adds a user (whose one-time password really signs in), renames
 * and deletes them, and adds, edits and deletes a concern, each change
 * checked on the server; a regular officer sees none of the management
 * controls. axe checks both screens and every form and dialog on the way.
 */
import type { Locator, Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR, DEMO_REGULAR } from '../../scripts/seed/demo-account.ts';
import {
  DEMO_COMMUNITY_IDS,
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

const env = useScreensApp();

const inCommunity = () => env.app.server.admin.filter('community = {:c}', { c: DEMO_COMMUNITY_IDS.primary });
const serverUsers = () => env.app.server.admin.collection('users').getFullList({ filter: inCommunity() });
const serverConcerns = () => env.app.server.admin.collection('concerns').getFullList({ filter: inCommunity() });

async function byField(collection: 'users' | 'concerns', field: string, value: string): Promise<RecordModel[]> {
  return env.app.server.admin
    .collection(collection)
    .getFullList({ filter: env.app.server.admin.filter(`${field} = {:value}`, { value }) });
}

/** Waits for the list's count line ('3 user(s)', '10 concern(s)') to say `count`. */
async function expectCount(page: Page, noun: 'user(s)' | 'concern(s)', count: number): Promise<void> {
  await page.getByText(`${count} ${noun}`, { exact: true }).waitFor();
}

/** Every management control a screen could show: add, and the cards' edit and delete buttons. */
function managementControls(page: Page, add: string): Locator {
  return page.getByRole('main').getByRole('button', { name: new RegExp(`^(${add}|Edit .*|Delete .*)$`) });
}

describe.each(SIZE_NAMES)('at %s size', (size) => {
  describe('a director', () => {
    let sized: SizedPage;
    let page: Page;
    let directorId = '';
    beforeAll(async () => {
      sized = await signedInPage(env.browser, env.app.server.url, size, DEMO_DIRECTOR);
      page = sized.page;
      directorId = (await byField('users', 'email', DEMO_DIRECTOR.email))[0]!.id;
    });
    afterAll(() => sized?.context.close());

    test('adds a user whose temporary password signs in, renames them, and deletes them', async () => {
      const email = `riley.${size}@palmgrove.example`;
      const last = `Tester${size}`;
      await navigate(page, 'Users');
      const before = (await serverUsers()).length;
      await expectCount(page, 'user(s)', before);
      await screenshot(page, 'users');
      await expectNoSeriousA11yViolations(page, 'Users');
      // Add User, an Edit on every card and a Delete on every card but the director's own.
      await expect(managementControls(page, 'Add User').count()).resolves.toBe(1 + before + (before - 1));

      await page.getByRole('button', { name: 'Add User' }).click();
      const add = await openedDialog(page, 'Add User');
      await expectNoSeriousA11yViolations(page, 'the Add User form');
      await add.getByLabel('First name').fill('Riley');
      await add.getByLabel('Last name').fill(last);
      await add.getByLabel('Type').selectOption({ label: 'Regular' });
      await add.getByLabel('Email').fill(email);
      await add.getByRole('button', { name: 'Add User' }).click();

      const shown = await openedDialog(page, 'Temporary password');
      // The result of the Add User sheet shows in the dialog that opens with it (src/ui/toast.tsx).
      await page.getByText('New user added').waitFor();
      const password = (await shown.getByTestId('temporary-password').innerText()).trim();
      expect(password.length).toBeGreaterThanOrEqual(8);
      await expectNoSeriousA11yViolations(page, 'the Temporary password dialog');
      // The password the director hands over really signs in (one sign-in of the 20 a minute).
      const colleague = env.app.server.client();
      const auth = await colleague.collection('users').authWithPassword(email, password);
      expect(auth.record).toMatchObject({
        email,
        first_name: 'Riley',
        last_name: last,
        type: 'regular',
        community: DEMO_COMMUNITY_IDS.primary,
      });
      await shown.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });
      await expectCount(page, 'user(s)', before + 1);
      expect(await byField('users', 'email', email)).toHaveLength(1);

      await page.getByRole('button', { name: `Edit ${last}, Riley` }).click();
      const edit = await openedDialog(page, 'Edit User');
      await expect(edit.getByLabel('First name').inputValue()).resolves.toBe('Riley');
      await expectNoSeriousA11yViolations(page, 'the Edit User form');
      await edit.getByLabel('First name').fill('Jordan');
      await edit.getByRole('button', { name: 'Save' }).click();
      await expectToast(page, 'Success', 'User updated');
      await edit.waitFor({ state: 'detached' });
      await page.getByRole('heading', { name: `${last}, Jordan` }).waitFor();
      await waitUntil(
        'the new name on the server',
        () => byField('users', 'email', email),
        (users) => users[0]?.first_name === 'Jordan',
      );

      await page.getByRole('button', { name: `Delete ${last}, Jordan` }).click();
      const confirm = await openedDialog(page, 'Delete user?');
      await expect(confirm.innerText()).resolves.toContain(email);
      await expectNoSeriousA11yViolations(page, 'the Delete user confirmation');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expectToast(page, 'Success', 'User deleted');
      await confirm.waitFor({ state: 'detached' });
      await expectCount(page, 'user(s)', before);
      await expect(page.getByRole('heading', { name: `${last}, Jordan` }).count()).resolves.toBe(0);
      expect(await byField('users', 'email', email)).toHaveLength(0);
    });

    test('adds a concern, edits it and deletes it', async () => {
      const name = `Hose left running ${size}`;
      const say = 'A garden hose at your home was left running. Please turn it off when you can.';
      await navigate(page, 'Concerns');
      const before = (await serverConcerns()).length;
      await expectCount(page, 'concern(s)', before);
      await screenshot(page, 'concerns');
      await expectNoSeriousA11yViolations(page, 'Concerns');
      await expect(managementControls(page, 'Add Concern').count()).resolves.toBe(1 + 2 * before);

      await page.getByRole('button', { name: 'Add Concern' }).click();
      const add = await openedDialog(page, 'Add Concern');
      await expectNoSeriousA11yViolations(page, 'the Add Concern form');
      await add.getByLabel('Name').fill(name);
      await add.getByLabel('Hint').fill('Garden hose running at the front of the home');
      await add.getByLabel('What the call says').fill(say);
      await add.getByRole('button', { name: 'Add Concern' }).click();
      await expectToast(page, 'Success', 'Concern successfully created');
      await add.waitFor({ state: 'detached' });
      await expectCount(page, 'concern(s)', before + 1);
      const [created] = await byField('concerns', 'name', name);
      expect(created).toMatchObject({
        hint: 'Garden hose running at the front of the home',
        added_by: directorId,
        community: DEMO_COMMUNITY_IDS.primary,
      });
      expect(created?.say).toContain(say);

      await page.getByRole('button', { name: `Edit ${name}` }).click();
      const edit = await openedDialog(page, 'Edit Concern');
      await expect(edit.getByLabel('Name').inputValue()).resolves.toBe(name);
      await expectNoSeriousA11yViolations(page, 'the Edit Concern form');
      await edit.getByLabel('Hint').fill('Hose running by the driveway');
      await edit.getByRole('button', { name: 'Save' }).click();
      await expectToast(page, 'Success', 'Concern successfully updated');
      await edit.waitFor({ state: 'detached' });
      await page.getByText('Hose running by the driveway').waitFor();
      await waitUntil(
        'the new hint on the server',
        () => byField('concerns', 'name', name),
        (concerns) => concerns[0]?.hint === 'Hose running by the driveway',
      );

      await page.getByRole('button', { name: `Delete ${name}` }).click();
      const confirm = await openedDialog(page, 'Delete concern?');
      await expectNoSeriousA11yViolations(page, 'the Delete concern confirmation');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expectToast(page, 'Success', 'Concern deleted');
      await confirm.waitFor({ state: 'detached' });
      await expectCount(page, 'concern(s)', before);
      expect(await byField('concerns', 'name', name)).toHaveLength(0);
    });
  });

  describe('a regular officer', () => {
    let sized: SizedPage;
    beforeAll(async () => {
      sized = await signedInPage(env.browser, env.app.server.url, size, DEMO_REGULAR);
    });
    afterAll(() => sized?.context.close());

    test('sees the users and the concerns but no control to manage them', async () => {
      const { page } = sized;
      await navigate(page, 'Users');
      const users = await serverUsers();
      await expectCount(page, 'user(s)', users.length);
      // The cards are there (the absence below is not an empty list)...
      await expect(page.getByRole('main').getByRole('heading', { level: 2 }).count()).resolves.toBe(users.length);
      // ...without Add User, Edit or Delete.
      await expect(managementControls(page, 'Add User').count()).resolves.toBe(0);
      await expectNoSeriousA11yViolations(page, "Users (a regular officer's)");

      await navigate(page, 'Concerns');
      const concerns = await serverConcerns();
      await expectCount(page, 'concern(s)', concerns.length);
      await expect(page.getByRole('main').getByRole('heading', { level: 2 }).count()).resolves.toBe(concerns.length);
      await expect(managementControls(page, 'Add Concern').count()).resolves.toBe(0);
      await expectNoSeriousA11yViolations(page, "Concerns (a regular officer's)");
    });
  });
});
