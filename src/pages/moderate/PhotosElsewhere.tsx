import { formatDate } from '../../../core/format.ts';
import { moderateAdApiPath } from '../../../core/paths.ts';
import { MODERATION_REASONS } from '../../../core/schemas/moderation-reasons.ts';
import type { PhotoElsewhereView, QueueItem, QueuePhoto } from '../../../core/views/moderation.ts';

/**
 * An ad's photos that are also on another member's ad (docs/product.md section 10): a warning in
 * words, both photos side by side, a link to the other ad, and a reject for "someone else's photos
 * or identity" that posts without JavaScript. Only moderators see it; the member is never told.
 */
export function PhotosElsewhere({ item }: { item: QueueItem }) {
  const found = item.photosElsewhere ?? [];
  if (found.length === 0) return null;
  const headingId = `queue-${item.adId}-elsewhere`;
  const edit = item.kind === 'edit';
  return (
    <section className="photos-elsewhere" aria-labelledby={headingId}>
      <h3 className="photos-elsewhere__heading" id={headingId}>
        <span aria-hidden="true">⚠ </span>
        {found.length === 1
          ? "A photo of this ad is on another member's ad"
          : `${found.length} photos of this ad are on other members' ads`}
      </h3>
      <ul className="photos-elsewhere__list">
        {found.map((match) => (
          <Match key={match.photo.id} match={match} />
        ))}
      </ul>
      <form
        className="photos-elsewhere__reject"
        method="post"
        action={moderateAdApiPath(item.adId, 'reject')}
      >
        <input type="hidden" name="revision" value={item.revision} />
        <input type="hidden" name="reason" value="identity" />
        <button className="button button--secondary" type="submit">
          {edit ? 'Reject the edit' : 'Reject'}: {MODERATION_REASONS.identity}
        </button>
      </form>
    </section>
  );
}

function Match({ match }: { match: PhotoElsewhereView }) {
  const { photo, otherPhoto } = match;
  return (
    <li className="photos-elsewhere__match">
      <p className="photos-elsewhere__text">
        Photo {photo.position}: this photo is also on ad {match.otherAdId} of another member (posted{' '}
        {formatDate(match.otherPostedOn)}), {match.otherStanding}.{' '}
        <a href={match.otherLink.href}>{match.otherLink.text}</a>
      </p>
      <div className="photos-elsewhere__pair">
        <figure className="photos-elsewhere__figure">
          <PairImage
            image={photo}
            blurred={photo.blurred}
            alt={`This ad's photo ${photo.position}`}
          />
          <figcaption>
            This ad, photo {photo.position}
            {photo.blurred ? ' (blurred: Show photo above shows both)' : ''}
          </figcaption>
        </figure>
        <figure className="photos-elsewhere__figure">
          {otherPhoto ? (
            <PairImage
              image={otherPhoto}
              blurred={photo.blurred}
              alt={`The photo on ad ${match.otherAdId}`}
            />
          ) : (
            <p className="photos-elsewhere__gone">
              That photo was removed by a moderator: it is no longer shown.
            </p>
          )}
          <figcaption>Ad {match.otherAdId} of another member</figcaption>
        </figure>
      </div>
    </li>
  );
}

/** One photo of the pair, side by side with the other (both blurred while this ad's one is). */
function PairImage({
  image,
  blurred,
  alt,
}: {
  image: Pick<QueuePhoto, 'width' | 'height' | 'src' | 'srcSet'>;
  blurred: boolean;
  alt: string;
}) {
  return (
    <img
      className={blurred ? 'photos-elsewhere__image--blurred' : undefined}
      src={image.src}
      srcSet={image.srcSet || undefined}
      sizes="(min-width: 1000px) 320px, 45vw"
      width={image.width}
      height={image.height}
      alt={alt}
      loading="lazy"
      decoding="async"
    />
  );
}
