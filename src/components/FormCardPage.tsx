// The page a member form's folder shows when there is no form to show (not found, a verification
// needed): the narrow form page with its heading and one card below it, ending with the way on
// when there is one. One component, so these answers look the same on every page.
import type { ReactNode } from 'react';
import { ButtonLink } from './Button.tsx';

interface FormCardPageProps {
  title: ReactNode;
  /** The way on, last in the card: a primary button. */
  next?: { href: string; label: string };
  children: ReactNode;
}

export function FormCardPage({ title, next, children }: FormCardPageProps) {
  return (
    <section className="container container--form form-page">
      <h1>{title}</h1>
      <div className="form-card">
        {children}
        {next && (
          <p>
            <ButtonLink kind="primary" href={next.href}>
              {next.label}
            </ButtonLink>
          </p>
        )}
      </div>
    </section>
  );
}
