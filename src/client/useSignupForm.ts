// State and submission of the interactive sign-up form (the dialog and the /signup page).
import { signupApiPath, successPath } from '../../core/paths.ts';
import { useState, type FormEvent } from 'react';
import type { SignupFormState, SignupValues } from '../components/SignupForm.tsx';
import { makeSignupSchema, problemsByField, TERMS_REQUIRED } from '../../core/schemas/signup.ts';
import { submitJson } from './submit-json.ts';
import { useLeaving } from './useLeaving.ts';

export const SIGNUP_FAILED = 'Signup failed. Please try again.';
/** Under the button while a busy server makes the sign-up wait its turn (submit-json.ts). */
export const SIGNUP_WAITING = 'Lots of people are signing up right now: still working…';

type FieldErrors = SignupFormState['fieldErrors'];

const EMPTY: SignupValues = {
  email: '',
  password: '',
  dateOfBirth: '',
  state: '',
  acceptTerms: false,
};

/**
 * `shown`: what the form shows when it starts (what the server rendered: the values typed, a
 * refused post's banner and field messages); `next`: where the visitor was going, sent along so
 * that the verification mail leads back there.
 */
export function useSignupForm(
  shown: { values?: Partial<SignupValues>; banner?: string; fieldErrors?: FieldErrors } = {},
  next?: string,
  navigate: (url: string) => void = (url) => window.location.assign(url),
) {
  const [state, setState] = useState<SignupFormState>({
    values: { ...EMPTY, ...shown.values },
    fieldErrors: shown.fieldErrors ?? {},
    ...(shown.banner ? { banner: shown.banner } : {}),
    submitting: false,
  });

  const onChange = (values: SignupValues) => setState((current) => ({ ...current, values }));
  // Closing the dialog (or leaving the page) stops waiting for a busy server.
  const leaving = useLeaving();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state.submitting) return;
    const { acceptTerms, ...request } = state.values;
    // The same schema the server uses: an under-18 date of birth never leaves the browser.
    const parsed = makeSignupSchema().safeParse(request);
    const fieldErrors: SignupFormState['fieldErrors'] = parsed.success
      ? {}
      : problemsByField(parsed.error);
    if (!acceptTerms) fieldErrors.acceptTerms = TERMS_REQUIRED;
    if (!parsed.success || !acceptTerms) {
      setState((current) => ({ ...current, fieldErrors, banner: undefined }));
      const form = event.currentTarget;
      const firstInvalid = Object.keys(fieldErrors)[0];
      form.querySelector<HTMLInputElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    setState((current) => ({ ...current, fieldErrors: {}, banner: undefined, submitting: true }));
    const body = next ? { ...parsed.data, next } : parsed.data;
    const result = await submitJson(signupApiPath(), body, SIGNUP_FAILED, successPath(), {
      busyStatus: SIGNUP_WAITING,
      onBusy: (progress) => setState((current) => ({ ...current, progress })),
      signal: leaving.current?.signal,
    });
    if (result.ok) {
      navigate(result.redirectUrl);
      return;
    }
    setState((current) => ({
      ...current,
      submitting: false,
      progress: undefined,
      banner: result.error,
    }));
  };

  return { state, onChange, onSubmit };
}
