// https://vike.dev/Page
import { Banner, FormStatus } from '../../components/Banner.tsx';
import { SubmitButton } from '../../components/Button.tsx';
import { FormPage } from '../../components/FormPage.tsx';
import { formatMoment } from '../../../core/format.ts';
import {
  accountPath,
  legalPath,
  verificationChallengeApiPath,
  verificationSelfieApiPath,
  verificationWithdrawApiPath,
} from '../../../core/paths.ts';
import { LEVEL_NAMES } from '../../../core/schemas/verification.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';
import type { VerificationView } from '../../../core/views/verification.ts';

export default function Page() {
  const { view, notice, error, field } = useData<Data>();
  // Beside the file field when the form is there; else (no open code) at the top.
  const selfieError = field === 'selfie' && view?.challenge && !view.inReview ? error : undefined;
  return (
    <FormPage
      width="form"
      className="verification"
      title="Get verified"
      lead="Show other members you are a real person who looks like your photos. You take a selfie holding a code we give you; a moderator compares it with your ad photos. No face recognition: a person looks."
    >
      {notice && <Banner tone="info">{notice}</Banner>}
      {error && !selfieError && <Banner>{error}</Banner>}
      {view?.current && <Current current={view.current} />}
      {view?.refused && (
        <div className="form-card verification__refused">
          <h2>Your last selfie was not approved</h2>
          <p>{view.refused.reason}</p>
          <p>
            <a href={view.refused.decisionPath}>Read the decision and appeal it</a>, or ask for a
            new code and try again.
          </p>
        </div>
      )}
      {view?.inReview ? (
        <InReview inReview={view.inReview} />
      ) : view?.challenge ? (
        <Challenge challenge={view.challenge} error={selfieError} />
      ) : (
        <form className="form-card form" action={verificationChallengeApiPath()} method="post">
          <h2>{view?.current ? 'Verify again' : 'Step 1: ask for a code'}</h2>
          <p>
            We give you a short code to write by hand on paper and a pose or expression to make.
            None needs your hands: hold the paper, or prop it up beside your face. You have 24 hours
            to send the selfie.
          </p>
          <SubmitButton kind="primary">Give me a code</SubmitButton>
        </form>
      )}
      <WhatWeKeep />
      <p>
        <a href={accountPath()}>Back to your account</a>
      </p>
    </FormPage>
  );
}

function Current({ current }: { current: NonNullable<VerificationView['current']> }) {
  return (
    <div className="form-card verification__current">
      <h2>You are verified</h2>
      <p>
        <span className="badge badge--verified">{LEVEL_NAMES[current.level]}</span>{' '}
        {current.level === 'photos'
          ? `A moderator checked your selfie and saw you in ${current.photos} of your ad photos (${formatMoment(current.decidedAt)}). A photo you add or replace later is not covered, and your ad says so.`
          : `A moderator checked your selfie (${formatMoment(current.decidedAt)}).`}
      </p>
      <form action={verificationWithdrawApiPath()} method="post">
        <SubmitButton kind="secondary">Withdraw my verification</SubmitButton>
      </form>
    </div>
  );
}

function Challenge({
  challenge,
  error,
}: {
  challenge: NonNullable<VerificationView['challenge']>;
  error: string | undefined;
}) {
  return (
    <form
      className="form-card form verification__challenge"
      action={verificationSelfieApiPath()}
      method="post"
      encType="multipart/form-data"
    >
      <h2>Step 2: take your selfie</h2>
      <p>Write this code by hand on a piece of paper:</p>
      <p
        className="verification__code"
        aria-label={`Your code: ${challenge.code.split('').join(' ')}`}
      >
        {challenge.code}
      </p>
      <p>
        Then take a selfie with the paper next to your face while you do this:{' '}
        <strong className="verification__pose">{challenge.pose}</strong>.
      </p>
      <p className="field__hint">
        Until {formatMoment(challenge.expiresAt)}. {challenge.uploadsLeft} tries left with this
        code.
      </p>
      <FormStatus error={undefined} />
      <div className={error ? 'field field--invalid' : 'field'}>
        <label htmlFor="verification-selfie">Your selfie</label>
        <input
          id="verification-selfie"
          name="selfie"
          type="file"
          accept="image/*"
          capture="user"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'verification-selfie-error' : undefined}
        />
        {error && (
          <p className="field__error" id="verification-selfie-error">
            {error}
          </p>
        )}
      </div>
      <SubmitButton kind="primary">Send my selfie</SubmitButton>
    </form>
  );
}

function InReview({ inReview }: { inReview: NonNullable<VerificationView['inReview']> }) {
  return (
    <div className="form-card verification__in-review">
      <h2>Your selfie is waiting for a moderator</h2>
      <p>
        Sent {formatMoment(inReview.submittedAt)}, with the code <strong>{inReview.code}</strong>{' '}
        and the pose “{inReview.pose}”. Only you and our moderators can see it. We mail you when a
        moderator has decided.
      </p>
      <img
        className="verification__selfie"
        src={inReview.selfieSrc}
        alt="Your selfie"
        width={240}
      />
    </div>
  );
}

function WhatWeKeep() {
  return (
    <div className="form-card verification__keep">
      <h2>What happens to your selfie</h2>
      <ul>
        <li>
          Only you and our moderators can see it; it is never on the site. Every time a moderator
          looks at it, that is logged.
        </li>
        <li>
          Approved, it is deleted at once. Not approved, it is kept 30 days (longer while an appeal
          is open), then deleted. Deleting your account deletes it at once.
        </li>
        <li>
          We keep: when, which level, which photos, which moderator, a hash of the code and a
          fingerprint of the picture (so the same picture cannot be used again). No face geometry or
          face template, ever.
        </li>
        <li>
          You can withdraw your verification at any time. Our{' '}
          <a href={legalPath('privacy')}>Privacy Policy</a> says more.
        </li>
      </ul>
    </div>
  );
}
