import type { ChangeEvent, FormEvent } from 'react';
import { MemberAction } from './MemberAction.tsx';
import { FormProgress, FormStatus } from './Banner.tsx';
import { FormField } from './FormField.tsx';
import { forgotPath, signupThenPath } from '../paths.ts';

export interface SigninValues {
  email: string;
  password: string;
}

export interface SigninFormState {
  values: SigninValues;
  fieldErrors: Partial<Record<keyof SigninValues, string>>;
  banner?: string;
  submitting: boolean;
  /** While submitting takes longer (a busy server): what the form is doing, under the button. */
  progress?: string;
}

interface SigninFormProps {
  /**
   * Without `onChange`: what the server fills in (a refused post's message and email). With it:
   * the interactive form's state.
   */
  state?: SigninFormState;
  /** Where to go after signing in (a path of this site), posted with the form. */
  next?: string;
  onChange?: (values: SigninValues) => void;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
}

/** The sign-in form: a plain form post without JavaScript, fetch with it. */
export function SigninForm({ state, next, onChange, onSubmit }: SigninFormProps) {
  const errors = state?.fieldErrors ?? {};
  const controlled = state !== undefined && onChange !== undefined;
  const bind = (name: keyof SigninValues) =>
    controlled
      ? {
          value: state.values[name],
          onChange: (event: ChangeEvent<HTMLInputElement>) =>
            onChange({ ...state.values, [name]: event.target.value }),
        }
      : state?.values[name]
        ? { defaultValue: state.values[name] }
        : {};
  return (
    <form
      className="form"
      action="/api/signin"
      method="post"
      noValidate={controlled}
      onSubmit={onSubmit}
    >
      <FormStatus error={state?.banner} />
      {next && <input type="hidden" name="next" value={next} />}
      <FormField
        id="signin-email"
        name="email"
        type="email"
        label="Email"
        autoComplete="email"
        required
        error={errors.email}
        {...bind('email')}
      />
      <FormField
        id="signin-password"
        name="password"
        type="password"
        label="Password"
        autoComplete="current-password"
        required
        error={errors.password}
        {...bind('password')}
      />
      <button
        className="button button--primary button--block"
        type="submit"
        disabled={state?.submitting}
      >
        {state?.submitting ? 'Signing In...' : 'Sign In'}
      </button>
      {controlled && <FormProgress text={state.progress} />}
      <p className="form__footnote">
        <a href={forgotPath()}>Forgot your password?</a>
      </p>
      <p className="form__footnote">
        New here?{' '}
        <MemberAction action="join" href={signupThenPath(next)}>
          Create a free account
        </MemberAction>
      </p>
    </form>
  );
}
