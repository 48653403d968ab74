import type { FormEvent } from 'react';
import { MemberAction } from './MemberAction.tsx';
import { AccountForm, AccountSubmit, accountFormOf, EMAIL_FIELD } from './AccountForm.tsx';
import type { AccountFormState } from './AccountForm.tsx';
import { FormField } from './FormField.tsx';
import { forgotPath, signinApiPath, signupThenPath } from '../../core/paths.ts';

export interface SigninValues {
  email: string;
  password: string;
}

export type SigninFormState = AccountFormState<SigninValues>;

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
  const form = accountFormOf(state, onChange);
  const { errors, bind } = form;
  return (
    <AccountForm action={signinApiPath()} form={form} next={next} onSubmit={onSubmit}>
      <FormField id="signin-email" {...EMAIL_FIELD} error={errors.email} {...bind('email')} />
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
      <AccountSubmit label="Sign In" busyLabel="Signing In..." form={form} />
      <p className="form__footnote">
        <a href={forgotPath()}>Forgot your password?</a>
      </p>
      <p className="form__footnote">
        New here?{' '}
        <MemberAction action="join" href={signupThenPath(next)}>
          Create a free account
        </MemberAction>
      </p>
    </AccountForm>
  );
}
