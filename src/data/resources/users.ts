/**
 * The community's people (docs/product.md#users): the list the Users screen
 * reads from the mirror's search index, and the director's online-only
 * writes (add, edit, reset a password, remove), whose answer goes into the
 * mirror at once.
 */
import { useMemo } from 'react';
import type { RecordModel } from 'pocketbase';
import { pb } from '../../api/client.ts';
import type { UserRecord } from '../../api/records.ts';
import type { AddUserValues, UpdateUserValues } from '../../domain/schemas.ts';
import type { Staff } from '../auth.ts';
import { useSearchIndex } from '../hooks.ts';
import type { ScmsDatabase } from '../mirror/db.ts';
import { applyServerRecords, removeServerRecords } from '../mirror/mirror.ts';
import { searchIndexOf } from '../mirror/searchIndex.ts';

export async function queryUsers(db: ScmsDatabase, search = ''): Promise<UserRecord[]> {
  const index = searchIndexOf(db);
  await index.ready('users');
  return index.users.search(search);
}

export function useUsers(search = ''): UserRecord[] | undefined {
  const { index, version } = useSearchIndex('users');
  return useMemo(() => (version < 0 ? undefined : index.users.search(search)), [index, version, search]);
}

export interface CreatedUser {
  email: string;
  /** Shown to the director once; null if the server sent none. */
  temporaryPassword: string | null;
  /** When it stops working (PocketBase's date text); null if the server did not say. */
  expires: string | null;
}

/** Updates of a director's card carry names only: a director's type is not for the form to change. */
export type UserUpdate = Pick<UpdateUserValues, 'first_name' | 'last_name'> & { type?: UpdateUserValues['type'] };

/**
 * A new colleague in the director's community. `password` only has to
 * satisfy the form: the server replaces it with its own random one and
 * answers that once, as `temporary_password`.
 */
export async function createUser(
  db: ScmsDatabase,
  director: Staff,
  values: AddUserValues,
  password: string,
): Promise<CreatedUser> {
  const created = await pb
    .collection('users')
    .create({ ...values, emailVisibility: true, community: director.community, password, passwordConfirm: password });
  // The one-time password must not be kept on the device.
  const { temporary_password: temporaryPassword, ...record } = created;
  await applyServerRecords(db, 'users', [record as RecordModel]);
  return {
    email: String(record.email ?? values.email),
    expires: typeof record.temporary_password_expires === 'string' ? record.temporary_password_expires : null,
    temporaryPassword: typeof temporaryPassword === 'string' ? temporaryPassword : null,
  };
}

export async function updateUser(db: ScmsDatabase, user: UserRecord, values: UserUpdate): Promise<void> {
  await applyServerRecords(db, 'users', [await pb.collection('users').update(user.id, values)]);
}

/**
 * A new temporary password for a colleague (the server's reset route): the
 * old one and every session of it stop working. Nothing of it is mirrored:
 * the user's `must_change_password` comes by realtime like any change.
 */
export async function resetUserPassword(user: UserRecord): Promise<CreatedUser> {
  const answer = await pb.send<{ temporary_password?: unknown; temporary_password_expires?: unknown }>(
    `/api/scms/users/${encodeURIComponent(user.id)}/reset-password`,
    { method: 'POST' },
  );
  return {
    email: user.email,
    temporaryPassword: typeof answer.temporary_password === 'string' ? answer.temporary_password : null,
    expires: typeof answer.temporary_password_expires === 'string' ? answer.temporary_password_expires : null,
  };
}

export async function deleteUser(db: ScmsDatabase, user: UserRecord): Promise<void> {
  await pb.collection('users').delete(user.id);
  await removeServerRecords(db, 'users', [user.id]);
}
