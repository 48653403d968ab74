// State and submission of the interactive sign-up form (the dialog and the /signup page).
import { useState, type FormEvent } from 'react';
import type { SignupFormState, SignupValues } from '../components/SignupForm.tsx';
import { makeSignupSchema, problemsByField, TERMS_REQUIRED } from '../schemas/signup.ts';
import { submitJson } from './submit-json.ts';

export const SIGNUP_FAILED = 'Signup failed. Please try again.';

type FieldErrors = SignupFormState['fieldErrors'];

const EMPTY: SignupValues = { email: '', password: '', dateOfBirth: '', acceptTerms: false };

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
    const result = await submitJson('/api/signup', body, SIGNUP_FAILED, '/success');
    if (result.ok) {
      navigate(result.redirectUrl);
      return;
    }
    setState((current) => ({ ...current, submitting: false, banner: result.error }));
  };

  return { state, onChange, onSubmit };
}
