import { Banner } from '../../components/Banner.tsx';
import { formatDate, plural } from '../../format.ts';
import { moderatePath } from '../../paths.ts';
import type { ModerationReason } from '../../schemas/moderation-reasons.ts';
import type { BanTarget } from '../moderation-view.ts';
import { ReasonFields } from './ReasonFields.tsx';

/** The ban's confirmation step: what a ban does to this account, then the form that does it. */
export function BanConfirm({
  target,
  reasons,
  error,
  typed,
}: {
  target: BanTarget;
  reasons: ReadonlyArray<readonly [ModerationReason, string]>;
  error?: string;
  typed?: Readonly<Record<string, string>>;
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
      <form
        className="form ban-confirm__form"
        method="post"
        action={`/api/moderate/accounts/${target.accountId}/ban`}
      >
        {error && <Banner>{error}</Banner>}
        <ReasonFields idPrefix="ban" reasons={reasons} reason={typed?.reason} note={typed?.note} />
        <div className="button-row">
          <button className="button button--danger" type="submit">
            Ban the account
          </button>
          <a className="button button--ghost" href={moderatePath()}>
            Cancel
          </a>
        </div>
      </form>
    </section>
  );
}
