// What a member reads when moderators banned an account they talked with for scam or fraud, or
// removed its live ad for it (docs/product.md section 7): on the conversation's page
// (src/pages/conversation/FraudNotice.tsx), marked in the inbox, and in the one mail
// (server/mail/fraud-notice-messages.ts). The sentences are written here once, for all three.
// Never the other member's address or any message's text: who it was is said by the
// conversation's ad.
import { guidePath } from '../paths.ts';

/** What the moderators did: banned the account, or removed a live ad of it. */
export type FraudNoticeAction = 'banned' | 'ad-removed';

/** A conversation, as the member knows it: its ad's title, and whether the ad is theirs. */
export interface NoticeConversation {
  adTitle: string;
  yourAd: boolean;
}

/** The guide the notice leads to: the warning signs, and what to do. */
export const SCAM_GUIDE_PATH = guidePath('recognising-scams');
export const SCAM_GUIDE_LINK = 'Read our guide to recognizing scams';

/** The notice's heading, and the inbox's mark, after "Warning: ". */
export const FRAUD_NOTICE_TITLES: Record<FraudNoticeAction, string> = {
  banned: 'this member was banned for scam or fraud',
  'ad-removed': "this member's ad was removed for scam or fraud",
};

/** Who it was, by the conversation's ad. */
export const fraudNoticeWho = ({ adTitle, yourAd }: NoticeConversation) =>
  yourAd
    ? `the member who wrote to you about your ad “${adTitle}”`
    : `the poster of the ad “${adTitle}”`;

/** What the moderators did, to whom. */
export const fraudNoticeWhat = (action: FraudNoticeAction, who: string) =>
  action === 'banned'
    ? `Our moderators banned ${who} for scam or fraud. They can no longer write to you.`
    : `Our moderators removed an ad of ${who} for scam or fraud.`;

export const NEVER_SEND =
  'Never send money, gift cards or codes (such as a code sent to your phone) to anyone you met here, whatever the story: no genuine member needs them.';

export const IF_YOU_SENT =
  "If you already did, contact your bank or the card's issuer now, and change the password of any account whose code you shared.";
