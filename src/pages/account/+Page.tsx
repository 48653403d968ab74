// https://vike.dev/Page
import { Banner, FormStatus } from '../../components/Banner.tsx';
import {
  accountPath,
  forgotPath,
  messagesPath,
  signinThenPath,
  verifyResendApiPath,
} from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';
import { MyAds } from './MyAds.tsx';
import { MyData } from './MyData.tsx';
import { MyVerification } from './MyVerification.tsx';
import { MyAgeCheck } from './MyAgeCheck.tsx';
import { MyDecisions } from './MyDecisions.tsx';
import { MyNotifications } from './MyNotifications.tsx';
import { MyReports } from './MyReports.tsx';
import { MySavedSearches } from './MySavedSearches.tsx';
import { WhoMayReachMe } from './WhoMayReachMe.tsx';
import { MessageSettings } from './MessageSettings.tsx';

export default function Page() {
  const data = useData<Data>();
  const { member, linkSent, error, ads, done, adsError, savedSearches, savedError, savedDone } =
    data;
  if (!member)
    return (
      <section className="container container--form form-page">
        <h1>Your account</h1>
        <p>
          <a href={signinThenPath(accountPath())}>Sign in</a> to see your account.
        </p>
      </section>
    );
  return (
    <section className="container container--post form-page">
      <h1>Your account</h1>
      <div className="form-card">
        <dl className="account-facts">
          <dt>Email</dt>
          <dd>{member.email}</dd>
          <dt>Email status</dt>
          <dd>
            {member.emailVerified ? (
              <span className="status status--good">Verified</span>
            ) : (
              <span className="status status--pending">Not verified yet</span>
            )}
          </dd>
        </dl>
        {!member.emailVerified && (
          <form className="form account-verify" action={verifyResendApiPath()} method="post">
            <FormStatus error={error} />
            {linkSent && (
              <Banner tone="info">
                We have sent a new link to {member.email}. It works once, for 24 hours.
              </Banner>
            )}
            <p className="account-verify__text">
              To post ads and reply to members, open the link we emailed to {member.email}. No mail?
              Check your spam folder, or ask for a new link.
            </p>
            <button className="button button--secondary" type="submit">
              Resend the link
            </button>
          </form>
        )}
        <p className="form__footnote account-footnote">
          Your conversations with other members are in <a href={messagesPath()}>Messages</a>.
        </p>
        <p className="form__footnote account-footnote">
          Want a new password? <a href={forgotPath()}>Reset it by email</a>
        </p>
      </div>
      <MyAds
        ads={ads}
        canPost={member.emailVerified}
        notice={done}
        error={adsError}
        statements={data.adStatements}
      />
      <MyVerification verification={data.verification} />
      <MyAgeCheck ageAssurance={data.ageAssurance} notice={data.stateDone} />
      <MyDecisions statements={data.statements} />
      <MyReports reports={data.reports} />
      <MySavedSearches searches={savedSearches} notice={savedDone} error={savedError} />
      <MessageSettings
        settings={data.messages}
        notice={data.messagesDone}
        error={data.messagesError}
      />
      <WhoMayReachMe
        settings={data.reach}
        notice={data.reachDone}
        error={data.reachError}
        errorField={data.reachErrorField}
      />
      {data.push && (data.push.available || data.push.devices.length > 0) && (
        <MyNotifications
          push={data.push}
          brand={data.brand}
          settings={data.pushSettings}
          notice={data.pushDone}
          error={data.pushError}
        />
      )}
      <MyData />
    </section>
  );
}
