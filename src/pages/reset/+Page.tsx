// https://vike.dev/Page
import { NewLinkButton } from '../../components/NewLinkButton.tsx';
import { ButtonLink } from '../../components/Button.tsx';
import { DoneMark } from '../../components/DoneMark.tsx';
import { FormStatus } from '../../components/Banner.tsx';
import { FormField } from '../../components/FormField.tsx';
import { forgotPath, resetApiPath, signinPath } from '../../../core/paths.ts';
import { PASSWORD_MIN } from '../../../core/schemas/password-length.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { link, token, error } = useData<Data>();
  if (link === 'valid' && token)
    return (
      <section className="container container--form form-page">
        <h1>Choose a new password</h1>
        <p className="form-page__lead">
          Your new password replaces the old one, and you will be signed out on every device.
        </p>
        <div className="form-card">
          <form className="form" action={resetApiPath()} method="post">
            <FormStatus error={error} />
            <input type="hidden" name="token" value={token} />
            <FormField
              id="reset-password"
              name="password"
              type="password"
              label="New password"
              autoComplete="new-password"
              hint={`At least ${PASSWORD_MIN} characters.`}
              minLength={PASSWORD_MIN}
              required
            />
            <button className="button button--primary button--block" type="submit">
              Set new password
            </button>
          </form>
        </div>
      </section>
    );
  return (
    <section className="container container--form form-page">
      <div className="form-card success">
        {link === 'done' ? (
          <>
            <DoneMark />
            <h1>Your password has been changed</h1>
            <p>You have been signed out on every device. Sign in with your new password.</p>
            <div className="button-row">
              <ButtonLink kind="primary" href={signinPath()}>
                Sign In
              </ButtonLink>
            </div>
          </>
        ) : (
          <>
            <h1>
              {link === 'expired'
                ? 'This link has expired'
                : link === 'used'
                  ? 'This link was already used'
                  : 'This link is not valid'}
            </h1>
            <p>
              {link === 'expired'
                ? 'Password reset links work for 1 hour.'
                : link === 'used'
                  ? 'Each password reset link works once.'
                  : 'Check that you opened the whole link from the email.'}{' '}
              You can ask for a new link.
            </p>
            <NewLinkButton href={forgotPath()} />
          </>
        )}
      </div>
    </section>
  );
}
