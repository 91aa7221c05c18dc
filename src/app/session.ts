/**
 * Sign-out (spec §2): clears the saved sign-in and returns to /. The outbox
 * is kept (DESIGN.md): its entries are sent after the next sign-in.
 */
import { pb } from '../api/client.ts';
import { userDatabase } from '../data/db.ts';

/** How many queued changes the user would leave behind, for the sign-out message. */
export async function pendingCount(userId: string): Promise<number> {
  return userDatabase(userId).outbox.count();
}

export function signOut(): void {
  pb.authStore.clear();
}
