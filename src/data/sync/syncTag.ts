/** The Background Sync tag the window registers and the service worker answers (worker-safe module). */
export const SYNC_TAG = 'scms-outbox';
