import type { ReactNode } from 'react';

/** A responsive grid of cards; `columns` names the grid's breakpoint set in tiles-and-ads.css. */
export function CardGrid({
  columns,
  children,
  label,
}: {
  columns: 'states' | 'cities' | 'cards' | 'quad';
  children: ReactNode;
  label?: string;
}) {
  return (
    <ul className={`card-grid card-grid--${columns}`} aria-label={label}>
      {children}
    </ul>
  );
}
