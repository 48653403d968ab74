// The link above a page's heading back to where the member came from ("← Back to your ads").
import type { ReactNode } from 'react';

export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a className="back-link" href={href}>
      {children}
    </a>
  );
}
