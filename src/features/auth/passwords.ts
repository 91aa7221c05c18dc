/**
 * The words of the password screens. The actions themselves —
 * one's own password change, the reset e-mail, the login page's options —
 * are the session's, in src/data/auth.ts. Online only: a password is never
 * queued in the outbox.
 */
import { errorMessage, fieldErrors } from '../../api/errorMessage.ts';
import { OFFLINE_SETTING_PASSWORD } from '../../ui/offlineWords.ts';

export const ASK_YOUR_DIRECTOR =
  'Ask your director to reset your password. You will get a temporary password to log in with, and choose your own after.';

/** The words for a refused change. */
export function changePasswordFailure(error: unknown): string {
  const status = (error as { status?: number } | null)?.status;
  if (status === 0) return OFFLINE_SETTING_PASSWORD;
  const fields = fieldErrors(error);
  if ('oldPassword' in fields) return 'The current password is not correct.';
  if ('passwordConfirm' in fields) return 'Passwords do not match';
  return errorMessage(error);
}
