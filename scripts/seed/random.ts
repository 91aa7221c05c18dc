/**
 * The demo seed's randomness: a seeded PRNG and one independent stream per
 * purpose, so the same keys always give the same data.
 */
import { createHash } from 'node:crypto';

/** mulberry32: a tiny seeded PRNG giving floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One independent random stream per purpose, so adding reports never reshuffles homes. */
export function rngFor(key: string): () => number {
  return mulberry32(createHash('sha256').update(key).digest().readUInt32LE(0));
}

export type Rng = () => number;
export const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
export const chance = (rng: Rng, p: number) => rng() < p;
export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
export function weighted<T>(rng: Rng, items: ReadonlyArray<readonly [T, number]>): T {
  let r = rng() * items.reduce((sum, [, w]) => sum + w, 0);
  for (const [item, w] of items) if ((r -= w) < 0) return item;
  return items[items.length - 1]![0];
}
