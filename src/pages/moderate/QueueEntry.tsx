import { LEVEL_NAMES } from '../../../core/schemas/verification.ts';
import { AdDetail } from '../../components/AdDetail.tsx';
import { MarkedText } from '../../components/MarkedText.tsx';
import { formatDate, formatMoment, plural } from '../../../core/format.ts';
import { moderateAdApiPath, moderatePath } from '../../../core/paths.ts';
import { SEEKS_LABELS } from '../../../core/schemas/seeks.ts';
import type { EditedField, QueueItem } from '../../../core/views/moderation.ts';
import { daysAgo } from './moments.ts';
import { PhotosElsewhere } from './PhotosElsewhere.tsx';
import { QueuePhotos } from './QueuePhotos.tsx';
import { ReasonFields, type ReasonFormProps } from './ReasonFields.tsx';
import { ScamRecord } from './ScamRecord.tsx';

const FIELD_NAMES: Record<EditedField, string> = {
  title: 'title',
  description: 'description',
  age: 'age',
  seeks: 'what they seek',
  photos: 'photos',
};

/** "title", "title and age", "title, age and description" */
const listed = (names: string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;

/**
 * One ad waiting for review: what it is, the ad as it will look, the poster, and the actions
 * (`typed`: a refused action on this ad or one of its photos).
 */
export function QueueEntry({ item, reasons, typed }: { item: QueueItem } & ReasonFormProps) {
  const adTyped = typed?.adId === String(item.adId) ? typed : undefined;
  const { ad, marks } = item;
  const names = (scam: boolean) => [
    ...new Set(marks.filter((mark) => (mark.family !== undefined) === scam).map((m) => m.term)),
  ];
  const [terms, signals] = [names(false), names(true)];
  const edit = item.kind === 'edit';
  const actionPath = (action: 'approve' | 'reject' | 'remove') =>
    moderateAdApiPath(item.adId, action);
  const headingId = `queue-${item.adId}-heading`;
  return (
    <li className="queue-item" id={`ad-${item.adId}`} aria-labelledby={headingId}>
      <h2 className="queue-item__heading" id={headingId}>
        <span className={`status ${edit ? 'status--edit' : 'status--pending'}`}>
          {edit ? 'Edit of a live ad' : 'New ad'}
        </span>{' '}
        Ad {item.adId} in {ad.city}, {ad.state}
      </h2>
      <p className="queue-item__when">
        Submitted <time dateTime={item.submittedAt}>{formatMoment(item.submittedAt)}</time>
      </p>
      {edit && item.live && item.changed && (
        <p className="queue-item__changes">
          {item.changed.length === 0
            ? 'The edit changes nothing visible.'
            : `The edit changes the ${listed(item.changed.map((field) => FIELD_NAMES[field]))}.`}{' '}
          Until it is approved the ad stays live as it was; it expires on{' '}
          {formatDate(item.live.expiresAt)} either way.
        </p>
      )}
      <p className="queue-item__flags">
        {terms.length === 0 ? (
          'The policy scanner flagged no words.'
        ) : (
          <>
            Flagged for a closer look: <MarkList names={terms} />
          </>
        )}
      </p>
      {signals.length > 0 && (
        <p className="queue-item__flags queue-item__flags--scam">
          <strong>Scam signals:</strong> <MarkList names={signals} />. Scammers use these to ask for
          money or move people off the site; the words are marked in the ad.
        </p>
      )}
      <div className="queue-item__body">
        <div className="queue-item__preview" aria-label="The ad as it will look on the site">
          <AdDetail
            ad={ad}
            preview
            headingLevel={3}
            titleId={`queue-${item.adId}-title`}
            title={<MarkedText text={ad.title} marks={marks.filter((m) => m.field === 'title')} />}
            description={
              <MarkedText
                text={ad.description}
                marks={marks.filter((m) => m.field === 'description')}
              />
            }
          />
          {edit && item.live && (
            <details className="queue-item__live">
              <summary>The live ad as it is now</summary>
              <p className="queue-item__live-title">{item.live.title}</p>
              <p>
                Age: {item.live.age} · {SEEKS_LABELS[item.live.seeks]} ({item.live.seeks})
              </p>
              <p className="ad-detail__description">{item.live.description}</p>
            </details>
          )}
        </div>
        <aside className="poster" aria-label="The poster">
          <h3 className="poster__heading">Poster</h3>
          <dl className="poster__facts">
            <dt>Email</dt>
            <dd>{item.poster.email}</dd>
            <dt>Member since</dt>
            <dd>
              {formatDate(item.poster.joinedAt.slice(0, 10))} (
              {daysAgo(item.poster.daysSinceJoining)})
            </dd>
            <dt>Verified</dt>
            <dd>
              {item.poster.verified ? (
                <span className="badge badge--verified">
                  {LEVEL_NAMES[item.poster.verified.level]}
                  {item.poster.verified.level === 'photos'
                    ? ` (${plural(item.poster.verified.photos, 'photo')} checked)`
                    : ''}
                </span>
              ) : (
                'Not verified'
              )}
            </dd>
            {item.poster.ageCheck && (
              <>
                <dt>Age</dt>
                <dd data-age-check>{item.poster.ageCheck}</dd>
              </>
            )}
            <dt>History</dt>
            <dd>
              {plural(item.poster.approved, 'ad')} approved, {item.poster.rejected} rejected,{' '}
              {item.poster.removed} removed;{' '}
              {item.poster.reports === 0 ? 'no reports' : plural(item.poster.reports, 'report')}{' '}
              against their ads and messages
            </dd>
          </dl>
          <ScamRecord record={item.poster.scamRecord} />
          <a className="poster__ban" href={`${moderatePath()}?ban=${item.poster.accountId}#ban`}>
            Ban this account…
          </a>
        </aside>
      </div>
      {(item.photos.length > 0 || item.livePhotos) && (
        <div className="queue-item__photos">
          <QueuePhotos
            id={`queue-${item.adId}-photos`}
            heading={`${item.livePhotos ? 'Photos after the edit' : 'Photos'} (${item.photos.length})`}
            photos={item.photos}
            reasons={reasons}
            removable={() => true}
            typed={typed}
          />
          {item.livePhotos && (
            <QueuePhotos
              id={`queue-${item.adId}-live-photos`}
              heading={`Photos of the live ad now (${item.livePhotos.length})`}
              photos={item.livePhotos}
              reasons={reasons}
              removable={(photo) => photo.change === 'taken-out'}
              typed={typed}
            />
          )}
        </div>
      )}
      <PhotosElsewhere item={item} />
      <div className="queue-item__actions">
        <form className="queue-item__approve" method="post" action={actionPath('approve')}>
          <input type="hidden" name="revision" value={item.revision} />
          <button className="button button--primary" type="submit">
            {edit ? 'Approve the edit' : 'Approve'}
          </button>
        </form>
        <form className="form queue-item__reject" method="post" action={actionPath('reject')}>
          <input type="hidden" name="revision" value={item.revision} />
          <ReasonFields
            idPrefix={`ad-${item.adId}`}
            reasons={reasons}
            reason={adTyped?.reason}
            note={adTyped?.note}
          />
          <div className="button-row">
            <button className="button button--secondary" type="submit">
              {edit ? 'Reject the edit' : 'Reject'}
            </button>
            {edit && (
              <button
                className="button button--ghost"
                type="submit"
                formAction={actionPath('remove')}
              >
                Remove the live ad
              </button>
            )}
          </div>
        </form>
      </div>
    </li>
  );
}

/** Marked words or scam families, once each, as the queue lists them. */
function MarkList({ names }: { names: readonly string[] }) {
  return (
    <>
      {names.map((name, index) => (
        <span key={name}>
          {index > 0 && ', '}
          <mark className="policy-mark">{name}</mark>
        </span>
      ))}
    </>
  );
}
