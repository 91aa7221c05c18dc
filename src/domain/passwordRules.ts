/**
 * The password length (docs/product.md#validation-limits), without zod: the forms' schemas (loginSchema.ts)
 * and the server's hooks (through temporaryPassword.ts, compiled to
 * pb_hooks/lib/generated/temporary_password.js) read it from here.
 */
export const PASSWORD_LIMITS = { min: 8, max: 24 } as const;
export const PASSWORD_LENGTH_MESSAGE = 'Password must be between 8 and 24 characters';
