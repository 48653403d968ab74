// The sign-up dialog: a modal <dialog> holding the sign-up form. Focus moves into it and stays
// inside; X and Escape close it; focus returns to the button that opened it; the page behind
// does not scroll.
import { utcDay } from '../../core/days.ts';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { LineIcon } from '../components/LineIcon.tsx';
import { SignupForm } from '../components/SignupForm.tsx';
import { latestAdultBirthDate } from '../../core/schemas/signup.ts';
import { useSignupForm } from './useSignupForm.ts';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

export function SignupDialog({
  brand,
  next,
  onClose,
}: {
  brand: string;
  /** Where the visitor was going (the reply screen of an ad, /post): where sign-up leads. */
  next?: string;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const form = useSignupForm({}, next);
  // Leave the modal state first: while it lasts, the page behind is inert and cannot take focus.
  const close = () => {
    dialog.current?.close();
    onClose();
  };

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    element.showModal();
    element.querySelector<HTMLInputElement>('input[name="email"]')?.focus();
    document.documentElement.classList.add('has-dialog');
    return () => document.documentElement.classList.remove('has-dialog');
  }, []);

  // Keep Tab and Shift+Tab cycling inside the dialog.
  const trapFocus = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab') return;
    const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="signup-dialog-title"
      onKeyDown={trapFocus}
      onCancel={(event) => {
        // Escape: close through React so focus goes back to the opener.
        event.preventDefault();
        close();
      }}
    >
      <div className="dialog__header">
        <h2 id="signup-dialog-title">Join {brand} free</h2>
        <button type="button" className="dialog__close" aria-label="Close" onClick={close}>
          <LineIcon d="m5 5 10 10M15 5 5 15" />
        </button>
      </div>
      <p className="dialog__lead">
        Create an account to post ads and reply to members. Adults 18 and over only.
      </p>
      <SignupForm
        idPrefix="dialog"
        maxBirthDate={latestAdultBirthDate(utcDay())}
        next={next}
        state={form.state}
        onChange={form.onChange}
        onSubmit={(event) => void form.onSubmit(event)}
      />
    </dialog>
  );
}
