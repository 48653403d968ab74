// On /signup and /signin with JavaScript: the same forms, validated in the browser and sent
// with fetch, with the in-flight button text and the error banners of the dialog. The script
// takes over the form as the server rendered it, whenever it arrives: what was typed, the focus,
// a refused post's banner and field messages, and where to go afterwards (the hidden `next`).
import { homePath, signinApiPath } from '../../core/paths.ts';
import { utcDay } from '../../core/days.ts';
import { useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { SigninForm, type SigninFormState } from '../components/SigninForm.tsx';
import { SignupForm, type SignupValues } from '../components/SignupForm.tsx';
import { latestAdultBirthDate, problemsByField, signinSchema } from '../../core/schemas/signup.ts';
import { submitJson } from './submit-json.ts';
import { useLeaving } from './useLeaving.ts';
import { useSignupForm } from './useSignupForm.ts';

export const SIGNIN_FAILED = 'Sign-in failed. Please try again.';
/** Under the button while a busy server makes the sign-in wait its turn (submit-json.ts). */
export const SIGNIN_WAITING = 'Lots of people are signing in right now: still working…';

/** The form as the page shows it before the script takes over. */
export interface RenderedForm {
  values: SignupValues;
  banner?: string;
  fieldErrors: Record<string, string>;
  next?: string;
}

export function enhanceForms(): void {
  for (const container of document.querySelectorAll<HTMLElement>('[data-enhance]')) {
    const form = container.querySelector('form');
    if (!form) continue;
    const rendered = renderedForm(form);
    const focused = container.contains(document.activeElement)
      ? document.activeElement?.getAttribute('name')
      : null;
    const root = createRoot(container);
    flushSync(() => {
      if (container.dataset.enhance === 'signup-form')
        root.render(<InteractiveSignup rendered={rendered} />);
      if (container.dataset.enhance === 'signin-form')
        root.render(<InteractiveSignin rendered={rendered} />);
    });
    if (focused) container.querySelector<HTMLElement>(`[name="${focused}"]`)?.focus();
    container.dataset.enhanced = 'true';
  }
}

/** Reads what the server rendered (and what was typed since) out of the form. */
export function renderedForm(form: HTMLFormElement): RenderedForm {
  const data = new FormData(form);
  const text = (name: string) =>
    typeof data.get(name) === 'string' ? (data.get(name) as string) : '';
  const fieldErrors: Record<string, string> = {};
  for (const message of form.querySelectorAll('.field__error')) {
    const input = message.closest('.field')?.querySelector<HTMLInputElement>('input[name]');
    if (input && message.textContent) fieldErrors[input.name] = message.textContent;
  }
  const banner = form.querySelector('[data-form-status] .banner--error')?.textContent;
  // The server puts `next` in the form; a static host serving the prerendered file cannot.
  const next =
    form.querySelector<HTMLInputElement>('input[type="hidden"][name="next"]')?.value ||
    new URLSearchParams(window.location.search).get('next');
  return {
    values: {
      email: text('email'),
      password: text('password'),
      dateOfBirth: text('dateOfBirth'),
      state: text('state'),
      acceptTerms: data.get('acceptTerms') === 'on',
    },
    fieldErrors,
    ...(banner ? { banner } : {}),
    ...(next ? { next } : {}),
  };
}

function InteractiveSignup({ rendered }: { rendered: RenderedForm }) {
  const form = useSignupForm(rendered, rendered.next);
  return (
    <SignupForm
      idPrefix="signup"
      maxBirthDate={latestAdultBirthDate(utcDay())}
      next={rendered.next}
      state={form.state}
      onChange={form.onChange}
      onSubmit={(event) => void form.onSubmit(event)}
    />
  );
}

function InteractiveSignin({ rendered }: { rendered: RenderedForm }) {
  const [state, setState] = useState<SigninFormState>({
    values: { email: rendered.values.email, password: rendered.values.password },
    fieldErrors: rendered.fieldErrors,
    ...(rendered.banner ? { banner: rendered.banner } : {}),
    submitting: false,
  });
  const leaving = useLeaving();
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
    // Where to go afterwards (/signin?next=/account): the server checks that it is a path of this
    // site and answers with it as the redirect.
    const next = rendered.next;
    const body = next ? { ...parsed.data, next } : parsed.data;
    const result = await submitJson(signinApiPath(), body, SIGNIN_FAILED, homePath(), {
      busyStatus: SIGNIN_WAITING,
      onBusy: (progress) => setState((current) => ({ ...current, progress })),
      signal: leaving.current?.signal,
    });
    if (result.ok) window.location.assign(result.redirectUrl);
    else
      setState((current) => ({
        ...current,
        submitting: false,
        progress: undefined,
        banner: result.error,
      }));
  };
  return (
    <SigninForm
      state={state}
      next={rendered.next}
      onChange={(values) => setState((current) => ({ ...current, values }))}
      onSubmit={(event) => void onSubmit(event)}
    />
  );
}
