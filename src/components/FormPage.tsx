// The shell of a page built around a member form (posting, deleting an account...): the container
// at the form's width, the heading and the lead paragraph under it. One component, so the form
// pages keep one layout.
import type { ReactNode } from 'react';

interface FormPageProps {
  /** form: the narrow column of sign-in and account forms; post: the wider one of the ad form. */
  width: 'form' | 'post';
  /** The page's own class, beside the shell's. */
  className?: string;
  title: ReactNode;
  /** The paragraph under the heading: what the page does. */
  lead?: ReactNode;
  children: ReactNode;
}

export function FormPage({ width, className, title, lead, children }: FormPageProps) {
  return (
    <section
      className={['container', `container--${width}`, 'form-page', className]
        .filter(Boolean)
        .join(' ')}
    >
      <h1>{title}</h1>
      {lead && <p className="form-page__lead">{lead}</p>}
      {children}
    </section>
  );
}
