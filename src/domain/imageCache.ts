/**
 * The service worker's image caches (worker-safe module, shared by the
 * window and the worker): one per signed-in user, so one user's photos are
 * never shown to the next user of a shared phone, and log out can delete
 * them all by the prefix. Kept in domain/ (plain names, no dependencies):
 * the login page's bundle registers the worker and must not load src/data.
 */
export const IMAGE_CACHE_PREFIX = 'scms-images-';

export function imageCacheName(userId: string): string {
  return `${IMAGE_CACHE_PREFIX}${userId}`;
}

/** The window's message telling the worker who is signed in: `{ type: USER_MESSAGE, userId: string | null }`. */
export const USER_MESSAGE = 'SCMS_USER';
