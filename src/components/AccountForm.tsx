// What the sign-in and sign-up forms share: the form post with its banner and where-next field,
// the way inputs are bound (the server's values without JavaScript, the interactive state with
// it), the email field, and the submit button with its progress line. One place, so the two forms
// cannot drift apart.
import type { ChangeEvent, FormEvent, ReactNode } from 'react';
import { FormProgress, FormStatus } from './Banner.tsx';

/** What the interactive form adds to the static one: values, messages, the in-flight state. */
export interface AccountFormState<Values> {
  values: Values;
  fieldErrors: Partial<Record<keyof Values, string>>;
  banner?: string;
  submitting: boolean;
  /** While submitting takes longer (a busy server): what the form is doing, under the button. */
  progress?: string;
}

/**
 * The form's state as its fields read it: messages, whether it is the interactive form, and `bind`,
 * a text input's value: with `onChange`, the interactive state's (controlled); without, what the
 * server filled in, if anything.
 */
export function accountFormOf<Values>(
  state: AccountFormState<Values> | undefined,
  onChange: ((values: Values) => void) | undefined,
) {
  const controlled = state !== undefined && onChange !== undefined;
  type TextField = { [K in keyof Values]: Values[K] extends string ? K : never }[keyof Values];
  const bind = (name: TextField) =>
    controlled
      ? {
          value: state.values[name] as string,
          onChange: (event: ChangeEvent<HTMLInputElement>) =>
            onChange({ ...state.values, [name]: event.target.value }),
        }
      : state?.values[name]
        ? { defaultValue: state.values[name] as string }
        : {};
  const errors: Partial<Record<keyof Values, string>> = state?.fieldErrors ?? {};
  return { state, controlled, errors, bind };
}

/** What accountFormOf gives. */
export type AccountFormOf = ReturnType<typeof accountFormOf>;

/** The email field of both forms (its id differs). */
export const EMAIL_FIELD = {
  name: 'email',
  type: 'email',
  label: 'Email',
  autoComplete: 'email',
  required: true,
} as const;

interface AccountFormProps {
  /** Where the form posts (/api/signin, /api/signup). */
  action: string;
  /** Its state (accountFormOf): the interactive form is checked by its script, not the browser. */
  form: Pick<AccountFormOf, 'controlled' | 'state'>;
  /** Where the visitor was going (a path of this site), posted with the form. */
  next?: string;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}

/** The form post: a plain one without JavaScript, fetch with it. */
export function AccountForm({ action, form, next, onSubmit, children }: AccountFormProps) {
  return (
    <form
      className="form"
      action={action}
      method="post"
      noValidate={form.controlled}
      onSubmit={onSubmit}
    >
      <FormStatus error={form.state?.banner} />
      {next && <input type="hidden" name="next" value={next} />}
      {children}
    </form>
  );
}

/** The submit button, its label while submitting, and (interactive) the progress line under it. */
export function AccountSubmit({
  label,
  busyLabel,
  form: { state, controlled },
}: {
  label: string;
  busyLabel: string;
  form: Pick<AccountFormOf, 'controlled' | 'state'>;
}) {
  return (
    <>
      <button
        className="button button--primary button--block"
        type="submit"
        disabled={state?.submitting}
      >
        {state?.submitting ? busyLabel : label}
      </button>
      {controlled && <FormProgress text={state?.progress} />}
    </>
  );
}
