/**
 * The login form's schema, kept apart from the other forms' (schemas.ts,
 * which re-exports it): the login page is the first load, and schemas.ts
 * brings the phone-number metadata the house forms need.
 */
import { z } from 'zod';
import { PASSWORD_LENGTH_MESSAGE, PASSWORD_LIMITS } from './passwordRules.ts';

export { PASSWORD_LIMITS };

export const loginSchema = z.object({
  email: z.string().trim().min(1, 'Not a valid email').pipe(z.email('Not a valid email')),
  password: z
    .string()
    .min(PASSWORD_LIMITS.min, PASSWORD_LENGTH_MESSAGE)
    .max(PASSWORD_LIMITS.max, PASSWORD_LENGTH_MESSAGE),
});
export type LoginValues = z.infer<typeof loginSchema>;

const newPasswordFields = {
  password: z
    .string()
    .min(PASSWORD_LIMITS.min, PASSWORD_LENGTH_MESSAGE)
    .max(PASSWORD_LIMITS.max, PASSWORD_LENGTH_MESSAGE),
  passwordConfirm: z.string(),
};
const confirmed = {
  check: (values: { password: string; passwordConfirm: string }) => values.password === values.passwordConfirm,
  params: { path: ['passwordConfirm'], message: 'Passwords do not match' },
};

/**
 * Changing one's own password (PocketBase's own-record update): the current
 * password, a new one of the passwords' length (docs/product.md#validation-limits), typed twice. A new password equal
 * to the current one would keep a temporary password a director has seen.
 */
export const changePasswordSchema = z
  .object({ oldPassword: z.string().min(1, 'Enter your current password'), ...newPasswordFields })
  .refine(confirmed.check, confirmed.params)
  .refine((values) => values.password !== values.oldPassword, {
    path: ['password'],
    message: 'Choose a password different from the current one',
  });
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;

/**
 * The first password of one's own after signing in with a temporary one:
 * the new password only, typed twice. The session proves the temporary one
 * (the server's first-password route); the server also refuses it again.
 */
export const firstPasswordSchema = z.object(newPasswordFields).refine(confirmed.check, confirmed.params);
export type FirstPasswordValues = z.infer<typeof firstPasswordSchema>;
