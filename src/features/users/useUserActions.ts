/**
 * The users screen's side of creating, updating and deleting users
 * (directors only, online only): the words of docs/product.md#users around the data
 * layer's online actions (src/data/resources/users.ts), which write to the
 * server and put the answer into the mirror.
 */
import { errorMessage, fieldErrors } from '../../api/errorMessage.ts';
import type { UserRecord } from '../../api/records.ts';
import type { Staff } from '../../data/auth.ts';
import { useOnlineActions } from '../../data/onlineActions.ts';
import type { CreatedUser, UserUpdate } from '../../data/resources/users.ts';
import type { AddUserValues } from '../../domain/schemas.ts';
import { useToast } from '../../ui/toast.tsx';

// The users screen's parts name these types from here.
export type { CreatedUser, UserUpdate };

type UserAction = 'create' | 'update' | 'delete' | 'reset';

/** The failure texts of the users screen (docs/product.md#messages). */
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
 * own random one (docs/product.md#decisions: no placeholder may ever sign in), so it only
 * has to satisfy the form; getRandomValues works on plain-http origins too.
 */
export function throwawayPassword(): string {
  // 20 hex characters: inside the passwords' 8–24 (docs/product.md#validation-limits), which the server holds too.
  return Array.from(crypto.getRandomValues(new Uint8Array(10)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function useUserActions(director: Staff | null) {
  const actions = useOnlineActions();
  const toast = useToast();

  const fail = (error: unknown, action: UserAction) =>
    toast({ title: 'Fail', description: userFailureMessage(error, action), variant: 'destructive' });

  return {
    async create(values: AddUserValues): Promise<CreatedUser | null> {
      if (!director) return null;
      try {
        const created = await actions.createUser(director, values, throwawayPassword());
        toast({ title: 'Success', description: 'New user added' });
        return created;
      } catch (error) {
        fail(error, 'create');
        return null;
      }
    },

    async update(user: UserRecord, values: UserUpdate): Promise<boolean> {
      try {
        await actions.updateUser(user, values);
        toast({ title: 'Success', description: 'User updated' });
        return true;
      } catch (error) {
        fail(error, 'update');
        return false;
      }
    },

    /**
     * A new temporary password for a colleague: the old one and every
     * session of it stop working, and the user must choose their own at the
     * next sign-in.
     */
    async resetPassword(user: UserRecord): Promise<CreatedUser | null> {
      try {
        const reset = await actions.resetUserPassword(user);
        toast({ title: 'Success', description: 'Password reset' });
        return reset;
      } catch (error) {
        fail(error, 'reset');
        return null;
      }
    },

    async remove(user: UserRecord): Promise<boolean> {
      try {
        await actions.deleteUser(user);
        toast({ title: 'Success', description: 'User deleted' });
        return true;
      } catch (error) {
        fail(error, 'delete');
        return false;
      }
    },
  };
}
