// Sign-up and sign-in input: one schema for the browser form, the no-JavaScript form post and the
// API, so the client and the server accept and refuse exactly the same things.
import { z } from 'zod';
import { utcDay } from '../days.ts';
import { ageOn } from './age.ts';
import { isRealIsoDate } from './fields.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from './password-length.ts';
import { declaredStateField } from './age-assurance.ts';

export { ageOn, PASSWORD_MAX, PASSWORD_MIN };

export const MINIMUM_AGE = 18;
export const EMAIL_MAX = 254;

/** The latest date of birth of someone who is 18 on `day` (the date input's max). */
export function latestAdultBirthDate(day: string): string {
  const [year, month, dayOfMonth] = day.split('-') as [string, string, string];
  // 29 February birthdays come of age on 1 March in non-leap years; 28 Feb is always safe.
  const candidate = `${Number(year) - MINIMUM_AGE}-${month}-${dayOfMonth}`;
  return isRealIsoDate(candidate) ? candidate : `${Number(year) - MINIMUM_AGE}-02-28`;
}

export const text = (missing: string, label: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? missing : `${label} must be text.`,
  });

export const email = text('Enter your email address.', 'Email')
  .trim()
  .toLowerCase()
  .min(1, { error: 'Enter your email address.' })
  .max(EMAIL_MAX, { error: `Email address is too long (${EMAIL_MAX} characters at most).` })
  .pipe(z.email({ error: 'Enter a valid email address, like name@example.com.' }));

/**
 * Text with a lone UTF-16 surrogate cannot be turned into bytes as typed: every such character
 * would become U+FFFD, so "\ud800abcdefgh" and "\udfffabcdefgh" would be one password.
 */
const isWellFormed = (text: string) => !/\p{Cs}/u.test(text);
export const PASSWORD_NOT_WELL_FORMED =
  'Password contains characters that are not valid text (unpaired surrogates). Please type it again.';

/** A password being chosen (sign-up, reset): 8 to 200 characters of well-formed text. */
export const newPassword = text('Enter a password.', 'Password')
  .min(PASSWORD_MIN, { error: `Password must be at least ${PASSWORD_MIN} characters.` })
  .max(PASSWORD_MAX, { error: `Password must be at most ${PASSWORD_MAX} characters.` })
  .refine(isWellFormed, { error: PASSWORD_NOT_WELL_FORMED });

export function makeSignupSchema(today = utcDay()) {
  return z.strictObject(
    {
      /** Normalised: trimmed and lower-cased; unique across accounts. */
      email,
      /** 8 to 200 characters; stored only as a memory-hard hash. */
      password: newPassword,
      /** YYYY-MM-DD, entered by the person; 18 or older today. */
      dateOfBirth: text('Enter your date of birth.', 'Date of birth')
        .trim()
        .min(1, { error: 'Enter your date of birth.' })
        .refine(isRealIsoDate, { error: 'Enter a real date of birth (YYYY-MM-DD).' })
        .refine((date) => date <= today, { error: 'Date of birth cannot be in the future.' })
        .refine((date) => date >= '1900-01-01', {
          error: 'Enter a real date of birth (YYYY-MM-DD).',
        })
        .refine((date) => ageOn(date, today) >= MINIMUM_AGE, {
          error: `You must be ${MINIMUM_AGE} or older to join.`,
        }),
      /** Optional: the state the member lives in (age assurance, docs/product.md section 6). */
      state: declaredStateField,
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unexpected field: ${issue.keys.join(', ')}.`
          : undefined,
    },
  );
}

/** The no-JavaScript form adds the required "I am 18 or older and accept the Terms" box. */
export const TERMS_REQUIRED = 'Confirm that you are 18 or older and accept the Terms.';

export const signinSchema = z.strictObject(
  {
    email,
    password: text('Enter your password.', 'Password')
      .min(1, { error: 'Enter your password.' })
      .max(PASSWORD_MAX, { error: 'Email or password is incorrect.' })
      .refine(isWellFormed, { error: PASSWORD_NOT_WELL_FORMED }),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unexpected field: ${issue.keys.join(', ')}.`
        : undefined,
  },
);

export type SignupInput = z.infer<ReturnType<typeof makeSignupSchema>>;
export type SigninInput = z.infer<typeof signinSchema>;
export type SignupField = keyof SignupInput | 'acceptTerms';

/** The first problem of a failed parse, as the field it concerns and the message to show. */
export function firstProblem(error: z.ZodError): { field?: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { message: 'The request is not valid.' };
  const field = issue.path[0];
  return { field: typeof field === 'string' ? field : undefined, message: issue.message };
}

/** Every field's first problem, for showing each message next to its field. */
export function problemsByField(error: z.ZodError): Partial<Record<string, string>> {
  const problems: Partial<Record<string, string>> = {};
  for (const issue of error.issues) {
    const field = typeof issue.path[0] === 'string' ? issue.path[0] : 'form';
    problems[field] ??= issue.message;
  }
  return problems;
}
