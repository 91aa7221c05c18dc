/**
 * Gives the screens the signed-in user's mirror and sync engine. The
 * engine starts when a user signs in and stops when they sign out; log out
 * empties the database but its outbox (wipe.ts).
 */
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import type PocketBase from 'pocketbase';
import { pb as appClient } from '../api/client.ts';
import { SyncEngine } from './sync/engine.ts';
import { mirrorSessionOf } from './sync/session.ts';
import { keepStorage } from './mirror/storageKeep.ts';
import { removeOtherUsersData } from './mirror/wipe.ts';

const EngineContext = createContext<SyncEngine | null>(null);

/** `pb`: the app's one client unless a test gives its own. */
export function DataProvider({
  pb = appClient,
  userId,
  children,
}: {
  pb?: PocketBase;
  userId: string;
  children: ReactNode;
}) {
  const engine = useMemo(() => new SyncEngine(pb, userId), [pb, userId]);
  useEffect(() => {
    const stopMirroring = mirrorSessionOf(pb);
    engine.start();
    // A shared phone: what another user left here (a session that expired and
    // was not renewed by them) goes now; their unsent outbox stays for them.
    removeOtherUsersData(userId).catch((error: unknown) => console.error("Removing other users' data failed:", error));
    // Keep the queued work: ask the browser not to evict this origin's storage, now and once installed.
    const stopKeeping = keepStorage();
    return () => {
      stopKeeping();
      stopMirroring();
      void engine.stop();
    };
  }, [pb, engine, userId]);
  return <EngineContext.Provider value={engine}>{children}</EngineContext.Provider>;
}

export function useSyncEngine(): SyncEngine {
  const engine = useContext(EngineContext);
  if (!engine) throw new Error('useSyncEngine needs a DataProvider above it');
  return engine;
}
