/**
 * Demo record ids derived from stable keys ('pge:house:3'), so a second seed
 * recognises what is already there.
 */
import { createHash } from 'node:crypto';
import { RECORD_ID_ALPHABET, RECORD_ID_LENGTH } from '../../src/domain/recordId.ts';

/** A PocketBase id (15 chars of [a-z0-9]) derived from a stable key. */
export function demoId(key: string): string {
  const digest = createHash('sha256').update(`scms-demo:${key}`).digest();
  let id = '';
  for (let i = 0; i < RECORD_ID_LENGTH; i++) id += RECORD_ID_ALPHABET[digest[i]! % RECORD_ID_ALPHABET.length];
  return id;
}
