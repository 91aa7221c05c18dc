/**
 * scripts/browser/chromium-launcher.sh, with printf standing in for
 * Chromium: the feature switches arrive merged, one of each, and every
 * other argument as it came, in its order.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { projectRoot } from '../../scripts/pocketbase/server.ts';

const LAUNCHER = join(projectRoot, 'scripts', 'browser', 'chromium-launcher.sh');

/** The arguments the stand-in browser received, one per entry. */
function launch(args: string[], env: Record<string, string> = { SCMS_CHROMIUM: '/usr/bin/printf' }) {
  const run = spawnSync(LAUNCHER, ['%s\\n', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { status: run.status, received: run.stdout.split('\n').filter(Boolean), stderr: run.stderr };
}

test("Playwright's feature lists and the project's arrive as one of each, the rest unchanged and in order", () => {
  const { status, received } = launch([
    '--headless',
    '--disable-features=PaintHolding,MediaRouter',
    '--enable-features=CDPScreenshotNewSurface',
    '--user-data-dir=/tmp/a profile',
    '--disable-features=WebUIOmniboxPopup',
  ]);
  expect(status).toBe(0);
  expect(received).toEqual([
    '--headless',
    '--user-data-dir=/tmp/a profile',
    '--disable-features=PaintHolding,MediaRouter,WebUIOmniboxPopup',
    '--enable-features=CDPScreenshotNewSurface',
  ]);
});

test('empty lists leave no stray commas; no feature switch adds none', () => {
  expect(
    launch(['--enable-features=', '--disable-features=A', '--enable-features=B', '--enable-features=']).received,
  ).toEqual(['--disable-features=A', '--enable-features=B']);
  expect(launch(['--no-sandbox']).received).toEqual(['--no-sandbox']);
});

test('without SCMS_CHROMIUM it says what is missing and starts nothing', () => {
  const { status, received, stderr } = launch(['--headless'], {});
  expect(status).not.toBe(0);
  expect(received).toEqual([]);
  expect(stderr).toMatch(/the Chromium to start/);
});
