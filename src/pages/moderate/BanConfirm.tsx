import type { ReactNode } from 'react';
import { Banner } from '../../components/Banner.tsx';
import { formatDate, plural } from '../../../core/format.ts';
import type { BanTarget } from '../../../core/views/moderation.ts';
import { ReasonFields, type ReasonChoices } from './ReasonFields.tsx';

/**
 * The ban's confirmation step: what a ban does to this account, then the form that does it. The
 * queue (/moderate) and the reports (/moderate/reports) both show it before banning, as a section
 * of the page, so it works without JavaScript: each says where the form posts and what it carries.
 */
export function BanConfirm({
  target,
  reasons,
  action,
  fields = {},
  cancel,
  error,
  typed,
  children,
}: {
  target: BanTarget;
  reasons: ReasonChoices;
  /** Where the ban posts. */
  action: string;
  /** Hidden fields it posts too. */
  fields?: Readonly<Record<string, string>>;
  /** Where Cancel leads back to. */
  cancel: string;
  error?: string;
  typed?: Readonly<Record<string, string>>;
  /** What else the ban does here (the reports it closes). */
  children?: ReactNode;
}) {
  const ads = target.adsInReview + target.adsLive;
  return (
    <section className="ban-confirm" id="ban" aria-labelledby="ban-title">
      <h2 id="ban-title">Ban {target.email}?</h2>
      <p>
        Member since {formatDate(target.joinedAt.slice(0, 10))}. Banning the account removes{' '}
        {ads === 0
          ? 'no ads (it has none in review or live)'
          : `its ${plural(target.adsInReview, 'ad')} in review and ${plural(target.adsLive, 'live ad')}`}
        , signs it out everywhere, refuses its sign-in and keeps the address from signing up again.
        It cannot be undone from this page.
      </p>
      {children}
      <form className="form ban-confirm__form" method="post" action={action}>
        {error && <Banner>{error}</Banner>}
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <ReasonFields idPrefix="ban" reasons={reasons} reason={typed?.reason} note={typed?.note} />
        <div className="button-row">
          <button className="button button--danger" type="submit">
            Ban the account
          </button>
          <a className="button button--ghost" href={cancel}>
            Cancel
          </a>
        </div>
      </form>
    </section>
  );
}
