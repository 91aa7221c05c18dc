/**
 * PocketBase record ids: 15 characters of [a-z0-9] (the schema's
 * autogeneratePattern). The outbox makes its own (src/data/mirror/ids.ts), the demo
 * seed derives them from stable keys, tests and benchmarks draw them: all
 * from this alphabet.
 */
export const RECORD_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const RECORD_ID_LENGTH = 15;

/** An id whose characters `random` picks (floats in [0, 1): Math.random, a seeded PRNG). */
export function recordIdFrom(random: () => number): string {
  let id = '';
  for (let i = 0; i < RECORD_ID_LENGTH; i++) id += RECORD_ID_ALPHABET[Math.floor(random() * RECORD_ID_ALPHABET.length)];
  return id;
}
