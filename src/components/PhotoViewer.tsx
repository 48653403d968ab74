import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import { adPictures, photoAnchor, PictureImg } from './AdPhotos.tsx';

/**
 * View Photos: each of the ad's pictures large, one at a time, with its place ("Photo 2 of 3"), its
 * alt text and links to the previous and next photo and to close. No JavaScript: each is a target
 * (`#photo-2`) the CSS shows over the page while the address names it (:target), so links, the
 * keyboard (Tab, Enter) and the browser's Back button all work; Close goes back to the photos.
 */
export function PhotoViewer({ ad }: { ad: CompiledAd }) {
  const pictures = adPictures(ad);
  if (pictures.length === 0) return null;
  const count = pictures.length;
  return (
    <section className="photo-viewer" aria-label="Photos">
      {pictures.map((picture, index) => {
        const position = index + 1;
        const captionId = `${photoAnchor(position)}-caption`;
        return (
          <figure
            key={position}
            id={photoAnchor(position)}
            className="photo-viewer__photo"
            aria-labelledby={captionId}
            tabIndex={-1}
          >
            <div className="photo-viewer__frame">
              <PictureImg picture={picture} widest={1280} sizes="100vw" />
            </div>
            <figcaption id={captionId} className="photo-viewer__caption">
              <strong>
                Photo {position} of {count}
              </strong>
              <span>{captionOf(picture.alt, position, count)}</span>
            </figcaption>
            <nav className="photo-viewer__nav" aria-label={`Photo ${position} of ${count}`}>
              {position > 1 && (
                <a className="button button--secondary" href={`#${photoAnchor(position - 1)}`}>
                  ← Previous<span className="visually-hidden"> photo</span>
                </a>
              )}
              {position < count && (
                <a className="button button--secondary" href={`#${photoAnchor(position + 1)}`}>
                  Next<span className="visually-hidden"> photo</span> →
                </a>
              )}
              <a className="button button--primary" href="#ad-photos">
                Close<span className="visually-hidden"> photos</span>
              </a>
            </nav>
          </figure>
        );
      })}
    </section>
  );
}

/** The alt text beside "Photo 2 of 3": without that prefix when it is the default one. */
function captionOf(alt: string, position: number, count: number): string {
  const place = `Photo ${position} of ${count}: `;
  return alt.startsWith(place) ? alt.slice(place.length) : alt;
}
