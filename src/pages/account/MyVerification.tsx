import { AccountSection } from './AccountSection.tsx';
import { REACH_ANCHOR, verificationPath } from '../../../core/paths.ts';
import { LEVEL_NAMES } from '../../../core/schemas/verification.ts';
import type { AccountView } from '../../../core/views/account.ts';

/**
 * On /account: whether the member is verified (a link to get verified, or to see or withdraw it).
 * Who may write to them first is "Who may reach me"'s (docs/product.md section 7).
 */
export function MyVerification({ verification }: { verification: AccountView['verification'] }) {
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
      <p>
        <a href={`#${REACH_ANCHOR}`}>Who may reach me</a> lets you accept first messages only from
        verified members.
      </p>
    </AccountSection>
  );
}
