// The mail that tells a member about a new message (docs/product.md section 7): which ad it is about
// and a full link to the conversation. Never the message's text, never the other side's address:
// a mail can be read by anyone who sees the inbox, and members meet through the site.
import { conversationPath } from '../../core/paths.ts';
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
          ? `A member wrote to you on ${site.brand} about your ad “${adTitle}”.`
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
