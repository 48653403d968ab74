// https://vike.dev/Page
import { ButtonLink, SubmitButton } from '../../components/Button.tsx';
import { FormPage } from '../../components/FormPage.tsx';
import { FormStatus } from '../../components/Banner.tsx';
import { DoneMark } from '../../components/DoneMark.tsx';
import { FormField } from '../../components/FormField.tsx';
import {
  accountDataApiPath,
  accountPath,
  deleteAccountApiPath,
  homePath,
  legalPath,
} from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { deleted, member, error, brand } = useData<Data>();
  if (deleted)
    return (
      <section className="container container--form form-page">
        <div className="form-card success">
          <DoneMark />
          <h1>Your account is deleted</h1>
          <p>
            Your account and your ads are gone, and you are signed out everywhere. Your messages
            stay with the members you wrote to for 30 days, then they are deleted. We have sent a
            last mail to your address to confirm it.
          </p>
          <p>You can go on browsing {brand} without an account, or sign up again at any time.</p>
          <div className="button-row">
            <ButtonLink kind="primary" href={homePath()}>
              Return to home
            </ButtonLink>
          </div>
        </div>
      </section>
    );
  return (
    <FormPage
      width="form"
      className="delete-account"
      title="Delete my account"
      lead={
        <>
          This deletes your {brand} account{member ? ` (${member.email})` : ''} for good. It cannot
          be undone. Want a copy first? <a href={accountDataApiPath()}>Download my data</a>.
        </>
      }
    >
      <div className="form-card delete-account__card">
        <h2 className="delete-account__heading">What is deleted</h2>
        <ul className="delete-account__list">
          <li>
            Your account: your email address, password and date of birth. You are signed out on
            every device.
          </li>
          <li>Your ads, whatever their status. Live ones leave the site within a few moments.</li>
          <li>
            Your messages, at once where nobody else is left to read them. The members you wrote
            with keep their own side of the conversation, and see that you have left; they never had
            your email address.
          </li>
          <li>The members you blocked, and anyone who blocked you: those blocks end.</li>
          <li>Your verification, and your verification selfie if we still keep it.</li>
          <li>Your devices for notifications: nothing more is sent to them.</li>
        </ul>
        <h2 className="delete-account__heading">What stays</h2>
        <ul className="delete-account__list">
          <li>
            The members you wrote with keep your messages in their conversations for 30 days, so
            that they can still read them and report them to our moderators if they need to. Then
            your messages are deleted. Nobody else sees them.
          </li>
          <li>
            The moderation log’s records of what moderators did with your ads or account. They
            cannot be changed; moderators see the account as a deleted account.
          </li>
          <li>
            A report keeps the copy of the ad or conversation it was made about, so moderators can
            still judge it. Reports you made stay, without your account on them.
          </li>
          <li>An address banned by a moderator stays banned: deleting never lifts a ban.</li>
        </ul>
        <p className="delete-account__more">
          Our <a href={legalPath('privacy')}>Privacy Policy</a> says what we keep and for how long.
        </p>
        {member?.role === 'moderator' ? (
          <p className="delete-account__moderator" role="status">
            You are a moderator. An operator must take the moderator role away first (that change is
            logged), then you can delete the account here.
          </p>
        ) : (
          <form className="form delete-account__form" action={deleteAccountApiPath()} method="post">
            <FormStatus error={error} />
            <FormField
              id="delete-password"
              name="password"
              type="password"
              label="Your password"
              autoComplete="current-password"
              hint="To be sure it is you, enter the password you sign in with."
              required
            />
            <div className="delete-account__actions">
              <SubmitButton kind="danger">Delete my account</SubmitButton>
              <ButtonLink kind="ghost" href={accountPath()}>
                Keep my account
              </ButtonLink>
            </div>
          </form>
        )}
      </div>
    </FormPage>
  );
}
