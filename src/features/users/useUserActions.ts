/**
 * Creating, updating and deleting users (directors only, online only).
 * Writes go straight to the server; the returned record goes into the
 * mirror at once so the list changes without waiting for realtime.
 */
import type { RecordModel } from 'pocketbase';
import { pb } from '../../api/client.ts';
import { errorMessage, fieldErrors } from '../../api/errorMessage.ts';
import type { UserRecord } from '../../api/records.ts';
import { useSyncEngine } from '../../data/DataProvider.tsx';
import { applyServerRecords, removeServerRecords } from '../../data/mirror.ts';
import type { AddUserValues, UpdateUserValues } from '../../domain/schemas.ts';
import { useToast } from '../../ui/toast.tsx';
import type { Staff } from './useManagement.ts';

export const USERS_OFFLINE_REASON = 'You are offline — managing users needs a connection.';

type UserAction = 'create' | 'update' | 'delete' | 'reset';

/** The failure texts of spec §8 for the users screen. */
export function userFailureMessage(error: unknown, action: UserAction): string {
  const response = (error as { status?: number; response?: { message?: string } } | null) ?? {};
  const status = response.status;
  if (status === 404 && response.response?.message) return response.response.message;
  if (action === 'delete' && (status === 400 || status === 204)) return 'Failed to delete user';
  if (action !== 'delete' && status === 400) {
    const fields = fieldErrors(error);
    if ('password' in fields || 'passwordConfirm' in fields) return 'Passwords do not match';
  }
  return errorMessage(error);
}

/**
 * The password a create request carries. The server replaces it with its
 * own random one (DESIGN.md: no placeholder may ever sign in), so it only
 * has to satisfy the form; getRandomValues works on plain-http origins too.
 */
export function throwawayPassword(): string {
  // 20 hex characters: inside spec §5's 8–24, which the server holds too.
  return Array.from(crypto.getRandomValues(new Uint8Array(10)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export interface CreatedUser {
  email: string;
  /** Shown to the director once; null if the server sent none. */
  temporaryPassword: string | null;
}

/** Updates of a director's card carry names only: a director's type is not for the form to change. */
export type UserUpdate = Pick<UpdateUserValues, 'first_name' | 'last_name'> & { type?: UpdateUserValues['type'] };

export function useUserActions(director: Staff | null) {
  const { db } = useSyncEngine();
  const toast = useToast();

  const fail = (error: unknown, action: UserAction) => toast({ title: 'Fail', description: userFailureMessage(error, action), variant: 'destructive' });

  return {
    async create(values: AddUserValues): Promise<CreatedUser | null> {
      if (!director) return null;
      const password = throwawayPassword();
      try {
        const created = await pb.collection('users').create({
          ...values,
          emailVisibility: true,
          community: director.community,
          password,
          passwordConfirm: password,
        });
        // The one-time password must not be kept on the device.
        const { temporary_password: temporaryPassword, ...record } = created;
        await applyServerRecords(db, 'users', [record as RecordModel]);
        toast({ title: 'Success', description: 'New user added' });
        return { email: String(record.email ?? values.email), temporaryPassword: typeof temporaryPassword === 'string' ? temporaryPassword : null };
      } catch (error) {
        fail(error, 'create');
        return null;
      }
    },

    async update(user: UserRecord, values: UserUpdate): Promise<boolean> {
      try {
        const updated = await pb.collection('users').update(user.id, values);
        await applyServerRecords(db, 'users', [updated]);
        toast({ title: 'Success', description: 'User updated' });
        return true;
      } catch (error) {
        fail(error, 'update');
        return false;
      }
    },

    /**
     * A new temporary password for a colleague (the server's reset route):
     * the old one and every session of it stop working, and the user must
     * choose their own at the next sign-in.
     */
    async resetPassword(user: UserRecord): Promise<CreatedUser | null> {
      try {
        const answer = await pb.send<{ temporary_password?: unknown }>(`/api/scms/users/${encodeURIComponent(user.id)}/reset-password`, { method: 'POST' });
        toast({ title: 'Success', description: 'Password reset' });
        return { email: user.email, temporaryPassword: typeof answer.temporary_password === 'string' ? answer.temporary_password : null };
      } catch (error) {
        fail(error, 'reset');
        return null;
      }
    },

    async remove(user: UserRecord): Promise<boolean> {
      try {
        await pb.collection('users').delete(user.id);
        await removeServerRecords(db, 'users', [user.id]);
        toast({ title: 'Success', description: 'User deleted' });
        return true;
      } catch (error) {
        fail(error, 'delete');
        return false;
      }
    },
  };
}
