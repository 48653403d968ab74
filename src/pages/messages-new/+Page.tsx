// https://vike.dev/Page
import type { ReactNode } from 'react';
import { BrowseAdsButton } from '../../components/BrowseAdsButton.tsx';
import { ButtonLink } from '../../components/Button.tsx';
import { FormCardPage } from '../../components/FormCardPage.tsx';
import { AdBadges } from '../../components/AdBadges.tsx';
import { Banner } from '../../components/Banner.tsx';
import { MessageForm } from '../../components/MessageForm.tsx';
import {
  accountPath,
  adPath,
  homePath,
  messagesApiPath,
  messagesPath,
  safetyNoticePath,
} from '../../../core/paths.ts';
import type { CompiledAd } from '../../../core/schemas/compiled-content.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const data = useData<Data>();
  const { target } = data;
  if (target.kind === 'not-found')
    return (
      <FormCardPage title="Ad not found" next={{ href: homePath(), label: 'Browse ads' }}>
        {data.error && <Banner>{data.error}</Banner>}
        <p>
          We couldn&apos;t find the ad you wanted to reply to. It may have expired or been removed.
        </p>
      </FormCardPage>
    );
  if (target.kind === 'unavailable')
    return (
      <section className="container container--form form-page">
        <h1>This ad takes no replies</h1>
        <div className="form-card reply-card">
          <h2 className="reply-card__unavailable-title">{target.title}</h2>
          <p className="banner banner--info" role="status">
            {target.why}
          </p>
          <BrowseAdsButton />
        </div>
      </section>
    );
  const { ad } = target;
  return (
    <section className="container container--form form-page">
      <h1>Reply to an ad</h1>
      <div className="form-card reply-card">
        <AdSummary ad={ad} />
        <Body data={data} ad={ad} />
      </div>
    </section>
  );
}

function AdSummary({ ad }: { ad: CompiledAd }) {
  return (
    <article className="reply-card__ad" aria-labelledby="reply-ad-title">
      <h2 id="reply-ad-title">{ad.title}</h2>
      <p className="reply-card__place">
        {ad.city}, {ad.state}
      </p>
      <AdBadges ad={ad} withFacts />
    </article>
  );
}

function Body({ data, ad }: { data: Data; ad: CompiledAd }) {
  const whyNot = whyNoReply(data, ad);
  if (whyNot)
    return (
      <>
        <p className="banner banner--info" role="status">
          {whyNot}
        </p>
        <div className="button-row">
          <ButtonLink kind="secondary" href={adPath(ad.state, ad.city, ad.id)}>
            Back to the ad
          </ButtonLink>
        </div>
      </>
    );
  return (
    <>
      <p className="reply-card__lead">
        Your message goes to the poster&apos;s Requests on {data.brand}, and they get a mail saying
        there is a message for them. Neither of you sees the other&apos;s email address. Keep it
        friendly: no phone numbers, email addresses or links in a first message.
      </p>
      <p className="reply-card__safety">
        Before you write to anyone or meet them, read our{' '}
        <a href={safetyNoticePath()}>online dating safety notice</a>.
      </p>
      <MessageForm
        action={messagesApiPath()}
        label="Your message"
        submitLabel="Send message"
        maxChars={data.maxChars}
        error={data.error}
        body={data.body}
        hidden={{ ad: String(ad.id) }}
      />
      <p className="form__footnote reply-card__back">
        <a href={adPath(ad.state, ad.city, ad.id)}>Back to the ad</a>
      </p>
    </>
  );
}

/** Why this visitor cannot write to the poster here, if they cannot. */
function whyNoReply(data: Data, ad: CompiledAd): ReactNode {
  switch (data.target.kind) {
    case 'not-member-ad':
      return ad.sample
        ? 'This is a sample ad: it shows what ads on the site look like, and no real person wrote it. There is nobody to reply to, and nothing you write here would be delivered.'
        : "This is an editor's listing, not a member's ad: there is no member behind it to reply to, and nothing you write here would be delivered.";
    case 'own-ad':
      return (
        <>
          This is your own ad. Members who reply to it appear in your{' '}
          <a href={messagesPath()}>Messages</a>.
        </>
      );
    case 'blocked':
      return data.target.by === 'you'
        ? 'You blocked the poster of this ad. To write to them again, unblock them from your conversation with them in Messages.'
        : 'The poster of this ad has blocked you: you cannot reply to their ads.';
    default:
      if (data.canWrite) return undefined;
      return (
        <>
          Verify your email address before writing to members: open the link we emailed to{' '}
          <strong>{data.email}</strong>, or ask for a new one on{' '}
          <a href={accountPath()}>your account page</a>.
        </>
      );
  }
}
