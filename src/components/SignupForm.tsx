import type { ChangeEvent, FormEvent } from 'react';
import { legalPath, safetyNoticePath, signinThenPath, signupApiPath } from '../../core/paths.ts';
import { PASSWORD_MIN } from '../../core/schemas/password-length.ts';
import { AccountForm, AccountSubmit, accountFormOf, EMAIL_FIELD } from './AccountForm.tsx';
import type { AccountFormState } from './AccountForm.tsx';
import { FormField } from './FormField.tsx';
import { StateSelect } from './StateSelect.tsx';

export interface SignupValues {
  email: string;
  password: string;
  dateOfBirth: string;
  /** The state the member lives in, or '' (optional: age assurance). */
  state: string;
  acceptTerms: boolean;
}

/** What the interactive form adds to the static one: values, messages, the in-flight state. */
export type SignupFormState = AccountFormState<SignupValues>;

interface SignupFormProps {
  /** Prefix of the element ids, unique on the page (the dialog and the /signup page differ). */
  idPrefix: string;
  /** The latest date of birth the date picker offers (18 years ago). */
  maxBirthDate?: string;
  /**
   * Without `onChange`: what the server fills in (a refused post's message and values). With it:
   * the interactive form's state.
   */
  state?: SignupFormState;
  /** Where the visitor was going (a path of this site): posted with the form, kept through sign-in. */
  next?: string;
  onChange?: (values: SignupValues) => void;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
}

/**
 * The sign-up form. Without JavaScript it is a plain form post to the API, which answers with a
 * redirect to /success or this page again with the error; with JavaScript it is controlled by
 * its state and submits with fetch.
 */
export function SignupForm({
  idPrefix,
  maxBirthDate,
  state,
  next,
  onChange,
  onSubmit,
}: SignupFormProps) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const form = accountFormOf(state, onChange);
  const { errors, bind } = form;
  return (
    <AccountForm action={signupApiPath()} form={form} next={next} onSubmit={onSubmit}>
      <FormField id={id('email')} {...EMAIL_FIELD} error={errors.email} {...bind('email')} />
      <FormField
        id={id('password')}
        name="password"
        type="password"
        label="Password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN}
        hint={`At least ${PASSWORD_MIN} characters.`}
        error={errors.password}
        {...bind('password')}
      />
      <FormField
        id={id('dateOfBirth')}
        name="dateOfBirth"
        type="date"
        label="Date of birth"
        autoComplete="bday"
        required
        max={maxBirthDate}
        hint="Only used to confirm that you are 18 or older."
        error={errors.dateOfBirth}
        {...bind('dateOfBirth')}
      />
      <StateSelect
        id={id('state')}
        name="state"
        label="Your state (optional)"
        hint="Where you live. Some states' laws ask members there to check their age before posting or writing; we ask only where one does."
        error={errors.state}
        {...(state && onChange
          ? {
              value: state.values.state,
              onChange: (event: ChangeEvent<HTMLSelectElement>) =>
                onChange({ ...state.values, state: event.target.value }),
            }
          : state?.values.state
            ? { defaultValue: state.values.state }
            : {})}
      />
      <div
        className={errors.acceptTerms ? 'field field--check field--invalid' : 'field field--check'}
      >
        <input
          id={id('acceptTerms')}
          name="acceptTerms"
          type="checkbox"
          required
          aria-invalid={errors.acceptTerms ? true : undefined}
          aria-describedby={errors.acceptTerms ? id('acceptTerms-error') : undefined}
          {...(state && onChange
            ? {
                checked: state.values.acceptTerms,
                onChange: (event: ChangeEvent<HTMLInputElement>) =>
                  onChange({ ...state.values, acceptTerms: event.target.checked }),
              }
            : {})}
        />
        <label htmlFor={id('acceptTerms')}>
          I am 18 or older and accept the <a href={legalPath('terms')}>Terms</a>
        </label>
        {errors.acceptTerms && (
          <p className="field__error" id={id('acceptTerms-error')}>
            {errors.acceptTerms}
          </p>
        )}
      </div>
      <AccountSubmit label="Continue" busyLabel="Creating Account..." form={form} />
      <p className="form__footnote">
        Already a member? <a href={signinThenPath(next)}>Sign in</a>
      </p>
      <p className="form__footnote">
        We do not run criminal background checks. Before you meet anyone, read our{' '}
        <a href={safetyNoticePath()}>online dating safety notice</a>.
      </p>
    </AccountForm>
  );
}
