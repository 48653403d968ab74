// https://vike.dev/Page
import { BackLink } from '../../components/BackLink.tsx';
import { ButtonLink, SubmitButton } from '../../components/Button.tsx';
import { FormCardPage } from '../../components/FormCardPage.tsx';
import { AdForm } from '../../components/AdForm.tsx';
import { Banner } from '../../components/Banner.tsx';
import { formatDate } from '../../../core/format.ts';
import {
  accountPath,
  decisionPagePath,
  editAdApiPath,
  postPath,
  renewAdApiPath,
} from '../../../core/paths.ts';
import { renewBeforeEditing, type MemberAdView } from '../../../core/schemas/member-ad-view.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const data = useData<Data>();
  const { ad, values } = data;
  if (!ad || !values)
    return (
      <FormCardPage title="Ad not found" next={{ href: accountPath(), label: 'Back to your ads' }}>
        {data.error && <Banner>{data.error}</Banner>}
        <p>We couldn&apos;t find that ad among yours. It may have been deleted.</p>
      </FormCardPage>
    );
  if (ad.status === 'expired') return <RenewFirst ad={ad} />;
  const live = ad.status === 'live' || ad.status === 'hidden';
  return (
    <section className="container container--post form-page">
      <BackLink href={accountPath()}>← Back to your ads</BackLink>
      <h1>Edit your ad</h1>
      {data.renewed && (
        <div className="edit-ad__notice">
          <Banner tone="info">
            Your ad is renewed
            {ad.expiresOn && <> and live until {formatDate(ad.expiresOn)}</>}. You can edit it now.
          </Banner>
        </div>
      )}
      <p className="form-page__lead">
        {ad.status === 'hidden'
          ? 'Your changes go to a moderator. Your ad stays as it is, off the site, until a moderator has looked at the reports about it.'
          : live
            ? 'Your changes go to a moderator. Until they are approved, your ad stays on the site as it is now.'
            : 'Your changes go to a moderator, who reviews the ad again before it goes live.'}
      </p>
      {ad.statementId !== undefined && (ad.status !== 'live' || ad.rejectedReason) && (
        <p className="form-page__lead">
          <a href={decisionPagePath(ad.statementId)}>
            Why a moderator decided as they did, the rule it applied, and how to appeal
          </a>
        </p>
      )}
      {!ad.editable ? (
        <div className="form-card">
          <Banner>A moderator removed this ad, so it can no longer be edited.</Banner>
        </div>
      ) : !data.canPost ? (
        <div className="form-card">
          <Banner>
            Verify your email address before editing: open the link we emailed you, or ask for a new
            one on your account page.
          </Banner>
        </div>
      ) : (
        <div className="form-card">
          <AdForm
            action={editAdApiPath(ad.id)}
            values={values}
            fieldErrors={data.fieldErrors}
            error={data.error}
            states={data.states}
            cities={[]}
            photos={data.photos}
            fixedPlace={{ state: ad.state, city: ad.city }}
            submitLabel="Send changes for review"
          />
        </div>
      )}
    </section>
  );
}

/** An expired ad: renewed before it is edited, so Renew (while it can be) instead of the form. */
function RenewFirst({ ad }: { ad: MemberAdView }) {
  return (
    <section className="container container--form form-page">
      <BackLink href={accountPath()}>← Back to your ads</BackLink>
      <h1>Renew your ad first</h1>
      <div className="form-card renew-first">
        <p className="renew-first__title">{ad.title}</p>
        <p>{renewBeforeEditing(ad)}</p>
        {ad.renewable ? (
          <form action={renewAdApiPath(ad.id)} method="post">
            <input type="hidden" name="then" value="edit" />
            <SubmitButton kind="primary">
              Renew<span className="visually-hidden"> “{ad.title}”</span>
            </SubmitButton>
          </form>
        ) : (
          <p>
            <ButtonLink kind="primary" href={postPath()}>
              Post a new ad
            </ButtonLink>
          </p>
        )}
      </div>
    </section>
  );
}
