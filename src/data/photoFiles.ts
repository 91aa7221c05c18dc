/**
 * A report photo's thumbnail as a Blob, for what draws photos itself (the
 * daily activity report's PDF) rather than through an <img>.
 *
 * Photos are protected files (fileToken.ts). The service worker keeps the
 * thumbnails the screens showed in the signed-in user's image cache, keyed
 * by the URL without its token; it answers only <img> requests, so this
 * reads that cache itself first (works offline, costs no request), then
 * asks the server with the file token. A photo still in the outbox is its
 * queued Blob. None of those: null (the report says it is not available).
 */
import { imageCacheName } from '../domain/imageCache.ts';
import { recordKey, type ScmsDatabase } from './mirror/db.ts';
import { reportPhotoUrl, withFileToken } from './fileToken.ts';
import { isPendingFileName } from './mirror/mirror.ts';

/** The size the report cards ask for (a declared thumb of the reports collection). */
export const PHOTO_THUMB = '400x300';

async function queuedPhoto(db: ScmsDatabase, reportId: string, name: string): Promise<Blob | null> {
  const index = Number(name.slice(name.indexOf('-') + 1));
  const entries = await db.outbox.where('recordKeys').equals(recordKey('reports', reportId)).sortBy('seq');
  for (const entry of entries)
    for (const op of entry.ops) {
      const blob = op.collection === 'reports' && op.id === reportId ? op.files?.photos?.[index] : undefined;
      if (blob) return blob;
    }
  return null;
}

async function cachedPhoto(userId: string, url: string): Promise<Blob | null> {
  if (typeof caches === 'undefined') return null;
  const cache = await caches.open(imageCacheName(userId));
  const answer = await cache.match(new URL(url, window.location.href).href);
  return answer?.ok ? answer.blob() : null;
}

/** The thumbnail of one photo of a report; null when the device cannot have it now (offline and not cached). */
export async function reportPhotoThumb(
  db: ScmsDatabase,
  reportId: string,
  name: string,
  token: string | null,
): Promise<Blob | null> {
  if (isPendingFileName(name)) return queuedPhoto(db, reportId, name);
  const url = reportPhotoUrl(reportId, name, PHOTO_THUMB);
  const cached = await cachedPhoto(db.userId, url).catch(() => null);
  if (cached) return cached;
  if (!token) return null;
  try {
    const answer = await fetch(withFileToken(url, token), { cache: 'no-store' });
    return answer.ok ? await answer.blob() : null;
  } catch {
    // Offline or the server unreachable: as good as not cached.
    return null;
  }
}
