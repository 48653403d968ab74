// https://vike.dev/Page
import { DoneMark } from '../../components/DoneMark.tsx';
import { accountPath, guidePath, homePath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { brand } = useData<Data>();
  return (
    <section className="container container--form form-page">
      <div className="form-card success">
        <DoneMark />
        <h1>Account created</h1>
        <p>Welcome to {brand}. You are signed in on this device.</p>
        <p>
          We have emailed you a link to verify your address: open it to be able to post ads and
          reply to members. No mail? Ask for a new link on <a href={accountPath()}>your account</a>{' '}
          page.
        </p>
        <h2>What happens next</h2>
        <ol className="success__steps">
          <li>Browse the ads in your state and city: everything is free to read.</li>
          <li>
            Once your email is verified, post your own ad: a moderator reviews every ad before it
            appears. Reply to a member's ad, and your conversations are under Messages.
          </li>
          <li>Before you meet anyone, read our guide to staying safe.</li>
        </ol>
        <div className="button-row">
          <a className="button button--primary" href={`${homePath()}#states`}>
            Browse Ads
          </a>
          <a className="button button--ghost" href={guidePath('staying-safe')}>
            Staying safe
          </a>
        </div>
      </div>
    </section>
  );
}
