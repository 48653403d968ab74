import { Banner } from '../../components/Banner.tsx';
import { formatDate } from '../../../core/format.ts';
import {
  adPath,
  decisionPagePath,
  deleteAdApiPath,
  editAdPath,
  postPath,
  renewAdApiPath,
} from '../../../core/paths.ts';
import type { MemberAdShownStatus, MemberAdView } from '../../../core/schemas/member-ad-view.ts';
import { SEEKS_LABELS } from '../../../core/schemas/seeks.ts';

const STATUS_LABELS: Record<MemberAdShownStatus, string> = {
  review: 'In review',
  live: 'Live',
  hidden: 'Off the site: reported',
  rejected: 'Rejected',
  expired: 'Expired',
  removed: 'Removed',
};

/** The member's ads on /account, newest first, each with its status and what can be done. */
export function MyAds({
  ads,
  canPost,
  notice,
  error,
  statements = {},
}: {
  ads: readonly MemberAdView[];
  canPost: boolean;
  notice?: string;
  error?: string;
  /** The newest statement of reasons about each ad, by its id. */
  statements?: Readonly<Record<number, number>>;
}) {
  return (
    <section className="my-ads" aria-labelledby="my-ads-title">
      <div className="my-ads__header">
        <h2 id="my-ads-title">My ads</h2>
        <a className="button button--primary button--small" href={postPath()}>
          Post an ad
        </a>
      </div>
      {notice && <Banner tone="info">{notice}</Banner>}
      {error && <Banner>{error}</Banner>}
      {ads.length === 0 ? (
        <p className="my-ads__empty">
          You have no ads yet.{' '}
          {canPost ? 'Post one: a moderator reviews it before it goes live.' : ''}
        </p>
      ) : (
        <ul className="my-ads__list">
          {ads.map((ad) => (
            <MyAd key={ad.id} ad={ad} canPost={canPost} statementId={statements[ad.id]} />
          ))}
        </ul>
      )}
    </section>
  );
}

function MyAd({
  ad,
  canPost,
  statementId,
}: {
  ad: MemberAdView;
  canPost: boolean;
  statementId: number | undefined;
}) {
  const titleId = `my-ad-${ad.id}-title`;
  return (
    <li className="my-ad" aria-labelledby={titleId}>
      <div className="my-ad__head">
        <h3 className="my-ad__title" id={titleId}>
          {ad.status === 'live' ? (
            <a href={adPath(ad.state, ad.city, ad.id)}>{ad.title}</a>
          ) : (
            ad.title
          )}
        </h3>
        <span className={`ad-status ad-status--${ad.status}`}>{STATUS_LABELS[ad.status]}</span>
        {ad.pending && (
          <span className="ad-status ad-status--review">Your changes are in review</span>
        )}
      </div>
      <p className="my-ad__facts">
        {ad.city}, {ad.state} · Age {ad.age} · {SEEKS_LABELS[ad.seeks]} · Posted{' '}
        {formatDate(ad.createdAt.slice(0, 10))}
      </p>
      <StatusDetail ad={ad} />
      {statementId !== undefined && explained(ad) && (
        <p className="my-ad__detail">
          <a href={decisionPagePath(statementId)}>
            Why, the rule it applied, and how to appeal
            <span className="visually-hidden"> (“{ad.title}”)</span>
          </a>
        </p>
      )}
      <div className="my-ad__actions">
        {ad.editable && canPost && (
          <a className="button button--secondary button--small" href={editAdPath(ad.id)}>
            Edit<span className="visually-hidden"> “{ad.title}”</span>
          </a>
        )}
        {ad.renewable && (
          <form action={renewAdApiPath(ad.id)} method="post">
            <button className="button button--secondary button--small" type="submit">
              Renew<span className="visually-hidden"> “{ad.title}”</span>
            </button>
          </form>
        )}
        <form
          action={deleteAdApiPath(ad.id)}
          method="post"
          data-confirm={`Delete “${ad.title}”? This cannot be undone.`}
        >
          <button className="button button--ghost button--small" type="submit">
            Delete<span className="visually-hidden"> “{ad.title}”</span>
          </button>
        </form>
      </div>
    </li>
  );
}

/** An ad whose status a decision explains: rejected, removed, hidden, or its edit rejected. */
const explained = (ad: MemberAdView) =>
  ad.status === 'rejected' ||
  ad.status === 'removed' ||
  ad.status === 'hidden' ||
  (ad.status === 'live' &&
    !ad.pending &&
    ad.rejectedReason !== undefined &&
    ad.rejectedReason !== null);

function StatusDetail({ ad }: { ad: MemberAdView }) {
  switch (ad.status) {
    case 'review':
      return <p className="my-ad__detail">A moderator will read it before it goes live.</p>;
    case 'live':
      return (
        <p className="my-ad__detail">
          Expires on{' '}
          {ad.expiresOn && <time dateTime={ad.expiresOn}>{formatDate(ad.expiresOn)}</time>}.{' '}
          <a href={adPath(ad.state, ad.city, ad.id)}>View it on the site</a>.
          {ad.renewable && ' You can renew it now for another 30 days.'}
          {ad.pending && ' Your edit shows once a moderator approves it.'}
          {!ad.pending && ad.rejectedReason && (
            <>
              {' '}
              Your last changes were not approved: {ad.rejectedReason}
              {ad.rejectedNote && ` (${ad.rejectedNote})`}.
            </>
          )}
        </p>
      );
    case 'hidden':
      return (
        <p className="my-ad__detail">
          People reported this ad, so it is off the site until a moderator has looked at the
          reports. It comes back if they find nothing wrong; if they remove it, we email you why.
        </p>
      );
    case 'expired':
      return (
        <p className="my-ad__detail">
          Expired on{' '}
          {ad.expiresOn && <time dateTime={ad.expiresOn}>{formatDate(ad.expiresOn)}</time>}.{' '}
          {ad.renewable
            ? 'Renew it to put it back on the site for 30 days; then you can edit it.'
            : 'It expired more than 30 days ago; post it again as a new ad.'}
        </p>
      );
    case 'rejected':
      return (
        <div className="my-ad__detail my-ad__detail--rejected">
          <p>
            <strong>Moderator&apos;s reason:</strong> {ad.rejectedReason ?? 'No reason was given.'}
          </p>
          {ad.rejectedNote && (
            <p>
              <strong>Note:</strong> {ad.rejectedNote}
            </p>
          )}
          <p>Edit the ad to send it for review again.</p>
        </div>
      );
    case 'removed':
      return (
        <p className="my-ad__detail">
          A moderator removed this ad; it is no longer on the site.
          {ad.rejectedReason && ` Reason: ${ad.rejectedReason}.`}
          {ad.rejectedNote && ` ${ad.rejectedNote}`}
        </p>
      );
  }
}
