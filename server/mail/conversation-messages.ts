// The mails that tell a member about new messages (docs/product.md section 7): one about a new
// message, which ad it is about and a full link to the conversation; and the daily digest of new
// requests, the ads they are about and a link to the member's Requests. Never a message's text,
// never the other side's address: a mail can be read by anyone who sees the inbox, and members
// meet through the site.
import { plural } from '../../core/format.ts';
import { conversationPath, messageSettingsPath, requestMessagesPath } from '../../core/paths.ts';
import type { NewRequest } from '../../store/parts/request-digests.ts';
import type { Notification } from '../messages/conversations.ts';
import type { MailMessage } from './mailer.ts';
import { mail, type MailSite } from './messages.ts';

export function newMessageMail(site: MailSite, notification: Notification): MailMessage {
  const { adTitle, recipient } = notification;
  return mail(
    site,
    notification.to,
    recipient === 'poster'
      ? `You have a new message about your ad “${adTitle}”`
      : `You have a new message about the ad “${adTitle}”`,
    {
      intro:
        recipient === 'poster'
          ? `A member wrote to you on ${site.brand} about your ad “${adTitle}”.${notification.folder === 'requests' ? ' It waits in your Requests until you answer it.' : ''}`
          : `The poster of the ad “${adTitle}” wrote to you on ${site.brand}.`,
      action: 'Read the message',
      url: `${site.baseUrl}${conversationPath(notification.conversationId)}`,
      after: [
        'For your privacy, messages are never sent by mail, and neither of you sees the other’s email address.',
        'We mail you once for each conversation until you open it: more messages in it before then do not send more mail.',
      ],
    },
  );
}

/** Ads a digest names; more are counted. */
const DIGEST_ADS_NAMED = 10;

/** The daily digest of new requests: the ads they are about, and a link to the member's Requests. */
export function requestDigestMail(
  site: MailSite,
  to: string,
  requests: readonly NewRequest[],
): MailMessage {
  const named = requests
    .slice(0, DIGEST_ADS_NAMED)
    .map((request) => `“${request.adTitle}” (${plural(request.messages, 'message')})`);
  const more = requests.length - named.length;
  const about = `${named.join(', ')}${more > 0 ? `, and ${plural(more, 'other')}` : ''}`;
  return mail(site, to, `${plural(requests.length, 'new message request')} on ${site.brand}`, {
    intro: `Members wrote to you on ${site.brand} about your ads, and you have not answered them yet: ${about}.`,
    action: 'Read your requests',
    url: `${site.baseUrl}${requestMessagesPath()}`,
    after: [
      'A first message about your ad waits in your Requests until you answer it; then the conversation is a chat, and we mail you about each new message in it as it comes.',
      `We mail you about new requests once a day, never with their text. To have each one mailed at once instead, change your message settings: ${site.baseUrl}${messageSettingsPath()}`,
    ],
  });
}
