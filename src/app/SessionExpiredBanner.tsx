/**
 * Says so as soon as the server refused the session (the engine's
 * `authRequired`), not only once a write is stuck: an officer must know
 * before writing reports that would wait. Log in goes to the login page;
 * the outbox stays on the device and is sent after that user signs in again.
 * The mirror stays too, for that user; if someone else signs in instead,
 * their start removes it (DataProvider, src/data/mirror/wipe.ts), outbox kept.
 */
import { useNavigate } from 'react-router-dom';
import { useSyncStatus } from '../data/hooks.ts';
import { signOut } from '../data/auth.ts';

export function SessionExpiredBanner() {
  const { authRequired } = useSyncStatus();
  const navigate = useNavigate();
  if (!authRequired) return null;

  function logIn() {
    // Only the saved sign-in goes (the login page would send a signed-in user back); the outbox stays.
    signOut();
    navigate('/', { replace: true });
  }

  return (
    <div role="alert" className="bg-amber-100 text-amber-950">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2 text-sm">
        <p className="min-w-0 flex-1">Your session expired. Log in again to send your changes.</p>
        <button type="button" onClick={logIn} className="rounded bg-black px-3 py-1.5 font-medium text-white">
          Log in
        </button>
      </div>
    </div>
  );
}
