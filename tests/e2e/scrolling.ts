/**
 * Scrolling the window through a virtualised list, for the journeys that
 * read every card of one (only the rows near the screen are in the DOM).
 *
 * Each step waits two frames, so the rows that came into view are drawn,
 * and then SETTLE_MS more. Without that pause headless Chromium's software
 * raster can stop for good when the page is scrolled again while the last
 * screen's tiles are still being painted: seen with Chromium 156 on two
 * cores, about one listing in twenty at the desktop size. Its pending frame
 * then never activates, and no animation frame, screenshot or click ever
 * completes on that page again (a trace shows the activation's raster tasks
 * scheduled and never run). With the pause, 120 listings in a row passed.
 */
import type { Page } from 'playwright-core';

const SETTLE_MS = 50;

/** Scrolls the window to `y` (px from the top) and waits for it to be drawn (above); false when it did not move. */
export function scrollToY(page: Page, y: number): Promise<boolean> {
  return page.evaluate(
    async ({ y, settleMs }) => {
      const before = window.scrollY;
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      await new Promise((resolve) => setTimeout(resolve, settleMs));
      return window.scrollY !== before;
    },
    { y, settleMs: SETTLE_MS },
  );
}

/** Scrolls the window down by `screens` of its height and waits for it to be drawn (above); false at the bottom. */
export function scrollOn(page: Page, screens: number): Promise<boolean> {
  return page.evaluate(
    async ({ screens, settleMs }) => {
      const before = window.scrollY;
      window.scrollBy(0, Math.round(window.innerHeight * screens));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      await new Promise((resolve) => setTimeout(resolve, settleMs));
      return window.scrollY !== before;
    },
    { screens, settleMs: SETTLE_MS },
  );
}
