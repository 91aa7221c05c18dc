/**
 * What a checkpoint's sticker carries, and what a scan of it means: one
 * rule for the phone that scans (offline, against its mirror) and for the
 * server that stores the scan.
 *
 * The QR code holds the community's id and a random token the server gave
 * the checkpoint (20 characters, about 100 bits: it cannot be guessed, and
 * it says nothing about the checkpoint's id). A code of another community
 * is told apart from one that matches no checkpoint here (deleted, or made
 * up). Under the QR code a short code of six characters is printed for a
 * sticker the camera cannot read, from an alphabet without the characters
 * people confuse (0/O, 1/I/L, U/V), unique within the community.
 *
 * A scan keeps where the phone was: how far from the checkpoint, and
 * whether that is within its radius. A scan far away is kept and shown
 * ('Scanned 240 m from the checkpoint'), never refused: a signal can be
 * wrong, and the manager decides.
 */

import { RECORD_ID_ALPHABET, RECORD_ID_LENGTH } from './recordId.ts';
import type { ReportPosition } from './whereAndWhen.ts';

/** The characters of a token (the server's random string): a record id's. */
export const TOKEN_ALPHABET = RECORD_ID_ALPHABET;
export const TOKEN_LENGTH = 20;
/** The characters of a short code: digits and capitals without 0, 1, I, L, O and U. */
export const SHORT_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const SHORT_CODE_LENGTH = 6;

/** How a scan found its checkpoint: the camera read the sticker, the officer typed its short code, or an NFC tag held its QR text. */
export const SCAN_METHODS = ['camera', 'code', 'nfc'] as const;
export type ScanMethod = (typeof SCAN_METHODS)[number];

const QR_PREFIX = 'scms-cp';
const ID = new RegExp(`^[${RECORD_ID_ALPHABET}]{${RECORD_ID_LENGTH}}$`);
const TOKEN = new RegExp(`^[${TOKEN_ALPHABET}]{${TOKEN_LENGTH}}$`);
const SHORT_CODE = new RegExp(`^[${SHORT_CODE_ALPHABET}]{${SHORT_CODE_LENGTH}}$`);

/** The text of a checkpoint's QR code. */
export function qrText(communityId: string, token: string): string {
  return `${QR_PREFIX}:${communityId}:${token}`;
}

/** A short code as printed: 'K7M-4QX'. */
export function shortCodeText(code: string): string {
  return `${code.slice(0, 3)}-${code.slice(3)}`;
}

export function isToken(value: string): boolean {
  return TOKEN.test(value);
}

export function isShortCode(value: string): boolean {
  return SHORT_CODE.test(value);
}

export const SCAN_MESSAGES = {
  notACheckpoint: 'This is not a checkpoint code.',
  otherCommunity: 'This checkpoint belongs to another community.',
  noSuchCheckpoint: 'No checkpoint of this community has this code.',
  shortCodeLength: `Type the ${SHORT_CODE_LENGTH} characters printed under the code.`,
  shortCodeCharacters: 'Codes have no 0, 1, I, L, O or U: check the sticker.',
} as const;

/** What a checkpoint must have for a scan to find it. */
export interface CheckpointKeys {
  id: string;
  community: string;
  token: string;
  short_code: string;
}

export type ScanMatch<T> = { checkpoint: T } | { error: string };

/** The checkpoint a camera's text names, among this community's; or why none. */
export function matchScannedText<T extends CheckpointKeys>(
  text: string,
  communityId: string,
  checkpoints: readonly T[],
): ScanMatch<T> {
  const parts = text.trim().split(':');
  if (parts.length !== 3 || parts[0] !== QR_PREFIX || !ID.test(parts[1]!) || !isToken(parts[2]!))
    return { error: SCAN_MESSAGES.notACheckpoint };
  if (parts[1] !== communityId) return { error: SCAN_MESSAGES.otherCommunity };
  const checkpoint = checkpoints.find((c) => c.community === communityId && c.token === parts[2]);
  return checkpoint ? { checkpoint } : { error: SCAN_MESSAGES.noSuchCheckpoint };
}

/** A typed short code as stored: capitals, without the spaces and dashes people type. */
export function normalizeShortCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]+/g, '');
}

/** The checkpoint a typed short code names, among this community's; or what is wrong with what was typed. */
export function matchShortCode<T extends CheckpointKeys>(
  typed: string,
  communityId: string,
  checkpoints: readonly T[],
): ScanMatch<T> {
  const code = normalizeShortCode(typed);
  if (code.length !== SHORT_CODE_LENGTH) return { error: SCAN_MESSAGES.shortCodeLength };
  if (!isShortCode(code)) return { error: SCAN_MESSAGES.shortCodeCharacters };
  const checkpoint = checkpoints.find((c) => c.community === communityId && c.short_code === code);
  return checkpoint ? { checkpoint } : { error: SCAN_MESSAGES.noSuchCheckpoint };
}

// ---- where a scan was made ------------------------------------------------------

/** Where the phone was, as the browser's geolocation gives it (the reports' position: degrees, accuracy in metres). */
type Position = ReportPosition;

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (degrees: number) => (degrees * Math.PI) / 180;

/** Metres between two points on the Earth (haversine; within 0.5 % at a checkpoint's scale). */
export function distanceMetres(
  a: Pick<Position, 'latitude' | 'longitude'>,
  b: Pick<Position, 'latitude' | 'longitude'>,
) {
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Where a scan stands against its checkpoint: 'inside' when the phone was
 * within the radius (given the fix's own accuracy), 'outside' when even
 * its accuracy cannot bring it in, 'unknown' without a position on one
 * side, or when only a fix too vague to trust (a city block) could bring
 * it in.
 */
export type ScanPlace =
  { place: 'inside' | 'outside'; distance: number } | { place: 'unknown'; distance: number | null };

/** A fix vaguer than this says nothing about a checkpoint (a city block). */
export const VAGUE_FIX_METRES = 150;

export function scanPlace(
  checkpoint: { latitude: number | null; longitude: number | null; radius: number },
  position: Position | null,
): ScanPlace {
  if (!position || checkpoint.latitude === null || checkpoint.longitude === null)
    return { place: 'unknown', distance: null };
  const distance = Math.round(
    distanceMetres({ latitude: checkpoint.latitude, longitude: checkpoint.longitude }, position),
  );
  if (distance <= checkpoint.radius) return { place: 'inside', distance };
  // Farther than even the fix's error could explain: outside, however vague the fix.
  if (distance - position.accuracy > checkpoint.radius) return { place: 'outside', distance };
  return { place: position.accuracy > VAGUE_FIX_METRES ? 'unknown' : 'inside', distance };
}

/** 'Scanned 240 m from the checkpoint', 'Scanned 1.2 km from the checkpoint'. */
export function distanceText(metres: number): string {
  const whole = Math.round(metres);
  const far = whole >= 1000 ? `${(whole / 1000).toFixed(1)} km` : `${whole} m`;
  return `Scanned ${far} from the checkpoint`;
}
