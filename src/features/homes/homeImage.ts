import type { HouseRecord } from '../../api/records.ts';
import { isPendingFileName } from '../../data/hooks.ts';

/** Shown when a home has no image, or its image does not load (docs/product.md#home-cards-and-the-desk-table). */
export const DEFAULT_HOME_IMAGE = '/default-home.svg';

/**
 * The 400×300 thumbnail of a home's image, or null when it has none. A
 * queued upload is named 'pending-0' in the mirror until the server saves
 * it: there is no server file to show yet (the card shows the outbox's
 * Blob). Anything but a name (a row an earlier version queued) is no image.
 */
export function homeImageUrl(baseURL: string, house: Pick<HouseRecord, 'id' | 'image'>): string | null {
  if (typeof house.image !== 'string' || !house.image || isPendingFileName(house.image)) return null;
  const base = baseURL.replace(/\/+$/, '');
  return `${base}/api/files/houses/${encodeURIComponent(house.id)}/${encodeURIComponent(house.image)}?thumb=400x300`;
}
