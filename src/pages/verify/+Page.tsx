// https://vike.dev/Page
import { NewLinkButton } from '../../components/NewLinkButton.tsx';
import { ButtonLink } from '../../components/Button.tsx';
import { DoneMark } from '../../components/DoneMark.tsx';
import { FormStatus } from '../../components/Banner.tsx';
import { accountPath, homePath, verifyApiPath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { link, token, next, error } = useData<Data>();
  return (
    <section className="container container--form form-page">
      {link === 'valid' && token ? (
        <>
          <h1>Verify your email</h1>
          <p className="form-page__lead">
            Confirm that this email address is yours. Posting ads and replying to members need a
            verified email.
          </p>
          <div className="form-card">
            <form className="form" action={verifyApiPath()} method="post">
              <FormStatus error={error} />
              <input type="hidden" name="token" value={token} />
              {next && <input type="hidden" name="next" value={next} />}
              <button className="button button--primary button--block" type="submit">
                Verify my email
              </button>
            </form>
          </div>
        </>
      ) : (
        <div className="form-card success">
          <LinkOutcome link={link} next={next} />
        </div>
      )}
    </section>
  );
}

function LinkOutcome({ link, next }: Pick<Data, 'link' | 'next'>) {
  if (link === 'done' || link === 'used')
    return (
      <>
        <DoneMark />
        <h1>{link === 'done' ? 'Your email is verified' : 'This link was already used'}</h1>
        <p>
          {link === 'done'
            ? 'Thank you. Your email address is confirmed: you can post ads and reply to members.'
            : 'Each verification link works once, and this one has done its job: your email address is verified.'}
        </p>
        <div className="button-row">
          {next && (
            <ButtonLink kind="primary" href={next}>
              Continue where you left off
            </ButtonLink>
          )}
          <a
            className={`button ${next ? 'button--ghost' : 'button--primary'}`}
            href={accountPath()}
          >
            Go to your account
          </a>
          <a className="button button--ghost" href={`${homePath()}#states`}>
            Browse Ads
          </a>
        </div>
      </>
    );
  return (
    <>
      <h1>{link === 'expired' ? 'This link has expired' : 'This link is not valid'}</h1>
      <p>
        {link === 'expired'
          ? 'Verification links work for 24 hours. You can ask for a new one on your account page.'
          : 'Check that you opened the whole link from the email, or ask for a new one on your account page.'}
      </p>
      <NewLinkButton href={accountPath()} />
    </>
  );
}
