/**
 * The login form's schema, kept apart from the other forms' (schemas.ts,
 * which re-exports it): the login page is the first load, and schemas.ts
 * brings the phone-number metadata the house forms need (issue 11).
 */
import { z } from 'zod';

export const PASSWORD_LIMITS = { min: 8, max: 24 } as const;

export const loginSchema = z.object({
  email: z.string().trim().min(1, 'Not a valid email').pipe(z.email('Not a valid email')),
  password: z
    .string()
    .min(PASSWORD_LIMITS.min, 'Password must be between 8 and 24 characters')
    .max(PASSWORD_LIMITS.max, 'Password must be between 8 and 24 characters'),
});
export type LoginValues = z.infer<typeof loginSchema>;

const PASSWORD_LENGTH_MESSAGE = 'Password must be between 8 and 24 characters';

/**
 * Changing one's own password (PocketBase's own-record update): the current
 * password, a new one of spec §5's length, typed twice. A new password equal
 * to the current one would keep a temporary password a director has seen.
 */
export const changePasswordSchema = z
  .object({
    oldPassword: z.string().min(1, 'Enter your current password'),
    password: z
      .string()
      .min(PASSWORD_LIMITS.min, PASSWORD_LENGTH_MESSAGE)
      .max(PASSWORD_LIMITS.max, PASSWORD_LENGTH_MESSAGE),
    passwordConfirm: z.string(),
  })
  .refine((values) => values.password === values.passwordConfirm, {
    path: ['passwordConfirm'],
    message: 'Passwords do not match',
  })
  .refine((values) => values.password !== values.oldPassword, {
    path: ['password'],
    message: 'Choose a password different from the current one',
  });
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;
