import {
  KEPT_PHOTO_FIELD,
  PHOTO_ACCEPT,
  PHOTO_FILES_FIELD,
  photoAltField,
  photoRemoveField,
  type FormPhoto,
} from '../../core/schemas/ad-form.ts';
import {
  MAX_PHOTO_BYTES,
  MAX_PHOTO_PIXELS,
  MAX_PHOTOS,
  PHOTO_ALT_MAX,
  photoAlt,
} from '../../core/schemas/photos.ts';

export interface PhotoFieldProps {
  /** Photos kept (the ad's, or uploads kept from a refused post), in order. */
  photos: readonly FormPhoto[];
  /** The ad's title, for the default alt texts. */
  title: string;
  /** The edit page: each photo can be removed. */
  removable: boolean;
  error?: string;
}

export const PHOTO_HINT = `JPEG, PNG, WebP or HEIF, up to ${MAX_PHOTO_BYTES / 1024 / 1024} MB and ${MAX_PHOTO_PIXELS / 1_000_000} megapixels each. We remove the location and camera details from every photo; a moderator looks at them before they go live.`;

/**
 * The posting form's photos, working without JavaScript (the form is multipart): the photos kept
 * so far, each with its description and, on the edit page, "Remove this photo"; then the file
 * input for more. Photos a moderator removed are shown with the reason, without a control.
 */
export function PhotoField({ photos, title, removable, error }: PhotoFieldProps) {
  const kept = photos.filter((photo) => !photo.removedReason);
  const removed = photos.filter((photo) => photo.removedReason);
  const describedBy = ['ad-photos-hint', error ? 'ad-photos-error' : ''].filter(Boolean).join(' ');
  return (
    <div
      className={error ? 'field field--invalid photo-field' : 'field photo-field'}
      data-field="photos"
      data-photo-field=""
    >
      <label htmlFor="ad-photos">Photos (up to {MAX_PHOTOS})</label>
      {kept.length > 0 && (
        <ol className="photo-field__list" aria-label="Your photos" data-kept-photos="">
          {kept.map((photo, index) => (
            <KeptPhoto
              key={photo.id}
              photo={photo}
              position={index + 1}
              count={kept.length}
              title={title}
              removable={removable}
            />
          ))}
        </ol>
      )}
      <input
        id="ad-photos"
        className="photo-field__input"
        name={PHOTO_FILES_FIELD}
        type="file"
        multiple
        accept={PHOTO_ACCEPT}
        aria-describedby={describedBy}
        {...(error ? { 'aria-invalid': true as const } : {})}
      />
      <p className="field__hint" id="ad-photos-hint">
        {PHOTO_HINT}
      </p>
      {error && (
        <p className="field__error" id="ad-photos-error">
          {error}
        </p>
      )}
      {removed.length > 0 && (
        <ul className="photo-field__removed">
          {removed.map((photo) => (
            <li key={photo.id}>Removed by a moderator: {photo.removedReason}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function KeptPhoto({
  photo,
  position,
  count,
  title,
  removable,
}: {
  photo: FormPhoto;
  position: number;
  count: number;
  title: string;
  removable: boolean;
}) {
  const altId = `photo-alt-${photo.id}`;
  const fallback = photoAlt('', position, count, title);
  return (
    <li className="photo-field__photo" data-photo-id={photo.id}>
      <input type="hidden" name={KEPT_PHOTO_FIELD} value={photo.id} />
      <img
        className="photo-field__thumb"
        src={photo.previewUrl}
        width={photo.width}
        height={photo.height}
        alt={photoAlt(photo.alt, position, count, title)}
      />
      <div className="photo-field__details">
        <p className="photo-field__caption">
          Photo {position}
          {photo.pending && (
            <span className="photo-field__badge" data-photo-note="">
              Waiting for review
            </span>
          )}
        </p>
        <label htmlFor={altId}>Describe this photo (optional)</label>
        <input
          id={altId}
          name={photoAltField(photo.id)}
          type="text"
          maxLength={PHOTO_ALT_MAX}
          autoComplete="off"
          placeholder={fallback}
          defaultValue={photo.alt}
        />
        {removable && (
          <label className="photo-field__remove">
            <input
              type="checkbox"
              name={photoRemoveField(photo.id)}
              value="1"
              defaultChecked={photo.remove === true}
            />{' '}
            Remove this photo
          </label>
        )}
      </div>
    </li>
  );
}
