/**
 * Who may manage users and concerns, and whether they can right now.
 * Spec §6: only a director sees the management controls. They write
 * straight to the server (no outbox), so offline the controls stay visible
 * but disabled, with the reason on screen. Shared by the users and
 * concerns screens.
 */
import { pb } from '../../api/client.ts';
import type { UserType } from '../../api/records.ts';
import { useSyncStatus } from '../../data/hooks.ts';
import { useBrowserOnline } from '../../ui/useBrowserOnline.ts';

export interface Staff {
  id: string;
  community: string;
  type: UserType;
}

/** The signed-in user as the management screens need it; null without a user id. */
export function signedInStaff(): Staff | null {
  const record = pb.authStore.record;
  if (!record?.id) return null;
  return { id: record.id, community: String(record.community ?? ''), type: record.type as UserType };
}

export interface Management {
  /** Shows the controls at all. */
  director: boolean;
  /** Enables them. */
  canManage: boolean;
  /** Why they are disabled, for directors; null when they are not. */
  blockedReason: string | null;
}

export function useManagement(offlineReason: string): Management {
  const { online } = useSyncStatus();
  // The engine learns of a dead connection only from a failed request; the
  // browser's own flag is quicker when the device drops off the network.
  const browserOnline = useBrowserOnline();
  const director = signedInStaff()?.type === 'director';
  const connected = online && browserOnline;
  return { director, canManage: director && connected, blockedReason: director && !connected ? offlineReason : null };
}
