// The site's buttons as markup: a link that looks like a button and a form's submit button, with
// the `button` classes (base.css) built in one place rather than written out on every page.
import type { ReactNode } from 'react';

interface ButtonLook {
  /** primary (the page's main action), secondary, ghost (a quiet link), danger (cannot be undone) */
  kind: 'primary' | 'secondary' | 'ghost' | 'danger';
  size?: 'small' | 'large';
  /** As wide as its form. */
  block?: boolean;
  children: ReactNode;
}

/** The classes of a button that looks like `kind`. */
export function buttonClasses({ kind, size, block }: Omit<ButtonLook, 'children'>): string {
  return ['button', `button--${kind}`, size && `button--${size}`, block && 'button--block']
    .filter(Boolean)
    .join(' ');
}

/** A link that looks like a button. */
export function ButtonLink({ href, children, ...look }: ButtonLook & { href: string }) {
  return (
    <a className={buttonClasses(look)} href={href}>
      {children}
    </a>
  );
}

/** A form's submit button. */
export function SubmitButton({ children, ...look }: ButtonLook) {
  return (
    <button className={buttonClasses(look)} type="submit">
      {children}
    </button>
  );
}
