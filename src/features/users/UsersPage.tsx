/**
 * Users screen (docs/product.md#users): the community's staff from the local
 * mirror, searchable; directors add, edit and delete (online only).
 */
import { useState } from 'react';
import type { UserRecord } from '../../api/records.ts';
import { useSignedInStaff } from '../../data/auth.ts';
import { useManagement } from '../../data/hooks.ts';
import { useUsers } from '../../data/resources/users.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ItemErrorBoundary } from '../../ui/ErrorBoundary.tsx';
import { ListScreen } from '../../ui/ListScreen.tsx';
import { useConfirmedDelete } from '../../ui/useConfirmedDelete.ts';
import { Sheet } from '../../ui/Sheet.tsx';
import { VirtualList } from '../../ui/VirtualList.tsx';
import { TemporaryPasswordDialog } from './TemporaryPasswordDialog.tsx';
import { UserCard, userDisplayName } from './UserCard.tsx';
import { AddUserForm, EditUserForm } from './UserForms.tsx';
import { useUserActions, type CreatedUser } from './useUserActions.ts';
import { OFFLINE_MANAGING_USERS } from '../../ui/offlineWords.ts';

type SheetState = { kind: 'add' } | { kind: 'edit'; user: UserRecord } | null;

const userKey = (user: UserRecord) => user.id;
/** Cards of about 300 px: one column on a phone, up to three at a desk. */
const userColumns = (width: number) => (width >= 900 ? 3 : width >= 600 ? 2 : 1);

export function UsersPage() {
  const [search, setSearch] = useState('');
  const users = useUsers(search);
  const me = useSignedInStaff();
  const { director, canManage, blockedReason } = useManagement(OFFLINE_MANAGING_USERS);
  const actions = useUserActions(me);
  const [sheet, setSheet] = useState<SheetState>(null);
  const [created, setCreated] = useState<CreatedUser | null>(null);
  const [resetting, setResetting] = useState<UserRecord | null>(null);
  const [resetBusy, setResetBusy] = useState(false);

  async function confirmReset() {
    if (!resetting) return;
    setResetBusy(true);
    const result = await actions.resetPassword(resetting);
    setResetBusy(false);
    setResetting(null);
    if (result) setCreated(result);
  }

  const { deleting, askDelete, cancelDelete, busy, confirmDelete } = useConfirmedDelete<UserRecord>(actions.remove);

  return (
    <ListScreen
      title="Users"
      add={director ? { label: 'Add User', disabled: !canManage, onClick: () => setSheet({ kind: 'add' }) } : undefined}
      notice={blockedReason}
      search={{ value: search, onChange: setSearch, label: 'Search users', placeholder: 'Search users...' }}
      count={users?.length}
      countText={(n) => `${n} user(s)`}
      emptyText="No user found"
      loadingLabel="Loading users"
      items={
        <VirtualList
          listKey="users"
          label="Users"
          className="mt-4"
          items={users ?? []}
          getKey={userKey}
          estimateRowHeight={() => 110}
          columns={userColumns}
          gap={12}
          // A community has tens of staff: with this many rows beyond the screen, most lists are drawn whole.
          overscan={10}
          renderItem={(user) => {
            const isSelf = user.id === me?.id;
            return (
              <ItemErrorBoundary resetKey={user.updated}>
                <UserCard
                  user={user}
                  isSelf={isSelf}
                  controls={
                    director
                      ? {
                          disabled: !canManage,
                          blockedReason,
                          onEdit: () => setSheet({ kind: 'edit', user }),
                          onDelete: isSelf ? undefined : () => askDelete(user),
                          onResetPassword: isSelf ? undefined : () => setResetting(user),
                        }
                      : null
                  }
                />
              </ItemErrorBoundary>
            );
          }}
        />
      }
    >
      <Sheet
        open={sheet !== null}
        onClose={() => setSheet(null)}
        title={sheet?.kind === 'edit' ? 'Edit User' : 'Add User'}
      >
        {sheet?.kind === 'add' && (
          <AddUserForm
            blockedReason={blockedReason}
            onSubmit={async (values) => {
              const result = await actions.create(values);
              if (!result) return;
              setSheet(null);
              setCreated(result);
            }}
          />
        )}
        {sheet?.kind === 'edit' && (
          <EditUserForm
            key={sheet.user.id}
            user={sheet.user}
            blockedReason={blockedReason}
            onSubmit={async (values) => {
              if (await actions.update(sheet.user, values)) setSheet(null);
            }}
          />
        )}
      </Sheet>

      <ConfirmDialog
        open={deleting !== null}
        title="Delete user?"
        confirmLabel="Delete"
        destructive
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onCancel={cancelDelete}
      >
        {deleting && `${userDisplayName(deleting)} (${deleting.email}) will be removed and can no longer sign in.`}
      </ConfirmDialog>

      <ConfirmDialog
        open={resetting !== null}
        title="Reset password?"
        confirmLabel="Reset password"
        destructive
        busy={resetBusy}
        onConfirm={() => void confirmReset()}
        onCancel={() => setResetting(null)}
      >
        {resetting &&
          `${userDisplayName(resetting)} (${resetting.email}) gets a new temporary password and is logged out on every device. They choose their own password at the next log in.`}
      </ConfirmDialog>

      <TemporaryPasswordDialog created={created} onClose={() => setCreated(null)} />
    </ListScreen>
  );
}
