import { MemberAction } from './MemberAction.tsx';
import { adPath } from '../../core/paths.ts';
import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import { AdBadges } from './AdBadges.tsx';
import { AdCardPicture } from './AdPhotos.tsx';

/**
 * One ad in a city's list: picture, title link, badges, a three-line excerpt and Reply; in a
 * search by distance, how far away its city is ("12 mi away, in Vancouver, WA").
 */
export function AdCard({ ad, away }: { ad: CompiledAd; away?: string }) {
  const titleId = `ad-${ad.id}-title`;
  return (
    <article
      className={ad.featured ? 'ad-card ad-card--featured' : 'ad-card'}
      aria-labelledby={titleId}
    >
      <div className="ad-card__media">
        <AdCardPicture ad={ad} />
      </div>
      <div className="ad-card__body">
        <h2 className="ad-card__title" id={titleId}>
          <a href={adPath(ad.state, ad.city, ad.id)}>{ad.title}</a>
        </h2>
        <AdBadges ad={ad} withFacts />
        {away && <p className="ad-card__away">{away}</p>}
        <p className="ad-card__excerpt">{ad.description}</p>
      </div>
      <div className="ad-card__actions">
        <MemberAction action="reply" adId={ad.id} className="button button--secondary">
          Reply<span className="visually-hidden"> to “{ad.title}”</span>
        </MemberAction>
      </div>
    </article>
  );
}
