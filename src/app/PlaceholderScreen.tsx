import { useNavigate } from 'react-router-dom';
import { pb } from '../api/client.ts';
import { useSyncStatus } from '../data/hooks.ts';

/** Stands in for the screens built by the next issues; shows the sync state and keeps sign-out working. */
export function PlaceholderScreen({ title }: { title: string }) {
  const navigate = useNavigate();
  const sync = useSyncStatus();
  return (
    <main className="mx-auto max-w-3xl p-6">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-2 text-gray-600">Signed in as {String(pb.authStore.record?.email ?? '')}.</p>
      <p className="mt-2 text-sm text-gray-600" data-testid="sync-status">
        {sync.online ? 'Online' : 'Offline'} · {sync.pending} waiting to be sent · {sync.failed} failed
        {sync.lastSyncAt ? ` · last sync ${new Date(sync.lastSyncAt).toLocaleTimeString()}` : ''}
      </p>
      <button
        type="button"
        className="mt-4 rounded bg-black px-4 py-2 text-white"
        onClick={() => {
          pb.authStore.clear();
          navigate('/', { replace: true });
        }}
      >
        Log out
      </button>
    </main>
  );
}
