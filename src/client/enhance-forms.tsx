// On /signup and /signin with JavaScript: the same forms, validated in the browser and sent
// with fetch, with the in-flight button text and the error banners of the dialog.
import { useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { SigninForm, type SigninFormState, type SigninValues } from '../components/SigninForm.tsx';
import { SignupForm, type SignupValues } from '../components/SignupForm.tsx';
import {
  latestAdultBirthDate,
  problemsByField,
  signinSchema,
  todayIso,
} from '../schemas/signup.ts';
import { submitJson } from './submit-json.ts';
import { useSignupForm } from './useSignupForm.ts';

export const SIGNIN_FAILED = 'Sign-in failed. Please try again.';

export function enhanceForms(): void {
  for (const container of document.querySelectorAll<HTMLElement>('[data-enhance]')) {
    // Whatever was typed before this script arrived is carried over, and so is the focus.
    const typed = typedValues(container);
    const focused = container.contains(document.activeElement)
      ? document.activeElement?.getAttribute('name')
      : null;
    const root = createRoot(container);
    flushSync(() => {
      if (container.dataset.enhance === 'signup-form')
        root.render(<InteractiveSignup initial={typed} />);
      if (container.dataset.enhance === 'signin-form')
        root.render(<InteractiveSignin initial={typed} />);
    });
    if (focused) container.querySelector<HTMLElement>(`[name="${focused}"]`)?.focus();
    container.dataset.enhanced = 'true';
  }
}

function typedValues(container: HTMLElement): Partial<SignupValues> {
  const form = container.querySelector('form');
  if (!form) return {};
  const data = new FormData(form);
  const text = (name: string) =>
    typeof data.get(name) === 'string' ? (data.get(name) as string) : '';
  return {
    email: text('email'),
    password: text('password'),
    dateOfBirth: text('dateOfBirth'),
    acceptTerms: data.get('acceptTerms') === 'on',
  };
}

function InteractiveSignup({ initial }: { initial: Partial<SignupValues> }) {
  const form = useSignupForm(initial);
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

function InteractiveSignin({ initial }: { initial: Partial<SigninValues> }) {
  const [state, setState] = useState<SigninFormState>({
    values: { email: initial.email ?? '', password: initial.password ?? '' },
    fieldErrors: {},
    submitting: false,
  });
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state.submitting) return;
    const parsed = signinSchema.safeParse(state.values);
    if (!parsed.success) {
      setState((current) => ({
        ...current,
        fieldErrors: problemsByField(parsed.error),
        banner: undefined,
      }));
      return;
    }
    setState((current) => ({ ...current, fieldErrors: {}, banner: undefined, submitting: true }));
    // A page that asked the visitor to sign in first (/signin?next=/account): the server checks
    // that it is a path of this site and answers with it as the redirect.
    const next = new URLSearchParams(window.location.search).get('next');
    const body = next ? { ...parsed.data, next } : parsed.data;
    const result = await submitJson('/api/signin', body, SIGNIN_FAILED, '/');
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
