import type { ModerationReason } from '../../schemas/moderation-reasons.ts';
import type { QueuePhoto } from '../moderation-view.ts';
import { ReasonFields } from './ReasonFields.tsx';

const CHANGE_LABELS: Record<NonNullable<QueuePhoto['change']>, string> = {
  added: 'New in this edit',
  'taken-out': 'Taken out by this edit',
};

/**
 * An ad's photos in the queue, large enough to judge (the largest size, at most 1280 px wide), in
 * order, each with its number, its alt text, the flag a known photo left on it, and a form to
 * remove it (a <details>, so that it works without JavaScript).
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
  reasons: ReadonlyArray<readonly [ModerationReason, string]>;
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
            <li key={photo.id} className="queue-photo">
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

function PhotoFigure({ photo, count }: { photo: QueuePhoto; count: number }) {
  return (
    <figure className="queue-photo__figure">
      <img
        className="queue-photo__image"
        src={photo.src}
        srcSet={photo.srcSet}
        sizes="(min-width: 1000px) 640px, 100vw"
        width={photo.width}
        height={photo.height}
        alt={photo.alt}
        loading="lazy"
        decoding="async"
      />
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

function RemovePhoto({
  photo,
  reasons,
  typed,
}: {
  photo: QueuePhoto;
  reasons: ReadonlyArray<readonly [ModerationReason, string]>;
  typed?: Readonly<Record<string, string>>;
}) {
  return (
    <details className="queue-photo__remove" open={typed !== undefined}>
      <summary>Remove photo {photo.position}…</summary>
      <form
        className="form"
        method="post"
        action={`/api/moderate/photos/${photo.id}/remove`}
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
