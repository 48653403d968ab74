// Input of the emailed-link forms (docs/product.md section 6): asking for a password reset, choosing a
// new password with a reset link, and using a verification link. The pages, the no-JavaScript form
// posts and the API share these, as the sign-up form shares signup.ts.
import { z } from 'zod';
import { email, newPassword, text } from './signup.ts';

/** Tokens are 32 random bytes in base64url (43 characters); anything else is no token of ours. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const LINK_NOT_VALID = 'This link is not valid. Check that you copied all of it.';

const token = text('This link is not valid. Open the link from your email again.', 'Token').refine(
  (value) => TOKEN_PATTERN.test(value),
  { error: LINK_NOT_VALID },
);

const unexpected = {
  error: (issue: z.core.$ZodRawIssue) =>
    issue.code === 'unrecognized_keys' ? `Unexpected field: ${issue.keys.join(', ')}.` : undefined,
};

/** `/forgot`: the address to send a reset link to (normalised as at sign-up). */
export const forgotPasswordSchema = z.strictObject({ email }, unexpected);

/** `/reset`: the token from the link and the new password (the sign-up rules). */
export const resetPasswordSchema = z.strictObject({ token, password: newPassword }, unexpected);

/** `/verify`: the token from the link. */
export const verifyEmailSchema = z.strictObject({ token }, unexpected);

export const isTokenShaped = (value: string | undefined): value is string =>
  value !== undefined && TOKEN_PATTERN.test(value);

export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;
