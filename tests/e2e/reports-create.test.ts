/**
 * Create report online (docs/product.md#incident-reports) in Chromium against a real
 * PocketBase with the demo data, at a phone and a desktop size: type,
 * weather, 'Now', a home chosen through 'Search home...', a switch, a
 * narrative in patrol shorthand rewritten by 'Ai Assist' (the server's
 * built-in editor: no AI model is configured), a photo, then 'Create
 * report' through the outbox. The server must hold it exactly once, linked
 * to the home, its first resident and the signed-in user; axe-core checks
 * the form with the AI tab open.
 */
import { format } from 'date-fns';
import type { Browser, Page } from 'playwright-core';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import type { TestServer } from '../support/pocketbase.ts';
import { startDemoServer } from './pwa-helpers.ts';
import {
  card,
  cardIds,
  chooseHome,
  COMMUNITY,
  expectNoSeriousA11yViolations,
  fillNarrative,
  openReports,
  PNG,
  reportsByNarrative,
  screenshot,
  signedIn,
  uniqueTag,
  waitUntil,
  type SignedIn,
  type SizeName,
} from './reports-helpers.ts';

let server: TestServer;
let browser: Browser;

interface Home {
  house: RecordModel;
  /** The residents the app may call the first one: the oldest (ties share a creation time). */
  firstResidents: string[];
  phone: string;
}

/** A demo home with a phone and several residents, so "first resident" and the phone mean something. */
async function homeWithFamily(skip: string[]): Promise<Home> {
  const houses = await server.admin
    .collection('houses')
    .getFullList({ filter: server.admin.filter('community = {:c}', { c: COMMUNITY }), sort: 'address' });
  for (const house of houses) {
    if (skip.includes(house.id)) continue;
    const residents = await server.admin
      .collection('residents')
      .getFullList({ filter: server.admin.filter('house = {:h}', { h: house.id }), sort: 'created' });
    const phones = await server.admin
      .collection('phones')
      .getFullList({ filter: server.admin.filter('house = {:h}', { h: house.id }), sort: 'created' });
    if (residents.length < 2 || phones.length === 0) continue;
    const oldest = residents[0]!.created;
    const phone = phones.find((p) => p.primary) ?? phones[0]!;
    return {
      house,
      firstResidents: residents.filter((r) => r.created === oldest).map((r) => r.id),
      phone: phone.phone_number as string,
    };
  }
  throw new Error('no demo home with a phone and two residents');
}

beforeAll(async () => {
  server = await startDemoServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const usedHomes: string[] = [];

describe.each(['phone', 'desktop'] as SizeName[])('create report online (%s)', (size) => {
  let session: SignedIn;
  let page: Page;

  beforeAll(async () => {
    session = await signedIn(browser, server, size);
    page = session.page;
  });
  afterAll(async () => {
    await session?.context.close();
  });

  test('with Ai Assist and a photo: the list shows it first and the server holds it once, fully linked', async () => {
    const home = await homeWithFamily(usedHomes);
    usedHomes.push(home.house.id);
    const address = home.house.address as string;
    // The tag tells this run's report from every other one.
    const narrative = `ofc saw veh w/o plates parked by the pool gate, ref ${uniqueTag()}`;

    await openReports(page);
    await page.getByRole('link', { name: 'Create Report' }).click();
    await page.getByRole('heading', { name: 'Create report', level: 1 }).waitFor();

    await page.getByLabel('Type').selectOption('unauthorized_entry');
    await page.getByLabel('Weather').selectOption('rainy');
    const pressedNow = new Date();
    await page.getByRole('button', { name: 'Now', exact: true }).click();
    await expect(
      page.getByRole('button', { name: `Incident date ${format(pressedNow, 'MMM d, yyyy')}` }).count(),
    ).resolves.toBe(1);
    await expect(page.getByLabel('Hour').inputValue()).resolves.toMatch(/^\d{2}$/);
    await expect(page.getByLabel('Minute').inputValue()).resolves.toMatch(/^\d{2}$/);

    const homeBox = page.getByRole('combobox', { name: 'Home' });
    await expect(homeBox.getAttribute('placeholder')).resolves.toBe('Search home...');
    // The narrative first: right after a home is chosen the combobox takes the focus back.
    await fillNarrative(page, narrative);
    // Choosing fills the box with the address and closes the suggestions.
    await chooseHome(page, address);
    await expect(page.getByLabel('Original narrative').inputValue()).resolves.toBe(narrative);

    await page.getByRole('switch', { name: 'Injury' }).click();
    await expect(page.getByRole('switch', { name: 'Injury' }).getAttribute('aria-checked')).resolves.toBe('true');

    await page.getByRole('button', { name: 'Ai Assist' }).click();
    const aiTab = page.getByRole('tab', { name: 'Ai Generated' });
    await aiTab.waitFor();
    // Once there is an AI narrative its tab is the one shown (docs/product.md#incident-reports).
    await expect(aiTab.getAttribute('aria-selected')).resolves.toBe('true');
    const aiText = await page.getByLabel('Ai generated narrative').inputValue();
    expect(aiText).toContain('Officer saw vehicle without plates parked by the pool gate');
    await page.getByText('Edited by the built-in editor').waitFor();

    await page.locator('input[type="file"]').setInputFiles({ name: 'gate.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('img', { name: 'Photo 1' }).waitFor();
    await expect(page.getByText('(1/5)').count()).resolves.toBe(1);
    await screenshot(page, 'create-ai', true);
    await expectNoSeriousA11yViolations(page, `the create form with the AI tab (${size})`);

    await page.getByRole('button', { name: 'Create report', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Success' })
      .filter({ hasText: 'Report created successfully' })
      .waitFor();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/reports');
    // The list opens at its top (the new report first), not where the long form was scrolled.
    await expect(page.evaluate(() => window.scrollY)).resolves.toBe(0);

    const [saved] = await waitUntil(
      'the report on the server',
      () => reportsByNarrative(server, narrative),
      (found) => found.length > 0,
    );
    // Exactly once, even after the outbox and the worker have had time to send it again.
    await page.waitForTimeout(1_500);
    expect(await reportsByNarrative(server, narrative)).toHaveLength(1);
    expect(saved).toMatchObject({
      narative: narrative,
      ai_generated_narative: aiText.trim(),
      type: 'unauthorized_entry',
      weather: 'rainy',
      house: home.house.id,
      phone_number: home.phone,
      injury: true,
      ems_pbso: false,
      community: COMMUNITY,
      created_by: session.userId,
    });
    expect(home.firstResidents).toContain(saved!.resident);
    expect(saved!.photos).toHaveLength(1);
    expect(saved!.photos[0]).toMatch(/\.png$/);
    // 'Now' to the minute, in the browser's (this process's) time zone.
    const incident = new Date(saved!.incident_time.replace(' ', 'T')).getTime();
    expect(Math.abs(incident - pressedNow.getTime())).toBeLessThan(2 * 60_000);

    // Newest first: the new report heads the list, sent, with its AI narrative and the server's photo.
    const mine = card(page, saved!.id);
    await mine.waitFor();
    expect((await cardIds(page))[0]).toBe(saved!.id);
    await mine.getByText('Not yet sent').waitFor({ state: 'detached' });
    await expect(mine.getByTestId('narrative').textContent()).resolves.toBe(aiText.trim());
    await expect(mine.getByText(address).count()).resolves.toBe(1);
    const thumb = mine.getByRole('button', { name: 'Open photo 1' }).locator('img');
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 })
      .toBe(true);
    await mine.getByRole('button', { name: 'Original', exact: true }).click();
    await expect(mine.getByTestId('narrative').textContent()).resolves.toBe(narrative);
    await screenshot(page, 'created');
  });

  test('Cancel goes back to the list, asking first only when a narrative was typed', async () => {
    const openCreate = async () => {
      await page.getByRole('link', { name: 'Create Report' }).click();
      await page.getByRole('heading', { name: 'Create report', level: 1 }).waitFor();
    };
    const backOnList = async () => {
      await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/reports');
    };
    await openReports(page);

    // Nothing typed: straight back, no question.
    await openCreate();
    await page.getByLabel('Type').selectOption('loud_noise');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await backOnList();
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);

    const narrative = `music too loud at the clubhouse, ref ${uniqueTag()}`;
    await openCreate();
    await fillNarrative(page, narrative);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Discard this report?' });
    // The dialog's own element has no box: its title shows it is open.
    await ask.getByRole('heading', { name: 'Discard this report?' }).waitFor();
    await screenshot(page, 'create-discard');
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await ask.waitFor({ state: 'detached' });
    await expect(page.getByRole('heading', { name: 'Create report', level: 1 }).count()).resolves.toBe(1);
    await expect(page.getByLabel('Original narrative').inputValue()).resolves.toBe(narrative);

    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await ask.getByRole('button', { name: 'Discard' }).click();
    await backOnList();
    // Discarded: nothing queued, nothing on the server.
    await page.waitForTimeout(500);
    expect(await reportsByNarrative(server, narrative)).toHaveLength(0);
  });
});
