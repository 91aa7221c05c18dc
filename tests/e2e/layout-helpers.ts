/**
 * Layout checks with bounding boxes, for the journeys: whether one thing on
 * screen covers another, and whether something lies inside the viewport.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function boxOf(locator: Locator, what: string): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${what} has no box (not rendered)`);
  return box;
}

/** Whether two boxes share any area (touching edges do not count). */
export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Fails when any two of the named elements overlap; says which and where. */
export async function expectNoOverlap(named: Record<string, Locator>): Promise<void> {
  const boxes = await Promise.all(
    Object.entries(named).map(async ([name, locator]) => [name, await boxOf(locator, name)] as const),
  );
  const clashes: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, boxA] = boxes[i]!;
      const [b, boxB] = boxes[j]!;
      if (overlaps(boxA, boxB)) clashes.push(`${a} ${JSON.stringify(boxA)} overlaps ${b} ${JSON.stringify(boxB)}`);
    }
  }
  expect(clashes).toEqual([]);
}

/** Fails unless the element lies wholly inside the page's viewport. */
export async function expectInViewport(page: Page, locator: Locator, what: string): Promise<void> {
  const box = await boxOf(locator, what);
  const viewport = page.viewportSize()!;
  const inside =
    box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height;
  expect(inside, `${what} ${JSON.stringify(box)} is outside the ${viewport.width}x${viewport.height} viewport`).toBe(
    true,
  );
}
