// https://vike.dev/Page
import { FormPage } from '../../components/FormPage.tsx';
import { SubmitButton } from '../../components/Button.tsx';
import { FormCardPage } from '../../components/FormCardPage.tsx';
import { AdForm } from '../../components/AdForm.tsx';
import { accountPath, adsApiPath, guidePath, verifyResendApiPath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const data = useData<Data>();
  if (!data.canPost)
    return (
      <FormCardPage title="Verify your email to post">
        <p>
          Before your first ad, we need to know your email address works: it is how we tell you
          about your ads. Open the link we emailed to <strong>{data.member?.email}</strong>, then
          come back to this page.
        </p>
        <form className="form" action={verifyResendApiPath()} method="post">
          <p className="account-verify__text">
            No mail? Check your spam folder, or ask for a new link.
          </p>
          <SubmitButton kind="secondary">Resend the link</SubmitButton>
        </form>
        <p className="form__footnote account-footnote">
          <a href={accountPath()}>Go to your account</a>
        </p>
      </FormCardPage>
    );
  return (
    <FormPage
      width="post"
      title="Post an ad"
      lead={
        <>
          A moderator reads every ad before it goes live. You can have up to {data.maxActiveAds} ads
          in review or live at once. Not sure what to write? Read{' '}
          <a href={guidePath('writing-a-good-ad')}>how to write a good ad</a>.
        </>
      }
    >
      <div className="form-card">
        <AdForm
          action={adsApiPath()}
          values={data.values}
          fieldErrors={data.fieldErrors}
          error={data.error}
          states={data.states}
          cities={data.cities}
          photos={data.photos}
          submitLabel="Submit for review"
        />
      </div>
    </FormPage>
  );
}
