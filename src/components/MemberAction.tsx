import type { ReactNode } from 'react';
import { signupPath } from '../paths.ts';

export type MemberActionName =
  'join' | 'post' | 'get-started' | 'reply' | 'view-photos' | 'message';

/**
 * A member-only action (Post Your Ad, Join Free, Reply, …): a real link to /signup, which the
 * page script turns into the sign-up dialog.
 */
export function MemberAction({
  action,
  className,
  children,
}: {
  action: MemberActionName;
  className?: string;
  children: ReactNode;
}) {
  return (
    <a className={className} href={signupPath()} data-member-action={action}>
      {children}
    </a>
  );
}
