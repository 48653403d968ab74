// A section of a content page (home, about): a band across the page, its container and its
// heading, which names the section for screen readers (aria-labelledby). One component, so every
// section is named the same way.
import type { ReactNode } from 'react';

interface PageSectionProps {
  /** The section's name: its heading's id is `{id}-heading`. */
  id: string;
  heading: ReactNode;
  /** tinted: a band of colour behind the section. */
  tone?: 'plain' | 'tinted';
  /** narrow: a column of text at reading width. */
  width?: 'narrow';
  children: ReactNode;
}

export function PageSection({ id, heading, tone = 'plain', width, children }: PageSectionProps) {
  return (
    <section
      className={tone === 'tinted' ? 'section section--tinted' : 'section'}
      aria-labelledby={`${id}-heading`}
    >
      <div className={width ? `container container--${width}` : 'container'}>
        <h2 id={`${id}-heading`}>{heading}</h2>
        {children}
      </div>
    </section>
  );
}
