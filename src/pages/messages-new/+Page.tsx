// https://vike.dev/Page
import { AdBadges } from '../../components/AdBadges.tsx';
import { adPath, homePath } from '../../paths.ts';
import { useData } from '../../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { ad } = useData<Data>();
  if (!ad)
    return (
      <section className="container container--form form-page">
        <h1>Ad not found</h1>
        <div className="form-card">
          <p>
            We couldn&apos;t find the ad you wanted to reply to. It may have expired or been
            removed.
          </p>
          <p>
            <a className="button button--primary" href={homePath()}>
              Browse ads
            </a>
          </p>
        </div>
      </section>
    );
  return (
    <section className="container container--form form-page">
      <h1>Reply to an ad</h1>
      <div className="form-card reply-card">
        <article className="reply-card__ad" aria-labelledby="reply-ad-title">
          <h2 id="reply-ad-title">{ad.title}</h2>
          <p className="reply-card__place">
            {ad.city}, {ad.state}
          </p>
          <AdBadges ad={ad} withFacts />
        </article>
        {ad.sample ? (
          <p className="banner banner--info" role="status">
            This is a sample ad: it shows what ads on the site look like, and no real person wrote
            it. There is nobody to reply to, and nothing you write here would be delivered.
          </p>
        ) : (
          <p className="banner banner--info" role="status">
            Replies between members are coming soon. Nothing is sent yet: when replies open, you
            will write to the poster from here, and neither of you will see the other&apos;s email
            address.
          </p>
        )}
        <div className="button-row">
          <a className="button button--primary" href={adPath(ad.state, ad.city, ad.id)}>
            Back to the ad
          </a>
        </div>
      </div>
    </section>
  );
}
