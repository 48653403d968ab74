import type { ReactNode } from 'react';
import { formatDate } from '../../core/format.ts';
import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import { SEEKS_LABELS } from '../../core/schemas/seeks.ts';
import { AdBadges } from './AdBadges.tsx';
import { AdPagePictures, adPictures, photoAnchor } from './AdPhotos.tsx';
import { MemberAction, type MemberActionName } from './MemberAction.tsx';

/** A member action, or in a preview its look alone (nothing to click). */
function Action({
  preview,
  action,
  adId,
  href,
  className,
  children,
}: {
  preview: boolean;
  action: MemberActionName;
  adId?: number;
  href?: string;
  className: string;
  children: ReactNode;
}) {
  return preview ? (
    <span className={className}>{children}</span>
  ) : (
    <MemberAction action={action} adId={adId} href={href} className={className}>
      {children}
    </MemberAction>
  );
}

/**
 * An ad as its page shows it: its pictures (the first large, each opening View Photos: the ad
 * page puts PhotoViewer after it), title, badges, age and seeks, the description with its
 * line breaks, where and when it was posted, the member actions and Report this ad. The ad page
 * shows it, and the moderation queue shows each ad with it, as it will look on the site (with the
 * policy scanner's words marked: `title` and `description` given as marked text; `preview`: the
 * actions look as they will but do nothing).
 */
export function AdDetail({
  ad,
  reportHref,
  headingLevel = 1,
  titleId = 'ad-title',
  title = ad.title,
  description = ad.description,
  preview = false,
}: {
  ad: CompiledAd;
  /** Where Report this ad leads; a preview has none. */
  reportHref?: string;
  headingLevel?: 1 | 3;
  titleId?: string;
  title?: ReactNode;
  description?: ReactNode;
  preview?: boolean;
}) {
  const Heading = headingLevel === 1 ? 'h1' : 'h3';
  return (
    <article className="ad-detail" aria-labelledby={titleId}>
      <div className="ad-detail__media">
        <AdPagePictures ad={ad} preview={preview} />
      </div>
      <div className="ad-detail__main">
        <Heading id={titleId}>{title}</Heading>
        <AdBadges ad={ad} />
        <dl className="facts">
          <div>
            <dt className="visually-hidden">Age</dt>
            <dd>Age: {ad.age}</dd>
          </div>
          <div>
            <dt className="visually-hidden">Seeking</dt>
            <dd>
              {SEEKS_LABELS[ad.seeks]} ({ad.seeks})
            </dd>
          </div>
        </dl>
        <p className="ad-detail__description">{description}</p>
        <p className="ad-detail__posted">
          Posted in {ad.city}, {ad.state} on{' '}
          <time dateTime={ad.postedAt}>{formatDate(ad.postedAt)}</time>
        </p>
        <div className="button-row">
          {adPictures(ad).length > 0 && (
            <Action
              preview={preview}
              action="view-photos"
              href={`#${photoAnchor(1)}`}
              className="button button--secondary"
            >
              View Photos
            </Action>
          )}
          <Action
            preview={preview}
            action="message"
            adId={ad.id}
            className="button button--primary"
          >
            Send Message
          </Action>
          <Action preview={preview} action="join" className="button button--ghost">
            Join Free
          </Action>
        </div>
        <p className="ad-detail__report">
          {reportHref && !preview ? (
            <a href={reportHref}>Report this ad</a>
          ) : (
            <span>Report this ad</span>
          )}
        </p>
      </div>
    </article>
  );
}
