/**
 * Where and when a report was made: the device's position, when
 * the officer allows it, and the device's time beside the server's. One set
 * of rules for the device (what it sends) and the server (what it keeps,
 * through recordRules.ts), so a position the device takes is never one the
 * server refuses: a refused report would wait in the outbox for good.
 */
import { differenceInMinutes, isSameDay } from 'date-fns';
import { z } from 'zod';

/**
 * Beyond this a fix says nothing about which home the officer stood at
 * (a desktop's guess from its network can be tens of kilometres off).
 */
export const MAX_ACCURACY_METRES = 100_000;

/**
 * A device clock may run a little ahead of the server's. Phones set their
 * clocks from the network, so minutes are plenty; a report whose device
 * time is further ahead than this is refused as a made-up time.
 */
export const LOGGED_AT_SKEW_MS = 10 * 60 * 1000;

/** A position as the browser's Geolocation API gives it: degrees, and the accuracy radius in metres. */
export const positionSchema = z
  .strictObject(
    {
      latitude: z
        .number('Latitude must be a number')
        .min(-90, 'Latitude must be between -90 and 90')
        .max(90, 'Latitude must be between -90 and 90'),
      longitude: z
        .number('Longitude must be a number')
        .min(-180, 'Longitude must be between -180 and 180')
        .max(180, 'Longitude must be between -180 and 180'),
      accuracy: z
        .number('Accuracy must be a number')
        .min(0, 'Accuracy must not be negative')
        .max(MAX_ACCURACY_METRES, `Accuracy must not exceed ${MAX_ACCURACY_METRES} metres`),
    },
    'Must be a position (latitude, longitude, accuracy)',
  )
  // No position is not an error (the officer said no, or there was no fix): the report is kept without it.
  .nullable();

export type ReportPosition = NonNullable<z.infer<typeof positionSchema>>;

/** The position to store, or null when what the device gave is not one (the report is saved without it). */
export function toReportPosition(
  coords: { latitude: number; longitude: number; accuracy: number } | null | undefined,
): ReportPosition | null {
  if (!coords) return null;
  const position = { latitude: coords.latitude, longitude: coords.longitude, accuracy: coords.accuracy };
  return positionSchema.safeParse(position).success ? position : null;
}

/** Whether a device time can be when a report was made: not further ahead of the server's clock than the skew. */
export function isLoggedAtAllowed(at: Date, now: Date = new Date()): boolean {
  return at.getTime() <= now.getTime() + LOGGED_AT_SKEW_MS;
}

/** A map of the position, on OpenStreetMap (no key, works for every community). */
export function positionMapUrl(position: ReportPosition): string {
  const lat = position.latitude.toFixed(6);
  const lon = position.longitude.toFixed(6);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=18/${lat}/${lon}`;
}

/**
 * 'Logged 02:14 (sent 02:31)': when a report was made on the device and when
 * the server received it, or null when they are less than a minute apart
 * (sent at once: the card's created time says it all). Across midnight both
 * carry their day, so a report kept overnight is not read as same-day.
 */
export function loggedAndSent(
  logged: Date | null,
  sent: Date | null,
  format: (date: Date, withDay: boolean) => string,
): string | null {
  if (!logged || !sent || Math.abs(differenceInMinutes(sent, logged)) < 1) return null;
  const withDay = !isSameDay(logged, sent);
  return `Logged ${format(logged, withDay)} (sent ${format(sent, withDay)})`;
}
