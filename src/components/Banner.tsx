import type { ReactNode } from 'react';

/** A message across a form: red for errors (docs/product.md: the request's error in a red banner). */
export function Banner({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'info';
  children: ReactNode;
}) {
  return (
    <p className={`banner banner--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

/**
 * Where a form shows its request error. Prerendered empty; the server fills it when a form post
 * without JavaScript is refused (server/forms/refusal.ts), the interactive form renders into it.
 */
export function FormStatus({ error }: { error?: string }) {
  return (
    <div className="form-status" data-form-status="true">
      {error && <Banner>{error}</Banner>}
    </div>
  );
}
