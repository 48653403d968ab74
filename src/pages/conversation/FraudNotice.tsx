import {
  FRAUD_NOTICE_TITLES,
  fraudNoticeWhat,
  fraudNoticeWho,
  IF_YOU_SENT,
  NEVER_SEND,
  SCAM_GUIDE_LINK,
  SCAM_GUIDE_PATH,
  type FraudNoticeAction,
} from '../../../core/views/fraud-notice.ts';

/**
 * The notice on a conversation whose other member moderators banned (or whose ad they removed)
 * for scam or fraud, after this member answered them (docs/product.md section 7): in words, first
 * on the page, with what to do and the guide.
 */
export function FraudNotice({
  action,
  adTitle,
  yourAd,
}: {
  action: FraudNoticeAction;
  adTitle: string;
  yourAd: boolean;
}) {
  return (
    <section className="fraud-notice" role="alert" aria-labelledby="fraud-notice-title">
      <h2 className="fraud-notice__title" id="fraud-notice-title">
        Warning: {FRAUD_NOTICE_TITLES[action]}
      </h2>
      <p>{fraudNoticeWhat(action, fraudNoticeWho({ adTitle, yourAd }))}</p>
      <p>
        <strong>{NEVER_SEND}</strong> {IF_YOU_SENT}
      </p>
      <p>
        <a href={SCAM_GUIDE_PATH}>{SCAM_GUIDE_LINK}</a>
      </p>
    </section>
  );
}
