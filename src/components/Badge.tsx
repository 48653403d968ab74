import type { ReactNode } from 'react';

type Tone = 'neutral' | 'accent' | 'sample' | 'featured' | 'verified';

/** A small label on an ad: age, what the poster seeks, Verified, Featured, Sample ad. */
export function Badge({
  tone = 'neutral',
  title,
  children,
}: {
  tone?: Tone;
  title?: string;
  children: ReactNode;
}) {
  return (
    <span className={`badge badge--${tone}`} title={title}>
      {children}
    </span>
  );
}
