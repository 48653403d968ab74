// https://vike.dev/Page
import { Banner } from '../../components/Banner.tsx';
import { formatMoment, plural } from '../../../core/format.ts';
import { approveVerificationApiPath, refuseVerificationApiPath } from '../../../core/paths.ts';
import { CHECKLIST, VERIFICATION_REFUSALS } from '../../../core/schemas/verification.ts';
import { useData } from '../../renderer/useData.ts';
import { ActionNotice, ModerationHeader, QUEUE_AND_LOG } from '../moderate/ModerationHeader.tsx';
import type { Data } from './+data.ts';
import { BlurredPhoto, ShieldedImage } from '../moderate/QueuePhotos.tsx';
import type {
  ReviewPhoto,
  VerificationReviewItem,
} from '../../../core/views/moderate-verifications.ts';

export default function Page() {
  const { view, notice, error, typed } = useData<Data>();
  const items = view?.items ?? [];
  return (
    <section className="container moderation">
      <ModerationHeader
        title="Verifications"
        lead={
          items.length === 0
            ? 'No selfie is waiting.'
            : `${plural(view?.open ?? items.length, 'selfie')} waiting, oldest first. Each time you open this page, your view of each selfie is logged.`
        }
        links={QUEUE_AND_LOG}
      />
      <ActionNotice notice={notice} />
      {error && <Banner>{error}</Banner>}
      <ol className="verifications__list">
        {items.map((item) => (
          <Review
            key={item.id}
            item={item}
            note={typed.verificationId === String(item.id) ? (typed.note ?? '') : ''}
          />
        ))}
      </ol>
    </section>
  );
}

function Review({ item, note }: { item: VerificationReviewItem; note: string }) {
  const id = `verification-${item.id}`;
  return (
    <li className="form-card verification-review" id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        Verification {item.id}: {item.member.email}
      </h2>
      <p>Sent {formatMoment(item.submittedAt)}</p>
      <p className="verification-review__expected">
        Expected code: <strong className="verification-review__code">{item.code}</strong>. Expected
        pose: <strong>{item.pose}</strong>.
      </p>
      <div className="verification-review__compare">
        <div className="verification-review__pictures">
          <figure>
            <img
              src={item.selfie.src}
              width={item.selfie.width}
              height={item.selfie.height}
              alt={`Verification selfie of ${item.member.email}`}
            />
            <figcaption>The selfie (never public; deleted once approved)</figcaption>
          </figure>
        </div>
        <form className="form" action={approveVerificationApiPath(item.id)} method="post">
          <fieldset>
            <legend>Checklist (all must hold to approve)</legend>
            {Object.entries(CHECKLIST).map(([key, label]) => (
              <label key={key} className="checkbox">
                <input type="checkbox" name={`check-${key}`} value="on" /> {label}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>
              Which of the member&apos;s photos show the same person? (none: Real person only)
            </legend>
            {item.photos.length === 0 && <p>The member has no photo on an ad live or in review.</p>}
            <ul className="verification-review__photos">
              {item.photos.map((photo) => (
                <li key={photo.id} id={`photo-${photo.id}`}>
                  <label className="checkbox">
                    <input type="checkbox" name={`photo-${photo.id}`} value="on" /> Same person:
                    photo {photo.id} of {photo.ad}
                  </label>
                  <ReviewPhotoFigure photo={photo} />
                </li>
              ))}
            </ul>
          </fieldset>
          <button className="button button--primary" type="submit">
            Approve
          </button>
        </form>
      </div>
      <form className="form" action={refuseVerificationApiPath(item.id)} method="post">
        <div className="field">
          <label htmlFor={`${id}-reason`}>Reason to refuse</label>
          <select id={`${id}-reason`} name="reason" defaultValue="">
            <option value="" disabled>
              Choose a reason
            </option>
            {Object.entries(VERIFICATION_REFUSALS).map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-note`}>Note to the member (optional)</label>
          <textarea id={`${id}-note`} name="note" rows={2} maxLength={500} defaultValue={note} />
        </div>
        <button className="button button--secondary" type="submit">
          Refuse
        </button>
      </form>
    </li>
  );
}

/**
 * One of the member's photos, behind the moderator's shield as in the ads' queue: one likely
 * explicit (or every one, by their setting) is blurred, with why, until they choose to see it.
 */
function ReviewPhotoFigure({ photo }: { photo: ReviewPhoto }) {
  const image = <ShieldedImage photo={photo} />;
  return (
    <figure className="verification-review__photo" tabIndex={-1}>
      {photo.blurred ? <BlurredPhoto photo={photo} image={image} from="verifications" /> : image}
      {photo.scoreLabel && <figcaption>{photo.scoreLabel}</figcaption>}
    </figure>
  );
}
