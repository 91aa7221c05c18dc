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

/**
 * Whether the journeys save their screenshots: they are for people looking at
 * the screens, so a CI run (CI=true), which keeps none, takes none: about a
 * twelfth of the browser layer's processor time. SCMS_SCREENSHOTS=1 takes them
 * anyway, SCMS_SCREENSHOTS=0 never.
 */
export const SAVING_SCREENSHOTS =
  process.env.SCMS_SCREENSHOTS === '1' || (process.env.SCMS_SCREENSHOTS !== '0' && process.env.CI !== 'true');

/** Saves a screenshot as test-results/screenshots/{fileName} (when SAVING_SCREENSHOTS). */
export async function saveScreenshot(page: Page, fileName: string, fullPage = false): Promise<void> {
  if (!SAVING_SCREENSHOTS) return;
  mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: join(screenshots, fileName), fullPage });
}

/** A journey family's screenshot: test-results/screenshots/{family}-{name}-{size}.png. */
export function screenshotsOf(family: string): (page: Page, name: string, fullPage?: boolean) => Promise<void> {
  return (page, name, fullPage = false) => saveScreenshot(page, `${family}-${name}-${sizeOf(page)}.png`, fullPage);
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
 * The rules whose outcome depends on colour: all that can change when the
 * theme does (night mode turns the palette around and leaves the markup,
 * the names and the sizes as they are).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Runs axe once on the page as it is (every rule, or only `rules`); fails
 * on serious or critical violations.
 */
async function axeOnce(page: Page, where: string, rules?: string[]): Promise<Result[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= readFileSync(AXE_PATH, 'utf8');
    await page.evaluate(axeSource);
  }
  const { violations, passes, contrastChecked } = await page.evaluate(async (rules) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const results = await axe.run(document, rules ? { runOnly: { type: 'rule', values: rules } } : {});
    const contrast = [...results.passes, ...results.violations, ...results.incomplete].filter(
      (r) => r.id === 'color-contrast',
    );
    return {
      violations: results.violations,
      passes: results.passes.length,
      contrastChecked: contrast.reduce((sum, r) => sum + r.nodes.length, 0),
    };
  }, rules);
  // An empty result must come from rules that ran, not from a page axe could not read.
  if (rules) expect(contrastChecked, `axe checked the contrast of no text on ${where}`).toBeGreaterThan(0);
  else expect(passes, `axe ran no passing rule on ${where}`).toBeGreaterThan(10);
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `axe on ${where}:\n${describeViolations(serious)}`).toEqual([]);
  // The lesser findings do not fail the journey; they are printed for whoever reads the run.
  if (violations.length > 0) console.info(`axe on ${where}, minor/moderate:\n${describeViolations(violations)}`);
  return violations;
}

/** A screenshot name from a checkpoint's words: 'the Users screen' → 'the-users-screen'. */
const slug = (what: string) =>
  what
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

/**
 * The accessibility checkpoint of a journey, on the page as it is:
 * - axe-core in the light theme, failing on serious or critical
 *   violations, contrast included; in night mode (the phone set to dark:
 *   the app follows prefers-color-scheme) again, with the rules that
 *   depend on colour;
 * - on a phone, every control a thumb can hit (expectThumbSizedTargets);
 * - a screenshot in each theme, test-results/screenshots/a11y-{what}-{light|dark}-{size}.png,
 *   so every checked screen can be looked at in both.
 * Returns the light theme's violations. axe is evaluated through the
 * DevTools protocol, not added with addScriptTag: the app's
 * "script-src 'self'" policy blocks the inline script addScriptTag writes,
 * and the journeys run under the real policy (no bypassCSP).
 */
export async function expectNoSeriousA11yViolations(page: Page, what: string): Promise<Result[]> {
  const where = `${what} (${sizeOf(page)})`;
  const shot = screenshotsOf('a11y');
  const violations = await axeOnce(page, where);
  await shot(page, `${slug(what)}-light`);
  if (sizeOf(page) === 'phone') await expectThumbSizedTargets(page, where);
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    await axeOnce(page, `${where}, night mode`, COLOUR_RULES);
    // The top bar stays black at night: the palette turned around would make it a white glare.
    const bar = await page.evaluate(() => {
      const top = document.querySelector('nav') ?? document.querySelector('header');
      return top ? getComputedStyle(top).backgroundColor : null;
    });
    if (bar !== null) expect(bar, `the top bar of ${where} in night mode`).toBe('rgb(0, 0, 0)');
    await shot(page, `${slug(what)}-dark`);
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
  return violations;
}

/** What a thumb needs (WCAG's enhanced target size; Apple's and Google's guides agree): 44 × 44 CSS px. */
export const THUMB_PX = 44;

/**
 * Fails when a control on the page is smaller than a thumb: every rendered
 * button, link, input, select, text area and element with a control's role,
 * outside inert parts (what lies behind an open dialog). An input counts
 * with its label, since a tap on the label is a tap on it. Lists each
 * offender with its name and size.
 */
export async function expectThumbSizedTargets(page: Page, where: string): Promise<void> {
  const small = await page.evaluate((min) => {
    const CONTROLS =
      'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], [role=menuitem], [role=menuitemradio], [role=option], [role=combobox]';
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(CONTROLS)) {
      if (element.closest('[inert], [aria-hidden=true]')) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const box = element.getBoundingClientRect();
      // Not rendered, or visually hidden for screen readers only (1 px, clipped) with a visible label or control beside it.
      if (box.width <= 1 || box.height <= 1) continue;
      let left = box.left;
      let top = box.top;
      let right = box.right;
      let bottom = box.bottom;
      // Its label: a <label> for it or around it, or the <label> naming it by aria-labelledby (Headless UI's switch).
      const named = document.getElementById(element.getAttribute('aria-labelledby')?.split(' ')[0] ?? '');
      const label =
        (element as HTMLInputElement).labels?.[0] ??
        element.closest('label') ??
        (named?.tagName === 'LABEL' ? named : null);
      if (label) {
        const around = label.getBoundingClientRect();
        left = Math.min(left, around.left);
        top = Math.min(top, around.top);
        right = Math.max(right, around.right);
        bottom = Math.max(bottom, around.bottom);
      }
      const width = right - left;
      const height = bottom - top;
      if (width >= min - 0.5 && height >= min - 0.5) continue;
      const name =
        element.getAttribute('aria-label') ??
        (element.textContent ?? '').trim().slice(0, 40) ??
        element.getAttribute('name') ??
        '';
      found.push(
        `${element.tagName.toLowerCase()}${element.getAttribute('role') ? `[role=${element.getAttribute('role')}]` : ''}${element.getAttribute('type') ? `[type=${element.getAttribute('type')}]` : ''} "${name || (element as HTMLInputElement).placeholder || element.id}" ${Math.round(width)}×${Math.round(height)}`,
      );
    }
    return found;
  }, THUMB_PX);
  expect(small, `controls smaller than ${THUMB_PX}×${THUMB_PX} px on ${where}`).toEqual([]);
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
