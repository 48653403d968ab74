// https://vike.dev/Page
import { MemberAction } from '../../components/MemberAction.tsx';
import { AdBadges } from '../../components/AdBadges.tsx';
import { AdPlaceholder } from '../../components/AdPlaceholder.tsx';
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx';
import { formatDate } from '../../format.ts';
import { cityPath, homePath, statePath } from '../../paths.ts';
import { SEEKS_LABELS } from '../../schemas/seeks.ts';
import { useData } from '../../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { ad, head, contactEmail } = useData<Data>();
  const reportHref = `mailto:${contactEmail}?subject=${encodeURIComponent(`Report ad ${ad.id}`)}&body=${encodeURIComponent(
    `I am reporting this ad: ${head.canonicalUrl}\n\nWhat is wrong with it:\n`,
  )}`;
  return (
    <div className="container container--medium ad-page">
      <Breadcrumbs
        trail={[
          { label: 'Home', href: homePath() },
          { label: ad.state, href: statePath(ad.state) },
          { label: ad.city, href: cityPath(ad.state, ad.city) },
          { label: `Ad ${ad.id}` },
        ]}
      />
      <a className="back-link" href={cityPath(ad.state, ad.city)}>
        ← Back to {ad.city} ads
      </a>
      <article className="ad-detail" aria-labelledby="ad-title">
        <div className="ad-detail__media">
          {ad.images[0] ? (
            <img src={ad.images[0]} alt="" width="320" height="320" />
          ) : (
            <AdPlaceholder adId={ad.id} />
          )}
        </div>
        <div className="ad-detail__main">
          <h1 id="ad-title">{ad.title}</h1>
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
          <p className="ad-detail__description">{ad.description}</p>
          <p className="ad-detail__posted">
            Posted in {ad.city}, {ad.state} on{' '}
            <time dateTime={ad.postedAt}>{formatDate(ad.postedAt)}</time>
          </p>
          <div className="button-row">
            {ad.images.length > 0 && (
              <MemberAction
                action="view-photos"
                href={ad.images[0]}
                className="button button--secondary"
              >
                View Photos
              </MemberAction>
            )}
            <MemberAction action="message" adId={ad.id} className="button button--primary">
              Send Message
            </MemberAction>
            <MemberAction action="join" className="button button--ghost">
              Join Free
            </MemberAction>
          </div>
          <p className="ad-detail__report">
            <a href={reportHref}>Report this ad</a>
          </p>
        </div>
      </article>
    </div>
  );
}
