/**
 * Proof of patrol, in Chromium against a real PocketBase, in the demo
 * community and in a large one (2,000 homes): a manager at a desk adds
 * three checkpoints (each placed with the desk's position) and a tour,
 * prints the stickers (the PDF read back: every name and short code); an
 * officer on a phone goes offline, starts the round, scans the first
 * checkpoint with the camera (Chromium's fake camera showing that
 * sticker's QR code cut from the printed PDF, rendered), types the
 * second's short code, leaves the third and ends the tour with a reason;
 * reloads offline and still sees the round incomplete; reconnects; the
 * server holds one walk and two scans, and the manager sees the round
 * incomplete with the missed checkpoint, once.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsPDF } from 'jspdf';
import jsQR from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../scripts/browser/chromium.ts';
import { DEMO_MANAGER, DEMO_REGULAR, type DemoAccount } from '../../scripts/seed/demo-account.ts';
import { qrText, shortCodeText } from '../../src/domain/checkpointCode.ts';
import { jsPdfMeasure, stickerLayout, STICKERS_PER_PAGE } from '../../src/features/tours/stickerPdf.ts';
import { writeFakeCameraVideoFromImage, type GrayImage } from '../support/fakeCamera.ts';
import { cropGray, renderPdfPageGray } from '../support/pdfRaster.ts';
import { pdfPageSizes, pdfText } from '../support/pdfText.ts';
import type { TestServer } from '../support/pocketbase.ts';
import { startLargeCommunity } from './large-community.ts';
import { startDemoServer, waitForWorkerControl } from './pwa-helpers.ts';
import { DEMO_COMMUNITY_IDS, navigate, screenshot, located, signedInPage, waitUntil } from './screens-helpers.ts';

/** Sync steps wait longer than a click: two cores run the server, two browsers and the test. */
const SYNCED_MS = 60_000;

interface Community {
  server: TestServer;
  id: string;
  manager: DemoAccount;
  officer: DemoAccount;
  label: string;
}

let desk: Browser;
const camDirs: string[] = [];

beforeAll(async () => {
  desk = await launchChromium();
});

afterAll(async () => {
  await desk?.close();
  for (const dir of camDirs) rmSync(dir, { recursive: true, force: true });
});

/** Pixels a point when the printed sheet is rendered: a module of the QR code (3.7 pt) is 11 pixels. */
const PRINT_SCALE = 3;
/** Points of white paper cut beyond the QR code's quiet zone: clear of the name above it and the short code below. */
const CUT_MARGIN = 3;

/**
 * The QR code of the sticker whose code reads `text`, cut from the printed
 * sheet as rendered (its quiet zone and a margin of paper around it): the
 * picture the officer's camera sees. The sheet holds every checkpoint of
 * the community, by name, so each sticker's code is read to find the
 * right one rather than counted on a place. The QR squares are at the
 * same places on every page whatever the names (stickerLayout), so the
 * squares of a full page are where to look.
 */
async function printedSticker(pdf: Uint8Array, text: string): Promise<GrayImage> {
  const blank = { name: '', shortCode: '', qrText: '' };
  const squares = stickerLayout(
    { communityName: '', checkpoints: Array.from({ length: STICKERS_PER_PAGE }, () => blank) },
    jsPdfMeasure(new jsPDF({ unit: 'pt', format: 'letter' })),
  ).map((sticker) => sticker.qr);
  const read: string[] = [];
  for (let n = 1; n <= (await pdfPageSizes(pdf)).length; n++) {
    const page = await renderPdfPageGray(pdf, n, PRINT_SCALE);
    for (const qr of squares) {
      const sticker = cropGray(page, {
        x: (qr.x - CUT_MARGIN) * PRINT_SCALE,
        y: (qr.y - CUT_MARGIN) * PRINT_SCALE,
        width: (qr.width + 2 * CUT_MARGIN) * PRINT_SCALE,
        height: (qr.height + 2 * CUT_MARGIN) * PRINT_SCALE,
      });
      const rgba = new Uint8ClampedArray(sticker.data.length * 4);
      sticker.data.forEach((y, i) => rgba.set([y, y, y, 255], i * 4));
      const code = jsQR(rgba, sticker.width, sticker.height)?.data;
      if (code === text) return sticker;
      if (code) read.push(code);
    }
  }
  throw new Error(`no sticker of the printed sheet reads ${text}; they read ${read.join(', ')}`);
}

async function addCheckpoint(page: Page, name: string, extra: { instructions?: string; question?: string } = {}) {
  await page.getByRole('button', { name: 'Add checkpoint' }).click();
  const sheet = page.getByRole('dialog', { name: 'Add checkpoint' });
  await sheet.getByLabel('Name').fill(name);
  await sheet.getByRole('button', { name: 'Use my position here' }).click();
  await sheet.getByText(/±8 m/).waitFor();
  if (extra.instructions) await sheet.getByLabel('Instructions shown on a scan').fill(extra.instructions);
  if (extra.question) await sheet.getByLabel('Yes/no question (optional)').fill(extra.question);
  await sheet.getByRole('button', { name: 'Add checkpoint' }).click();
  await sheet.waitFor({ state: 'detached' });
}

/** The journey, in one community (see the file's comment). */
async function patrol(community: Community): Promise<void> {
  const { server } = community;
  const tag = `${community.label}-${Date.now().toString(36)}`;
  const reason = 'Boat ramp flooded, no access';
  const names = [`North gate ${tag}`, `Pool gate ${tag}`, `Boat ramp ${tag}`];

  // ---- the manager, at a desk --------------------------------------------------------------------------
  const manager = await located(await signedInPage(desk, server.url, 'desktop', community.manager), server.url);
  const mpage = manager.page;
  await navigate(mpage, 'Tours');
  await mpage.getByRole('link', { name: 'Checkpoints' }).click();
  await mpage.getByRole('heading', { name: 'Checkpoints', level: 1 }).waitFor();
  await addCheckpoint(mpage, names[0]!, {
    instructions: 'Check the gate arm closes.',
    question: 'Is the arm working?',
  });
  await addCheckpoint(mpage, names[1]!);
  await addCheckpoint(mpage, names[2]!);
  // The codes are the server's: each card shows its code once the server has the checkpoint.
  const stored = await waitUntil(
    'the three checkpoints on the server',
    () =>
      server.admin
        .collection('checkpoints')
        .getFullList({ filter: server.admin.filter('name ~ {:tag}', { tag }), sort: 'created' }),
    (list) => list.length === 3,
    SYNCED_MS,
  );
  const byName = new Map(stored.map((c) => [c.name as string, c]));
  for (const name of names) {
    const code = shortCodeText(byName.get(name)!.short_code as string);
    await mpage.locator('li', { hasText: name }).getByText(code).waitFor({ timeout: SYNCED_MS });
  }
  await screenshot(mpage, `tours-checkpoints-${community.label}`);

  const [download] = await Promise.all([
    mpage.waitForEvent('download'),
    mpage.getByRole('button', { name: 'Print checkpoint codes' }).click(),
  ]);
  const sheetPdf = readFileSync(await download.path());
  const sheetText = await pdfText(sheetPdf);
  for (const name of names) {
    expect(sheetText).toContain(name);
    expect(sheetText).toContain(`Code: ${shortCodeText(byName.get(name)!.short_code as string)}`);
  }

  // A tour with one round a day from midnight, walkable all day (due by noon, late until midnight).
  await mpage.getByRole('link', { name: '← Tours' }).click();
  await mpage.getByRole('button', { name: 'Add tour' }).click();
  const form = mpage.getByRole('dialog', { name: 'Add tour' });
  const tourName = `Perimeter ${tag}`;
  await form.getByLabel('Name').fill(tourName);
  for (const name of names) await form.getByLabel('Add a checkpoint').selectOption({ label: name });
  await form.getByLabel('First round').fill('00:00');
  await form.getByLabel('Last round').fill('23:59');
  await form.getByLabel('Minutes between rounds').fill('1440');
  await form.getByLabel('Minutes a round may take').fill('720');
  await form.getByRole('button', { name: 'Add tour' }).click();
  await form.waitFor({ state: 'detached' });
  const tour = await waitUntil(
    'the tour on the server',
    () => server.admin.collection('tours').getFullList({ filter: server.admin.filter('name = {:n}', { n: tourName }) }),
    (list) => list.length === 1,
    SYNCED_MS,
  );
  expect(tour[0]!.checkpoints).toEqual(names.map((name) => byName.get(name)!.id));

  // ---- the officer, on a phone with a camera that sees the first sticker --------------------------------
  const camDir = mkdtempSync(join(tmpdir(), 'scms-camera-'));
  camDirs.push(camDir);
  const video = join(camDir, 'sticker.y4m');
  const firstSticker = await printedSticker(sheetPdf, qrText(community.id, byName.get(names[0]!)!.token as string));
  writeFakeCameraVideoFromImage(video, firstSticker);
  const phoneBrowser = await launchChromium({ fakeCamera: video });
  try {
    const officer = await located(await signedInPage(phoneBrowser, server.url, 'phone', community.officer), server.url);
    const page = officer.page;
    await officer.context.grantPermissions(['geolocation', 'camera'], { origin: server.url });
    expect(await waitForWorkerControl(page)).toBe(`${server.url}/sw.js`);
    await navigate(page, 'Tours');
    const round = page.locator('li[data-round]', { hasText: tourName });
    await round.getByRole('button', { name: 'Start tour' }).waitFor({ timeout: SYNCED_MS });

    await officer.context.setOffline(true);
    await page.getByRole('button', { name: /^Sync status: Offline/ }).waitFor();
    await round.getByRole('button', { name: 'Start tour' }).click();
    await page.getByRole('heading', { name: tourName, level: 1 }).waitFor();

    // The camera reads the first sticker.
    await page.getByRole('button', { name: 'Scan checkpoint' }).click();
    const scanned = page.getByRole('dialog', { name: names[0] });
    await scanned.getByText('Check the gate arm closes.').waitFor({ timeout: 30_000 });
    await scanned.getByText('At the checkpoint').waitFor();
    await screenshot(page, `tours-scan-${community.label}`);
    await scanned.getByRole('button', { name: 'Save scan' }).click();
    await scanned.getByText('Answer the question').waitFor();
    await scanned.getByText('Yes', { exact: true }).click();
    await scanned.getByRole('button', { name: 'Save scan' }).click();
    await scanned.waitFor({ state: 'detached' });

    // The second by its short code, typed as people type (lower case, a space for the dash).
    await page.getByRole('button', { name: 'Enter code' }).click();
    const typed = shortCodeText(byName.get(names[1]!)!.short_code as string)
      .toLowerCase()
      .replace('-', ' ');
    await page.getByRole('textbox', { name: 'Code' }).fill(typed);
    await page.getByRole('button', { name: 'Find checkpoint' }).click();
    const second = page.getByRole('dialog', { name: names[1] });
    await second.getByRole('button', { name: 'Save scan' }).click();
    await second.waitFor({ state: 'detached' });
    const list = page.getByRole('list', { name: 'Checkpoints' });
    await list
      .getByText(/Scanned at/)
      .nth(1)
      .waitFor();
    await screenshot(page, `tours-walk-${community.label}`);

    // The third is left: End tour asks why.
    await page.getByRole('button', { name: 'End tour' }).click();
    const ending = page.getByRole('dialog', { name: 'End tour' });
    await ending.getByText(`1 checkpoint(s) not scanned: ${names[2]}.`).waitFor();
    await ending.getByRole('button', { name: 'End tour' }).click();
    await ending.getByText('Say why the tour ends with checkpoints left').waitFor();
    await ending.getByLabel('Why are checkpoints left?').fill(reason);
    await ending.getByRole('button', { name: 'End tour' }).click();
    await page.getByRole('heading', { name: 'Tours', level: 1 }).waitFor();

    // Offline, a reload: the worker serves the app, the mirror and the outbox still hold the round.
    await page.reload();
    await page.getByRole('heading', { name: 'Tours', level: 1 }).waitFor();
    const after = page.locator('li[data-round]', { hasText: tourName });
    await after.getByText('Incomplete').waitFor();
    await after.getByText(`Missed: ${names[2]}`).waitFor();
    await after.getByText(`Reason: ${reason}`).waitFor();
    await screenshot(page, `tours-offline-${community.label}`);
    expect(
      await server.admin
        .collection('tour_walks')
        .getList(1, 1, { filter: server.admin.filter('tour = {:t}', { t: tour[0]!.id }) }),
    ).toMatchObject({ totalItems: 0 });

    // Back online: the walk, its two scans and its end reach the server, once.
    await officer.context.setOffline(false);
    const walks = await waitUntil(
      'the ended walk on the server',
      () =>
        server.admin
          .collection('tour_walks')
          .getFullList({ filter: server.admin.filter('tour = {:t}', { t: tour[0]!.id }) }),
      (found) => found.length === 1 && found[0]!.ended_at !== '',
      SYNCED_MS,
    );
    expect(walks[0]!.end_reason).toBe(reason);
    const scans = await server.admin
      .collection('checkpoint_scans')
      .getFullList({ filter: server.admin.filter('walk = {:w}', { w: walks[0]!.id }), sort: 'scanned_at' });
    expect(scans.map((s) => [s.checkpoint, s.method, s.place, s.answer])).toEqual([
      [byName.get(names[0]!)!.id, 'camera', 'inside', 'yes'],
      [byName.get(names[1]!)!.id, 'code', 'inside', ''],
    ]);
    await page.getByRole('button', { name: /^Sync status: Synced/ }).waitFor({ timeout: SYNCED_MS });
    await officer.context.close();
  } finally {
    await phoneBrowser.close();
  }

  // ---- the manager sees it ----------------------------------------------------------------------------------
  const rounds = mpage.locator('li[data-round]', { hasText: tourName });
  await rounds.getByText('Incomplete').waitFor({ timeout: SYNCED_MS });
  expect(await rounds.count()).toBe(1);
  await rounds.getByText(`Missed: ${names[2]}`).waitFor();
  await rounds.getByText(`Reason: ${reason}`).waitFor();
  await screenshot(mpage, `tours-manager-${community.label}`);
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

  test('checkpoints, stickers, an offline round walked by camera and code, seen by the manager once', async () => {
    await patrol({
      server,
      id: DEMO_COMMUNITY_IDS.primary,
      manager: DEMO_MANAGER,
      officer: DEMO_REGULAR,
      label: 'demo',
    });
  });
});

describe('in a community of 2,000 homes', () => {
  let community: Community;
  beforeAll(async () => {
    community = { ...(await startLargeCommunity('large-tours')), label: 'large' };
  });
  afterAll(async () => {
    await community?.server.stop();
  });

  test('the same round, with a large mirror on the phone', async () => {
    await patrol(community);
  });
});
