// The heading every moderation page opens with (the queue, reports, appeals, the log): its title,
// a lead line under it and, on the right, the links to the other moderation pages. One component,
// so the moderation pages keep one look and one set of links.
import type { ReactNode } from 'react';
import { Banner } from '../../components/Banner.tsx';
import { moderatePath, moderationLogPath } from '../../../core/paths.ts';

interface ModerationHeaderProps {
  title: string;
  /** The line under the title: how much is waiting, or what the page is. */
  lead: ReactNode;
  /** Shown under the lead (the queue's photo setting). */
  below?: ReactNode;
  /** The links to the other moderation pages, as a navigation. */
  links?: readonly ModerationLink[];
  /** Instead of `links`: what stands on the right (the log's one way back to the queue). */
  aside?: ReactNode;
}

export function ModerationHeader({ title, lead, below, links, aside }: ModerationHeaderProps) {
  return (
    <header className="moderation__header">
      <div>
        <h1>{title}</h1>
        <p className="moderation__lead">{lead}</p>
        {below}
      </div>
      {links ? <ModerationNav links={links} /> : aside}
    </header>
  );
}

/** A link to another moderation page, as the header shows it. */
export interface ModerationLink {
  href: string;
  label: ReactNode;
}

/** The links of the pages reached from the queue: back to the queue, and the log. */
export const QUEUE_AND_LOG: readonly ModerationLink[] = [
  { href: moderatePath(), label: 'Queue' },
  { href: moderationLogPath(), label: 'Moderation log' },
];

/** The header's links to the other moderation pages. */
function ModerationNav({ links }: { links: readonly ModerationLink[] }) {
  return (
    <nav className="moderation__nav" aria-label="Moderation">
      {links.map((link) => (
        <ModerationLinkButton key={link.href} {...link} />
      ))}
    </nav>
  );
}

export function ModerationLinkButton({ href, label }: ModerationLink) {
  return (
    <a className="button button--ghost button--small" href={href}>
      {label}
    </a>
  );
}

/** Where a moderation action's notice is announced (a live region, there even when empty). */
export function ActionNotice({ notice }: { notice?: string }) {
  return (
    <div className="moderation__status" role="status">
      {notice && <Banner tone="info">{notice}</Banner>}
    </div>
  );
}
