/**
 * What every browser journey shares (tests/e2e): the two sizes the brief
 * asks for, the screenshots folder and how a screenshot is named, the
 * axe-core check, and polling the server until it holds what a journey did.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { projectRoot } from '../../scripts/pocketbase/server.ts';

/** The two sizes every journey runs at: a phone (nav entries in the side drawer) and a desktop. */
export const SIZES = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
export type SizeName = keyof typeof SIZES;
export const SIZE_NAMES = Object.keys(SIZES) as SizeName[];

/** Tailwind's md breakpoint: below it the layout is the phone's. */
const PHONE_BELOW_PX = 768;

/** The size a page was opened at, by its viewport. */
export function sizeOf(page: Page): SizeName {
  return (page.viewportSize()?.width ?? SIZES.desktop.width) < PHONE_BELOW_PX ? 'phone' : 'desktop';
}

export const screenshots = join(projectRoot, 'test-results', 'screenshots');

/** A journey family's screenshot: test-results/screenshots/{family}-{name}-{size}.png. */
export function screenshotsOf(family: string): (page: Page, name: string, fullPage?: boolean) => Promise<void> {
  return async (page, name, fullPage = false) => {
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, `${family}-${name}-${sizeOf(page)}.png`), fullPage });
  };
}

const AXE_PATH = join(projectRoot, 'node_modules', 'axe-core', 'axe.min.js');
let axeSource: string | null = null;

/** One line per violation and element, so a failure prints what to fix and where. */
function describeViolations(violations: Result[]): string {
  return violations
    .flatMap((v) =>
      v.nodes.map((node) =>
        `${v.impact} ${v.id} (${v.help}) at ${node.target.join(' ')}: ${node.failureSummary ?? ''}`.replace(
          /\s+/g,
          ' ',
        ),
      ),
    )
    .join('\n');
}

/**
 * Runs axe-core on the page as it is and fails on serious or critical
 * violations, listing them; returns every violation. axe is evaluated
 * through the DevTools protocol, not added with addScriptTag: the app's
 * "script-src 'self'" policy blocks the inline script addScriptTag writes,
 * and the journeys run under the real policy (no bypassCSP).
 */
export async function expectNoSeriousA11yViolations(page: Page, what: string): Promise<Result[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= readFileSync(AXE_PATH, 'utf8');
    await page.evaluate(axeSource);
  }
  const { violations, passes } = await page.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof import('axe-core') }).axe.run(document);
    return { violations: results.violations, passes: results.passes.length };
  });
  const where = `${what} (${sizeOf(page)})`;
  // An empty result must come from rules that ran, not from a page axe could not read.
  expect(passes, `axe ran no passing rule on ${where}`).toBeGreaterThan(10);
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `axe on ${where}:\n${describeViolations(serious)}`).toEqual([]);
  // The lesser findings do not fail the journey; they are printed for whoever reads the run.
  if (violations.length > 0) console.info(`axe on ${where}, minor/moderate:\n${describeViolations(violations)}`);
  return violations;
}

/** Polls `read` (usually the superuser client) until `done` holds; returns the last value. */
export async function waitUntil<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    last = await read();
  }
  return last;
}
