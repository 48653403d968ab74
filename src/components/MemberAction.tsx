import type { ReactNode } from 'react';
import { newMessagePath, postPath, signupPath } from '../../core/paths.ts';

export type MemberActionName =
  'join' | 'post' | 'get-started' | 'reply' | 'view-photos' | 'message';

/**
 * A member-only action (Post Your Ad, Join Free, Reply, …): a real link to where the action
 * happens — /post, the reply screen of the ad (`adId`), /signup, or `href` (View Photos) — which
 * the page script turns into the sign-up dialog for visitors who are not signed in. Members follow
 * it; Join Free is hidden for them.
 */
export function MemberAction({
  action,
  adId,
  href,
  className,
  children,
}: {
  action: MemberActionName;
  /** Reply and Send Message: the ad replied to. */
  adId?: number;
  /** View Photos: the photo. */
  href?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <a className={className} href={href ?? hrefOf(action, adId)} data-member-action={action}>
      {children}
    </a>
  );
}

function hrefOf(action: MemberActionName, adId: number | undefined): string {
  if (action === 'post') return postPath();
  if ((action === 'reply' || action === 'message') && adId !== undefined)
    return newMessagePath(adId);
  return signupPath();
}
