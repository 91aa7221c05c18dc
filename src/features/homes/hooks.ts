/** The Homes screen's hooks over the mirror, the session and the connection. */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { pb } from '../../api/client.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { useSyncStatus } from '../../data/hooks.ts';
import { useMirrorQuery } from '../../data/useMirrorQuery.ts';
import { homeReportCount, type SignedInUser } from '../../data/writes.ts';
import { housesWithActiveCall } from './homeNotices.ts';

/** Spec §4, §9: the call-in-progress marker is reset by a repeating 20-second timer. */
export const CALL_MARKER_RESET_MS = 20_000;

/**
 * Homes a call was just placed for from this device. The calls record
 * reaches the mirror a moment later (realtime); until then, and should it
 * not come, this marker shows 'Call in progress...' and the timer clears it.
 * Each new call restarts the timer, so no marker is cleared before 20 s.
 */
export function useCallMarkers(): { marked: ReadonlySet<string>; mark: (houseId: string) => void } {
  const [marked, setMarked] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    if (marked.size === 0) return;
    const timer = window.setInterval(() => setMarked(new Set()), CALL_MARKER_RESET_MS);
    return () => window.clearInterval(timer);
  }, [marked]);
  const mark = useCallback((houseId: string) => setMarked((current) => new Set(current).add(houseId)), []);
  return { marked, mark };
}

/** Homes whose newest call in the mirror is queued, ringing or in progress. */
export function useActiveCalls(): ReadonlySet<string> {
  const { db } = useSyncEngine();
  const calls = useMirrorQuery(db, ['calls'], () => db.calls.toArray(), []);
  return useMemo(() => housesWithActiveCall(calls ?? []), [calls]);
}

/** Online-only actions (calls) need both the browser and the sync engine to say online. */
export function useOnline(): boolean {
  const { online } = useSyncStatus();
  return online && (typeof navigator === 'undefined' || navigator.onLine);
}

export const OFFLINE_CALL_REASON = 'You are offline — calls need a connection.';

/** The signed-in user as the outbox writes want it. */
export function useSignedInUser(): SignedInUser | null {
  const record = pb.authStore.record;
  if (!record) return null;
  return { id: record.id, community: String(record.community ?? '') };
}

/** Only directors delete homes (the server's rule). */
export function useIsDirector(): boolean {
  return pb.authStore.record?.type === 'director';
}

/** How many reports the mirror holds for a home (undefined while counting, or with no home). */
export function useHomeReportCount(houseId: string | undefined): number | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['reports'], async () => (houseId ? homeReportCount(db, houseId) : undefined), [houseId]);
}

/** The community's name for the call script (from the mirror). */
export function useCommunityName(communityId: string | undefined): string | undefined {
  const { db } = useSyncEngine();
  return useMirrorQuery(db, ['communities'], async () => (communityId ? (await db.communities.get(communityId))?.name : undefined), [communityId]);
}

/** A repaint every minute, so a house check becoming due at midnight shows without a reload. */
export function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}
