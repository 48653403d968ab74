// https://vike.dev/Page
import { Banner, FormStatus } from '../../components/Banner.tsx';
import { FormField } from '../../components/FormField.tsx';
import { forgotApiPath, signinPath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';
import { FORGOT_SENT } from './forgotData.ts';

export default function Page() {
  const { sent, error, email } = useData<Data>();
  return (
    <section className="container container--form form-page">
      <h1>Reset your password</h1>
      <p className="form-page__lead">
        Enter the email address of your account and we will send you a link to choose a new
        password.
      </p>
      <div className="form-card">
        <form className="form" action={forgotApiPath()} method="post">
          <FormStatus error={error} />
          {sent && <Banner tone="info">{FORGOT_SENT}</Banner>}
          <FormField
            id="forgot-email"
            name="email"
            type="email"
            label="Email"
            autoComplete="email"
            required
            defaultValue={email}
          />
          <button className="button button--primary button--block" type="submit">
            Send the link
          </button>
          <p className="form__footnote">
            Remembered it? <a href={signinPath()}>Sign in</a>
          </p>
        </form>
      </div>
    </section>
  );
}
