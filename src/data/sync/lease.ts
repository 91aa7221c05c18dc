/**
 * Only one replayer may send the outbox at a time, across tabs and the
 * service worker: a lease row in the user's database, taken and renewed in
 * IndexedDB transactions (which are atomic across every context of the
 * origin). A replayer that dies leaves a lease that simply expires.
 */
import type { ScmsDatabase } from '../mirror/db.ts';

const LEASE_KEY = 'lease:replay';

interface Lease {
  owner: string;
  expiresAt: number;
}

export const LEASE_TTL_MS = 30_000;

/** Takes the lease if it is free, expired, or already ours. */
export async function acquireLease(db: ScmsDatabase, owner: string, ttlMs = LEASE_TTL_MS): Promise<boolean> {
  return db.transaction('rw', db.syncState, async () => {
    const now = Date.now();
    const current = (await db.syncState.get(LEASE_KEY))?.value as Lease | undefined;
    if (current && current.owner !== owner && current.expiresAt > now) return false;
    await db.syncState.put({ key: LEASE_KEY, value: { owner, expiresAt: now + ttlMs } satisfies Lease });
    return true;
  });
}

/** Extends our lease; false when another replayer took it over (ours expired). */
export async function renewLease(db: ScmsDatabase, owner: string, ttlMs = LEASE_TTL_MS): Promise<boolean> {
  return acquireLease(db, owner, ttlMs);
}

export async function releaseLease(db: ScmsDatabase, owner: string): Promise<void> {
  await db.transaction('rw', db.syncState, async () => {
    const current = (await db.syncState.get(LEASE_KEY))?.value as Lease | undefined;
    if (current?.owner === owner) await db.syncState.delete(LEASE_KEY);
  });
}
