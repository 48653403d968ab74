import { AccountSection } from './AccountSection.tsx';
import { SubmitButton } from '../../components/Button.tsx';
import { Banner } from '../../components/Banner.tsx';
import { firstMessagesApiPath, verificationPath } from '../../../core/paths.ts';
import { LEVEL_NAMES } from '../../../core/schemas/verification.ts';
import type { AccountView } from './account-view.ts';

/**
 * On /account: whether the member is verified (a link to get verified), and their own small form
 * "Only verified members can start a conversation with me" (docs/product.md section 7).
 */
export function MyVerification({
  verification,
  saved,
}: {
  verification: AccountView['verification'];
  saved: boolean;
}) {
  const level = verification?.level;
  return (
    <AccountSection name="my-verification" title="Verification">
      <p>
        {level ? (
          <>
            You are verified: <span className="badge badge--verified">{LEVEL_NAMES[level]}</span>.{' '}
            <a href={verificationPath()}>See or withdraw your verification</a>
          </>
        ) : (
          <>
            You are not verified. <a href={verificationPath()}>Get verified</a>: a selfie holding a
            code we give you, checked by a moderator.
          </>
        )}
      </p>
      <form className="form my-verification__form" action={firstMessagesApiPath()} method="post">
        {saved && <Banner tone="info">Your choice is saved.</Banner>}
        <label className="checkbox">
          <input
            type="checkbox"
            name="verifiedOnly"
            value="on"
            defaultChecked={verification?.verifiedFirstOnly ?? false}
          />{' '}
          Only verified members can start a conversation with me
        </label>
        <p className="field__hint">
          Others are told that you accept first messages only from verified members, and how to get
          verified. Conversations already started go on.
        </p>
        <SubmitButton kind="secondary">Save</SubmitButton>
      </form>
    </AccountSection>
  );
}
