import type { UserRecord } from '../../api/records.ts';
import { temporaryPasswordState } from '../../domain/temporaryPassword.ts';
import { formatDateTime } from '../../ui/format.ts';
import { KeyIcon, PencilIcon, TrashIcon } from '../../ui/icons.tsx';
import { useNow } from '../../ui/useNow.ts';
import { userTypeLabel } from './UserForms.tsx';

export const DEFAULT_AVATAR = '/default-avatar.svg';

/** 'last, first' (docs/product.md#users). */
export function userDisplayName(user: Pick<UserRecord, 'first_name' | 'last_name'>): string {
  return `${user.last_name}, ${user.first_name}`;
}

export const iconButtonClass =
  'rounded p-2 text-gray-700 hover:bg-gray-100 hover:text-black focus-visible:outline-2 focus-visible:outline-black disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent';

interface Controls {
  disabled: boolean;
  /** Why the buttons are disabled (their tooltip). */
  blockedReason: string | null;
  onEdit: () => void;
  /** Absent on the director's own card: nobody deletes themselves. */
  onDelete?: () => void;
  /** Absent on the director's own card: their own password is changed, not reset. */
  onResetPassword?: () => void;
}

export function UserCard({ user, isSelf, controls }: { user: UserRecord; isSelf: boolean; controls: Controls | null }) {
  const name = userDisplayName(user);
  return (
    <div className="flex items-start gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-gray-200">
      <img src={DEFAULT_AVATAR} alt="" width={48} height={48} className="h-12 w-12 shrink-0 rounded-full" />
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="font-semibold break-words">{name}</h2>
            <p className="text-sm text-gray-700">
              {userTypeLabel(user.type)}
              {isSelf && (
                <span className="ml-2 rounded bg-gray-100 px-1.5 py-0.5 text-xs font-medium text-gray-800">You</span>
              )}
              {controls && user.must_change_password === true && <TemporaryPasswordBadge user={user} />}
            </p>
          </div>
          {/* Icons alone: each says its name on hover (or why it is off). */}
          {controls && (
            <div className="-mt-1 -mr-1 flex shrink-0">
              <button
                type="button"
                aria-label={`Edit ${name}`}
                title={controls.blockedReason ?? 'Edit'}
                disabled={controls.disabled}
                onClick={controls.onEdit}
                className={iconButtonClass}
              >
                <PencilIcon />
              </button>
              {controls.onResetPassword && (
                <button
                  type="button"
                  aria-label={`Reset password of ${name}`}
                  title={controls.blockedReason ?? 'Reset password'}
                  disabled={controls.disabled}
                  onClick={controls.onResetPassword}
                  className={iconButtonClass}
                >
                  <KeyIcon />
                </button>
              )}
              {controls.onDelete && (
                <button
                  type="button"
                  aria-label={`Delete ${name}`}
                  title={controls.blockedReason ?? 'Delete'}
                  disabled={controls.disabled}
                  onClick={controls.onDelete}
                  className={iconButtonClass}
                >
                  <TrashIcon />
                </button>
              )}
            </div>
          )}
        </div>
        {/* Full width under the buttons and wrapped, not cut: the address is what a director copies. */}
        {user.email && (
          <a
            href={`mailto:${user.email}`}
            className="mt-1 block text-sm break-all text-gray-700 underline-offset-2 hover:underline"
          >
            {user.email}
          </a>
        )}
      </div>
    </div>
  );
}

/**
 * For the director: this colleague has not yet replaced the temporary
 * password they were given, or it has expired and needs a reset.
 */
function TemporaryPasswordBadge({ user }: { user: UserRecord }) {
  const now = useNow();
  const state = temporaryPasswordState(user.must_change_password, user.temporary_password_expires, now.getTime());
  if (state === 'own') return null;
  if (state === 'expired')
    return (
      <span className="mt-1 block w-fit max-w-full rounded bg-red-100 px-1.5 py-0.5 text-xs font-medium text-red-900">
        Temporary password expired
      </span>
    );
  const expires = user.temporary_password_expires;
  return (
    <span
      className="mt-1 block w-fit max-w-full rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-950"
      title={expires ? `Works until ${formatDateTime(expires)}` : undefined}
    >
      Temporary password
    </span>
  );
}
