/**
 * Layout journeys at a phone and a desktop size, measured with
 * bounding boxes: a toast inside a sheet covers neither its title, its Close
 * button nor its main button; a long sheet keeps its title and Close button
 * in view when scrolled to the bottom; the reports search box shows its
 * whole placeholder. And the date picker's caption (month and year
 * dropdowns, previous and next month) with other fonts and at 200 % zoom.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_DIRECTOR } from '../../scripts/seed/demo-account.ts';
import { saveScreenshot, signedInUserId, signIn, waitForFirstSync } from './pwa-helpers.ts';
import { expectInViewport, expectNoOverlap } from './layout-helpers.ts';
import {
  expectToast,
  navigate,
  openedDialog,
  screenshot,
  signedInPage,
  SIZE_NAMES,
  SIZES,
  useScreensApp,
  type SizedPage,
} from './screens-helpers.ts';

const env = useScreensApp();

const SEARCH_PLACEHOLDER = 'Address, type, resident, member number, etc...';
const LIMIT_MESSAGE = 'Limit Exceeded: Only three concerns can be selected at a time.';

/** A demo home with a primary phone (so it can be called), as its member number. */
async function callableHome(): Promise<string> {
  const admin = env.app.server.admin;
  const phone = await admin.collection('phones').getFirstListItem('primary = true', { expand: 'house' });
  return String(phone.expand?.house?.member_number);
}

async function onlyCard(page: Page, memberNumber: string): Promise<Locator> {
  await page.getByLabel('Search homes').fill(memberNumber);
  const card = page.getByRole('article');
  await expect.poll(() => card.count()).toBe(1);
  return card;
}

describe.each(SIZE_NAMES)('at %s size', (size) => {
  let sized: SizedPage;
  let page: Page;
  beforeAll(async () => {
    sized = await signedInPage(env.browser, env.app.server.url, size, DEMO_DIRECTOR);
    page = sized.page;
  });
  afterAll(() => sized?.context.close());

  test('a toast inside the Select concerns sheet covers neither its title, its Close button nor its main button', async () => {
    const card = await onlyCard(page, await callableHome());
    await card.getByRole('button', { name: /^Call resident of / }).click();
    const sheet = await openedDialog(page, 'Select concerns');
    await sheet.getByRole('list', { name: 'Concerns' }).waitFor();
    for (const name of ['Garage door open', 'Water leak', 'Car lights on'])
      await sheet.getByRole('checkbox', { name }).check();
    await sheet.getByRole('checkbox', { name: 'Pet loose' }).click();
    await expectToast(page, 'Fail', LIMIT_MESSAGE);
    await screenshot(page, 'layout-sheet-toast');
    await expectNoOverlap({
      toast: page.getByRole('alert').filter({ hasText: LIMIT_MESSAGE }),
      title: sheet.getByRole('heading', { name: 'Select concerns' }),
      Close: sheet.getByRole('button', { name: 'Close', exact: true }).first(),
      'Reach Out To Resident': sheet.getByRole('button', { name: 'Reach Out To Resident' }),
    });
    await expectInViewport(page, sheet.getByRole('heading', { name: 'Select concerns' }), 'the sheet title');
    await sheet.getByRole('button', { name: 'Close', exact: true }).first().click();
    await sheet.waitFor({ state: 'detached' });
  });

  test("the phone's menu has a Close button a thumb can hit (a desktop has no menu to close)", async () => {
    if (size === 'desktop') {
      expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
      return;
    }
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    const close = drawer.getByRole('button', { name: 'Close menu' });
    const box = await close.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(44);
    expect(box!.height).toBeGreaterThanOrEqual(44);
    await screenshot(page, 'layout-menu');
    await close.click();
    await drawer.waitFor({ state: 'detached' });
  });

  test('a long sheet scrolled to the bottom keeps its title and Close button in view', async () => {
    const card = page.getByRole('article').first();
    await card.getByRole('button', { name: /^Edit / }).click();
    const sheet = await openedDialog(page, 'Update Home');
    const title = sheet.getByRole('heading', { name: 'Update Home' });
    // The sheet's own, not a toast's (the previous journey's may still show).
    const close = sheet.getByRole('button', { name: 'Close', exact: true }).first();
    const submit = sheet.getByRole('button', { name: 'Update Home' });
    // Scroll the sheet as a finger or a wheel does, well past its end.
    const titleBox = (await title.boundingBox())!;
    await page.mouse.move(titleBox.x + 20, (page.viewportSize()!.height + titleBox.y) / 2);
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, 1_000);
    await expect.poll(async () => (await submit.boundingBox())?.y ?? -1).toBeGreaterThan(0);
    await expectInViewport(page, submit, 'Update Home (the bottom of the sheet)');
    await screenshot(page, 'layout-sheet-scrolled');
    await expectInViewport(page, title, 'the sheet title');
    await expectInViewport(page, close, 'the Close button');
    await expect(title.isVisible()).resolves.toBe(true);
    // Not covered by the body that scrolled under it: Close is what a tap at its centre reaches.
    const closeBox = (await close.boundingBox())!;
    const reached = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.getAttribute('aria-label'),
      [closeBox.x + closeBox.width / 2, closeBox.y + closeBox.height / 2],
    );
    expect(reached).toBe('Close');
    await close.click();
    await sheet.waitFor({ state: 'detached' });
  });

  test('the reports search box shows its whole placeholder', async () => {
    await navigate(page, 'Reports');
    const search = page.getByRole('searchbox', { name: 'Search reports' });
    await expect(search.getAttribute('placeholder')).resolves.toBe(SEARCH_PLACEHOLDER);
    await screenshot(page, 'layout-reports-search');
    const fit = await search.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const contentWidth = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      // The browser's own placeholder, unless made invisible (a wrapping copy is drawn over the box instead).
      const placeholderColour = getComputedStyle(input, '::placeholder').color;
      const nativeShown = !/rgba\(.*,\s*0\)$|transparent/.test(placeholderColour);
      // Whatever else on screen shows the placeholder's words over the box.
      const box = input.getBoundingClientRect();
      const drawn = [...document.querySelectorAll('body *')]
        .filter((el) => el !== input && el.children.length === 0 && el.textContent === input.placeholder)
        .map((el) => {
          const r = el.getBoundingClientRect();
          return {
            visible: getComputedStyle(el).visibility === 'visible' && r.width > 0,
            inside:
              r.left >= box.left - 0.5 &&
              r.right <= box.right + 0.5 &&
              r.top >= box.top - 0.5 &&
              r.bottom <= box.bottom + 0.5,
            overflows: el.scrollWidth > el.clientWidth + 0.5,
          };
        });
      return {
        fontSize: parseFloat(style.fontSize),
        nativeShown,
        textWidth: context.measureText(input.placeholder).width,
        contentWidth,
        drawn,
      };
    });
    // 16 px at least: iOS zooms into smaller inputs.
    expect(fit.fontSize).toBeGreaterThanOrEqual(16);
    if (fit.nativeShown) {
      expect(fit.textWidth, 'the placeholder fits the box').toBeLessThanOrEqual(fit.contentWidth);
    } else {
      expect(
        fit.drawn.filter((d) => d.visible),
        'one visible copy of the placeholder',
      ).toHaveLength(1);
      expect(fit.drawn.find((d) => d.visible)).toEqual({ visible: true, inside: true, overflows: false });
    }
    // Typing hides the copy; the typed text is what the box shows.
    await search.fill('palm');
    await expect(page.getByText(SEARCH_PLACEHOLDER, { exact: true }).isVisible()).resolves.toBe(false);
    await search.fill('');
  });
});

/**
 * The date picker's caption with fonts other than the usual Liberation Sans
 * and at 200 % zoom: DejaVu's wider figures pushed the year dropdown under
 * the (absolutely placed) previous-month button, which then could not be
 * clicked. 200 % zoom of a 1280x800 window is a 640x400 CSS viewport at
 * device scale 2.
 */
const FONT_CASES = [
  { name: 'phone-dejavu-sans', viewport: SIZES.phone, deviceScaleFactor: 1, font: "'DejaVu Sans'", rootSize: '' },
  { name: 'desktop-dejavu-sans', viewport: SIZES.desktop, deviceScaleFactor: 1, font: "'DejaVu Sans'", rootSize: '' },
  {
    name: 'desktop-dejavu-serif-large',
    viewport: SIZES.desktop,
    deviceScaleFactor: 1,
    font: "'DejaVu Serif'",
    rootSize: '20px',
  },
  {
    name: 'zoom200-dejavu-serif',
    viewport: { width: 640, height: 400 },
    deviceScaleFactor: 2,
    font: "'DejaVu Serif'",
    rootSize: '',
  },
] as const;

describe('the date picker caption with other fonts and at 200 % zoom', () => {
  test.each(FONT_CASES)(
    '$name: previous, next, month and year all work and none covers another',
    async ({ name, viewport, deviceScaleFactor, font, rootSize }) => {
      const context = await env.browser.newContext({ viewport, deviceScaleFactor });
      context.setDefaultTimeout(10_000);
      try {
        const page = await context.newPage();
        await signIn(page, env.app.server.url, DEMO_DIRECTOR);
        await waitForFirstSync(page, await signedInUserId(page));
        // As a user's own font settings do: every element, the whole app (rem sizes follow the root's).
        await page.addStyleTag({
          content: `*, *::before, *::after { font-family: ${font} !important; }${rootSize ? ` html { font-size: ${rootSize} !important; }` : ''}`,
        });
        await navigate(page, 'Reports');
        await page.getByRole('link', { name: 'Create Report' }).click();
        await page.getByRole('heading', { name: 'Create report', level: 1 }).waitFor();
        await page.getByRole('button', { name: /^Incident date/ }).click();

        const previous = page.getByRole('button', { name: 'Go to the Previous Month' });
        const next = page.getByRole('button', { name: 'Go to the Next Month' });
        const month = page.getByRole('combobox', { name: 'Choose the Month' });
        const year = page.getByRole('combobox', { name: 'Choose the Year' });
        const grid = page.getByRole('grid');
        await grid.waitFor();
        const shownMonth = () => grid.getAttribute('aria-label');
        await previous.scrollIntoViewIfNeeded();
        await saveScreenshot(page, `screens-layout-calendar-${name}.png`);

        const controls = {
          'previous month': previous,
          'next month': next,
          'month dropdown': month,
          'year dropdown': year,
        };
        await expectNoOverlap(controls);
        // The month's days stay clear of the caption too.
        await expectNoOverlap({ ...controls, days: grid });

        // Each one answers a click where it is drawn (Playwright fails a click whose point another element takes).
        const today = new Date();
        const start = await shownMonth();
        await previous.click();
        await expect.poll(shownMonth).not.toBe(start);
        await next.click();
        await expect.poll(shownMonth).toBe(start);
        await year.selectOption(String(today.getFullYear() - 1));
        await month.selectOption({ label: 'January' });
        await expect.poll(shownMonth).toBe(`January ${today.getFullYear() - 1}`);
        await expectNoOverlap(controls);
        await saveScreenshot(page, `screens-layout-calendar-${name}-january.png`);
      } finally {
        await context.close();
      }
    },
  );
});
