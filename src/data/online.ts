/**
 * The browser's own online flag, live. The sync engine learns of a dead
 * connection only from a failed request; the browser's flag is quicker when
 * the device drops off the network, and it needs no signed-in engine (the
 * login and password screens run without one). Signed-in screens ask
 * useOnline (hooks.ts), which adds the engine's view to this one.
 */
import { useSyncExternalStore } from 'react';

function subscribeBrowserOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export function useBrowserOnline(): boolean {
  return useSyncExternalStore(
    subscribeBrowserOnline,
    () => navigator.onLine,
    () => true,
  );
}
