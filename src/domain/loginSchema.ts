/**
 * The login form's schema, kept apart from the other forms' (schemas.ts,
 * which re-exports it): the login page is the first load, and schemas.ts
 * brings the phone-number metadata the house forms need (issue 11).
 */
import { z } from 'zod';

export const PASSWORD_LIMITS = { min: 8, max: 24 } as const;

export const loginSchema = z.object({
  email: z.string().trim().min(1, 'Not a valid email').pipe(z.email('Not a valid email')),
  password: z.string().min(PASSWORD_LIMITS.min, 'Password must be between 8 and 24 characters').max(PASSWORD_LIMITS.max, 'Password must be between 8 and 24 characters'),
});
export type LoginValues = z.infer<typeof loginSchema>;
