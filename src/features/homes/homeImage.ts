import type { HouseRecord } from '../../api/records.ts';

/** Shown when a home has no image, or its image does not load (spec §2). */
export const DEFAULT_HOME_IMAGE = '/default-home.svg';

/**
 * The 400×300 thumbnail of a home's image, or null when it has none. A
 * queued upload is named 'pending-0' in the mirror until the server saves
 * it: there is no file to show yet.
 */
export function homeImageUrl(baseURL: string, house: Pick<HouseRecord, 'id' | 'image'>): string | null {
  if (!house.image || house.image.startsWith('pending-')) return null;
  const base = baseURL.replace(/\/+$/, '');
  return `${base}/api/files/houses/${encodeURIComponent(house.id)}/${encodeURIComponent(house.image)}?thumb=400x300`;
}
