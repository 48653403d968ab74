// The one mail a member gets when moderators banned an account they answered for scam or fraud, or
// removed its live ad for it (docs/product.md section 7): who it was (by each conversation's ad),
// what the moderators did, never to send money, gift cards or codes, the safety guide, and a full
// link to each conversation. Never a message's text, never the other member's address.
import {
  fraudNoticeWhat,
  fraudNoticeWho,
  IF_YOU_SENT,
  NEVER_SEND,
  SCAM_GUIDE_PATH,
  type FraudNoticeAction,
  type NoticeConversation,
} from '../../core/views/fraud-notice.ts';
import { conversationPath } from '../../core/paths.ts';
import type { MailMessage } from './mailer.ts';
import { mail, type MailSite } from './messages.ts';

export function fraudNoticeMail(
  site: MailSite,
  to: string,
  action: FraudNoticeAction,
  conversations: ReadonlyArray<NoticeConversation & { conversationId: number }>,
): MailMessage {
  const [first, ...more] = conversations;
  if (!first) throw new Error('a fraud notice mail without a conversation');
  const link = (id: number) => `${site.baseUrl}${conversationPath(id)}`;
  return mail(
    site,
    to,
    action === 'banned'
      ? `Safety warning: a member you talked with on ${site.brand} was banned for scam or fraud`
      : `Safety warning: a member you talked with on ${site.brand} had an ad removed for scam or fraud`,
    {
      intro: `${fraudNoticeWhat(action, fraudNoticeWho(first))} ${NEVER_SEND}`,
      action: 'Open the conversation',
      url: link(first.conversationId),
      after: [
        ...more.map(
          (conversation) =>
            `You also talked with them about ${conversation.yourAd ? 'your ad' : 'the ad'} “${conversation.adTitle}”: ${link(conversation.conversationId)}`,
        ),
        IF_YOU_SENT,
        `How to recognize a scam, and what to do: ${site.baseUrl}${SCAM_GUIDE_PATH}`,
        'We tell you this once. For your privacy, messages are never sent by mail.',
      ],
    },
  );
}
