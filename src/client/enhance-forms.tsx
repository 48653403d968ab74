// On /signup and /signin with JavaScript: the same forms, validated in the browser and sent
// with fetch, with the in-flight button text and the error banners of the dialog.
import { useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { SigninForm, type SigninFormState, type SigninValues } from '../components/SigninForm.tsx';
import { SignupForm } from '../components/SignupForm.tsx';
import { latestAdultBirthDate, problemsByField, signinSchema, todayIso } from '../schemas/signup.ts';
import { submitJson } from './submit-json.ts';
import { useSignupForm } from './useSignupForm.ts';

export const SIGNIN_FAILED = 'Sign-in failed. Please try again.';

export function enhanceForms(): void {
  for (const container of document.querySelectorAll<HTMLElement>('[data-enhance]')) {
    const kind = container.dataset.enhance;
    if (kind === 'signup-form') createRoot(container).render(<InteractiveSignup />);
    if (kind === 'signin-form') createRoot(container).render(<InteractiveSignin />);
  }
}

function InteractiveSignup() {
  const form = useSignupForm();
  return (
    <SignupForm
      idPrefix="signup"
      maxBirthDate={latestAdultBirthDate(todayIso())}
      state={form.state}
      onChange={form.onChange}
      onSubmit={(event) => void form.onSubmit(event)}
    />
  );
}

function InteractiveSignin() {
  const [state, setState] = useState<SigninFormState>({ values: { email: '', password: '' }, fieldErrors: {}, submitting: false });
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state.submitting) return;
    const parsed = signinSchema.safeParse(state.values);
    if (!parsed.success) {
      setState((current) => ({ ...current, fieldErrors: problemsByField(parsed.error), banner: undefined }));
      return;
    }
    setState((current) => ({ ...current, fieldErrors: {}, banner: undefined, submitting: true }));
    const result = await submitJson('/api/signin', parsed.data, SIGNIN_FAILED, '/');
    if (result.ok) window.location.assign(result.redirectUrl);
    else setState((current) => ({ ...current, submitting: false, banner: result.error }));
  };
  return (
    <SigninForm
      state={state}
      onChange={(values: SigninValues) => setState((current) => ({ ...current, values }))}
      onSubmit={(event) => void onSubmit(event)}
    />
  );
}
