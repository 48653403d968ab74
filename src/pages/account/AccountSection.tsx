import type { ReactNode } from 'react';

/**
 * One section of /account: `name` is its block's class and names its heading's id
 * (`{name}-title`), which labels it; then what it holds.
 */
export function AccountSection({
  name,
  title,
  children,
}: {
  name: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section className={name} aria-labelledby={`${name}-title`}>
      <h2 id={`${name}-title`}>{title}</h2>
      {children}
    </section>
  );
}
