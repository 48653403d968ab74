import type { ReactNode } from 'react';
import { removePhotoApiPath, revealPhotoApiPath } from '../../../core/paths.ts';
import type { QueuePhoto } from '../../../core/views/moderation.ts';
import { ReasonFields, type ReasonChoices, type ReasonFormProps } from './ReasonFields.tsx';

const CHANGE_LABELS: Record<NonNullable<QueuePhoto['change']>, string> = {
  added: 'New in this edit',
  'taken-out': 'Taken out by this edit',
};

/**
 * An ad's photos in the queue, large enough to judge (the largest size, at most 1280 px wide), in
 * order, each with its number, its alt text, its explicit score's label, the flag a known photo
 * left on it, and a form to remove it (a <details>, so that it works without JavaScript). A photo
 * likely explicit (or every photo, by the moderator's setting) is blurred until they show it.
 */
export function QueuePhotos({
  id,
  heading,
  photos,
  reasons,
  removable,
  typed,
}: {
  /** Unique on the page: the heading's id. */
  id: string;
  heading: string;
  photos: readonly QueuePhoto[];
  reasons: ReasonChoices;
  /** Which photos get a remove form here (a photo on both lists of an edit gets one form only). */
  removable: (photo: QueuePhoto) => boolean;
  /** A refused removal: which photo, and the reason and note typed. */
  typed?: Readonly<Record<string, string>>;
}) {
  const headingId = `${id}-heading`;
  return (
    <section className="queue-photos" aria-labelledby={headingId}>
      <h3 className="queue-photos__heading" id={headingId}>
        {heading}
      </h3>
      {photos.length === 0 ? (
        <p className="queue-photos__none">No photos.</p>
      ) : (
        <ol className="queue-photos__list">
          {photos.map((photo) => (
            <li key={photo.id} className="queue-photo" id={`photo-${photo.id}`}>
              <PhotoFigure photo={photo} count={photos.length} />
              {removable(photo) && (
                <RemovePhoto
                  photo={photo}
                  reasons={reasons}
                  typed={typed?.photoId === String(photo.id) ? typed : undefined}
                />
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * A photo's image as the moderator's shield shows it: its sizes, or only its blurred rendering
 * (the alt text says so; the photo's own waits in data-alt for the reveal's script).
 */
export function ShieldedImage({
  photo,
}: {
  photo: Pick<QueuePhoto, 'position' | 'alt' | 'src' | 'srcSet' | 'width' | 'height' | 'blurred'>;
}) {
  return (
    <img
      className={`queue-photo__image${photo.blurred ? ' queue-photo__image--blurred' : ''}`}
      src={photo.src}
      srcSet={photo.srcSet || undefined}
      sizes={photo.srcSet ? '(min-width: 1000px) 640px, 100vw' : undefined}
      width={photo.width}
      height={photo.height}
      alt={photo.blurred ? `Photo ${photo.position}, blurred` : photo.alt}
      loading="lazy"
      decoding="async"
      data-alt={photo.blurred ? photo.alt : undefined}
    />
  );
}

function PhotoFigure({ photo, count }: { photo: QueuePhoto; count: number }) {
  const image = <ShieldedImage photo={photo} />;
  return (
    <figure className="queue-photo__figure" tabIndex={-1}>
      {photo.blurred ? <BlurredPhoto photo={photo} image={image} /> : image}
      <figcaption className="queue-photo__caption">
        <span className="queue-photo__number">
          Photo {photo.position} of {count}
        </span>
        {photo.change && (
          <span className={`status status--${photo.change === 'added' ? 'edit' : 'pending'}`}>
            {CHANGE_LABELS[photo.change]}
          </span>
        )}
        <span className="queue-photo__alt">
          Alt text{photo.ownAlt ? '' : ' (default)'}: {photo.alt}
        </span>
        {photo.scoreLabel && (
          <span
            className={`queue-photo__score${photo.likelyExplicit ? ' queue-photo__score--explicit' : ''}`}
          >
            {photo.scoreLabel}
          </span>
        )}
        {photo.flag && (
          <strong className="queue-photo__flag">
            <span aria-hidden="true">⚠ </span>
            {photo.flag}
          </strong>
        )}
      </figcaption>
    </figure>
  );
}

/**
 * A photo kept out of sight: its blurred rendering, why it is blurred, and "Show photo", a plain
 * form (the moderator's choice is kept by the server; with JavaScript the photo shows in place).
 * `from`: the page the form comes back to without JavaScript, when not the ads' queue.
 */
export function BlurredPhoto({
  photo,
  image,
  from,
}: {
  photo: Pick<QueuePhoto, 'id' | 'position' | 'likelyExplicit' | 'scoreLabel'>;
  image: ReactNode;
  from?: 'verifications';
}) {
  const why = photo.likelyExplicit ? photo.scoreLabel : 'Blurred by your setting';
  return (
    <div className="queue-photo__shield" data-photo-shield="">
      {image}
      <form
        className="queue-photo__reveal"
        method="post"
        action={revealPhotoApiPath(photo.id)}
        data-photo-reveal=""
      >
        {from && <input type="hidden" name="from" value={from} />}
        <p className="queue-photo__why">{why}</p>
        <button
          className="button button--small"
          type="submit"
          aria-label={`Show photo ${photo.position}`}
        >
          Show photo
        </button>
      </form>
    </div>
  );
}

function RemovePhoto({ photo, reasons, typed }: { photo: QueuePhoto } & ReasonFormProps) {
  return (
    <details className="queue-photo__remove" open={typed !== undefined}>
      <summary>Remove photo {photo.position}…</summary>
      <form
        className="form"
        method="post"
        action={removePhotoApiPath(photo.id)}
        aria-label={`Remove photo ${photo.position}`}
      >
        <ReasonFields
          idPrefix={`photo-${photo.id}`}
          reasons={reasons}
          reason={typed?.reason}
          note={typed?.note}
        />
        <button className="button button--danger button--small" type="submit">
          Remove this photo
        </button>
      </form>
    </details>
  );
}
