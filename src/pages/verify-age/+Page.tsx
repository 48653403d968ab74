// https://vike.dev/Page
import { Banner, FormStatus } from '../../components/Banner.tsx';
import { accountPath, ageCheckRequestApiPath } from '../../../core/paths.ts';
import { ageCheckForMember } from '../../../core/views/age-assurance.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

/** Where the Digital Credentials API and digital licences are, in words (no brand of a site). */
const BROWSERS =
  'Chrome or Edge 141 or later (on Android, or on a computer with your phone nearby), or Safari 26 on an iPhone';

export default function Page() {
  const { view, withoutScript, checked, error } = useData<Data>();
  const check = view?.check;
  return (
    <section className="container container--form form-page age-check">
      <h1>Check your age</h1>
      {checked && check?.outcome === 'passed' && (
        <Banner tone="info">
          Done: your age is checked. You can post ads and send first messages anywhere.
        </Banner>
      )}
      <p className="form-page__lead">
        Where a state's law asks for it, members there, and anyone posting or writing first about an
        ad there, prove they are 18 or over once. Browsing stays free for everyone.
      </p>
      {view && view.laws.length > 0 && (
        <ul>
          {view.laws.map((law) => (
            <li key={law.state}>{law.law}</li>
          ))}
        </ul>
      )}
      {check && (
        <p className="age-check__status" data-age-check-status>
          {ageCheckForMember(check)}
        </p>
      )}
      {view?.declaredStateLaw && !check && (
        <p>
          You live in {view.declaredStateLaw.state} (<a href={accountPath()}>change it</a>), where{' '}
          {view.declaredStateLaw.law} asks for the check before you post or send a first message.
        </p>
      )}
      {check?.outcome !== 'passed' && <CheckForm withoutScript={withoutScript} error={error} />}
      <div className="form-card" data-age-check-other-ways>
        <h2>No digital licence, or a browser that cannot ask for one?</h2>
        <p>
          The check works in {BROWSERS}, with a driver's licence added to your phone's wallet by a
          state that issues digital licences. Some states do not issue them yet.
        </p>
        <p>
          Without one, you can still browse every ad and answer in conversations you already have.
          Posting and first messages in a state that asks for the check wait until you can check; a
          check through an ID service is planned but not offered yet. Nothing changes in states that
          do not ask.
        </p>
      </div>
    </section>
  );
}

/** The check's form: its script asks the wallet; its plain post says what to do instead. */
function CheckForm({ withoutScript, error }: { withoutScript: boolean; error?: string }) {
  return (
    <div className="form-card">
      <h2>With a digital driver's licence</h2>
      <p>
        Your phone's wallet asks you to share one thing: whether you are over 18. It answers yes or
        no, signed by the state that issued your licence. We keep only how you checked, the result,
        when, and the issuing state: never your name, birth date, photo or the answer itself.
      </p>
      <form className="form" action={ageCheckRequestApiPath()} method="post" data-age-check>
        <FormStatus error={error} />
        {withoutScript && (
          <Banner tone="info">
            The check asks your phone's wallet through your browser, which needs JavaScript. Turn
            JavaScript on for this site and press the button again, or open this page in {BROWSERS}.
          </Banner>
        )}
        <p className="form__status" role="status" aria-live="polite" data-age-check-progress />
        <button className="button button--primary" type="submit">
          Check my age with a digital licence
        </button>
      </form>
    </div>
  );
}
