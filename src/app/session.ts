/**
 * Signing out (docs/product.md#log-out: it clears the saved sign-in and returns to /).
 *
 * `logOut` is the Log out button's: patrol phones are shared between shifts
 * so it also removes the user's copy of the community from the
 * device, keeping only their unsent outbox, which is sent after their next
 * sign-in (src/data/mirror/wipe.ts). `signOut` (src/data/auth.ts) alone is for a session the server
 * refused ('Log in' on the expired-session banner): the same officer usually
 * signs in again and keeps the mirror; if someone else signs in instead, that
 * user's start removes it (DataProvider).
 */
import { signOut } from '../data/auth.ts';
import { userDatabase } from '../data/mirror/db.ts';
import type { SyncEngine } from '../data/sync/engine.ts';
import { clearSession, loadSession } from '../data/sync/session.ts';
import { clearMirror, deleteImageCaches, releaseUserDatabase } from '../data/mirror/wipe.ts';

/** Past this the engine's goodbye to the realtime server is not waited for (a server that hangs). */
const STOP_WAIT_MS = 3_000;

/**
 * Log out of `userId`: their engine, if one runs, stops (no pull or replay
 * starts again); the mirror and the cached images go while the screens are
 * still up (they read an empty mirror, not a closed one); then the sign-in;
 * then the database is let go (see releaseUserDatabase for what a request of
 * the stopped engine still under way may have written). The sign-in goes
 * even if removing failed: a Log out that leaves the user signed in would
 * be worse; the next user's start removes what is left.
 */
export async function logOut(userId: string, engine?: SyncEngine): Promise<void> {
  if (engine) await Promise.race([engine.stop(), new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS))]);
  try {
    await Promise.all([
      clearMirror(userDatabase(userId)),
      deleteImageCaches(),
      // A shared phone: the worker drops this browser's push subscription, here and on the server (sw/push.ts).
      loadSession().then((saved) =>
        navigator.serviceWorker?.controller?.postMessage({
          type: 'SCMS_FORGET_PUSH',
          token: saved?.token,
          server: saved?.server,
        }),
      ),
    ]);
  } finally {
    signOut();
    // The worker's copy of the session, at once (the auth store's listener does it too, later).
    await clearSession();
    await releaseUserDatabase(userId);
  }
}
