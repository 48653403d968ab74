// https://vike.dev/Page
import { DoneMark } from '../../components/DoneMark.tsx';
import { accountPath, guidePath, homePath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { liveDays, remindDays } = useData<Data>();
  return (
    <section className="container container--form form-page">
      <div className="form-card success">
        <DoneMark />
        <h1>Your ad is in review</h1>
        <p>Thank you. Your ad is saved, and it is not on the site yet.</p>
        <h2>What happens next</h2>
        <ol className="success__steps">
          <li>A moderator reads your ad and checks it against the site&apos;s rules.</li>
          <li>
            Once approved, it appears on your city&apos;s page and stays live for {liveDays} days.
            If it is rejected, your account page shows the moderator&apos;s reason, and you can edit
            the ad and send it again.
          </li>
          <li>
            We email you {remindDays} days before it expires, so you can renew it from your account
            page.
          </li>
        </ol>
        <div className="button-row">
          <a className="button button--primary" href={accountPath()}>
            See your ads
          </a>
          <a className="button button--ghost" href={guidePath('how-moderation-works')}>
            How moderation works
          </a>
          <a className="button button--ghost" href={homePath()}>
            Browse ads
          </a>
        </div>
      </div>
    </section>
  );
}
