// What a member does in messaging (docs/product.md section 7), as the message endpoints ask it
// (server/http/routes/messages.ts): start a conversation about an ad, write in one of theirs, block or
// unblock its other side. Each checks who writes and what they wrote, in the order a member
// meets the refusals (signed in, a verified email, an ad that takes replies, the message itself),
// does it in one unit of work (conversations.ts), and mails the recipient when the message is the
// first they have not read (server/mail/conversation-messages.ts), never with its text: at once
// for a chat, and for a request only when they chose so (else the daily digest, request-digest.ts). Whatever
// refuses it is thrown as a Refusal (texts.ts has what the member reads); what the scam shield
// warned its recipient of comes back (`warned`), never shown to the writer.
import { findPublishedAd } from '../../core/content/ad-by-id.ts';
import { checkMessageBody, type MessageBodyCheck } from '../../core/schemas/message.ts';
import { newMessageMail } from '../mail/conversation-messages.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import type { Pusher } from '../push/pusher.ts';
import { NOT_SIGNED_IN, Refusal } from '../../core/refusal.ts';
import type { Store } from '../../store/store.ts';
import {
  checkFirstMessage,
  reply,
  setBlock,
  startConversation,
  type NewMessage,
  type Notification,
} from './conversations.ts';
import type { MessageLimit } from './limits.ts';
import {
  adNotFoundForReply,
  conversationNotFound,
  NOT_A_MEMBER_AD,
  NOT_VERIFIED_TO_WRITE,
} from './texts.ts';

export interface MessagingDeps {
  store: Store;
  mailer: Mailer;
  mailSite: () => MailSite;
  /** The clock (tests move it). */
  now: () => Date;
  /** Messages a member may send in a window; default: DEFAULT_MESSAGE_LIMIT (limits.ts). */
  messageLimit?: MessageLimit;
  /** Tells the recipient's devices of each new message, in the background (server/push/). */
  pusher?: Pick<Pusher, 'messageSent'>;
}

/** Who writes: the signed-in member of the request. */
export interface Writer {
  accountId: number;
  emailVerified: boolean;
}

/** The member's messaging: each action done, or refused (thrown). */
export function messaging({ store, mailer, mailSite, now, messageLimit, pusher }: MessagingDeps) {
  const message = (writer: Writer, body: string): NewMessage => ({
    senderId: writer.accountId,
    body,
    now,
    messageLimit,
  });
  const notify = (notification: Notification | undefined) => {
    if (notification?.mailNow) mailer.send(newMessageMail(mailSite(), notification));
  };
  const mayWrite = (writer: Writer) => {
    if (!writer.emailVerified) throw new Refusal('forbidden', NOT_VERIFIED_TO_WRITE);
  };
  const checked = (check: MessageBodyCheck) => {
    if (!check.ok) throw new Refusal('invalid', check.problem);
    return check.body;
  };

  return {
    /**
     * Starts a conversation about the member ad `adId` with `body` (the form's text), or, for a
     * writer who has one about it, writes in that one.
     */
    async start(writer: Writer | undefined, adId: number | undefined, body: unknown) {
      if (!writer) throw new Refusal('signed-out', NOT_SIGNED_IN);
      mayWrite(writer);
      const ad = adId === undefined ? undefined : await store.memberAds.find(adId);
      if (!ad) {
        if (adId !== undefined && findPublishedAd(adId))
          throw new Refusal('forbidden', NOT_A_MEMBER_AD);
        throw adNotFoundForReply();
      }
      // A start that becomes a message in an existing conversation is scanned all the same.
      const text = checked(checkFirstMessage(body, ad));
      const started = await startConversation(store, ad.id, message(writer, text));
      notify(started.notify);
      pusher?.messageSent({
        conversationId: started.conversationId,
        senderId: writer.accountId,
        body: text,
        warned: started.warned.length > 0,
      });
      const { conversationId, created, warned } = started;
      return { conversationId, created, warned };
    },

    /** A message in one of the writer's conversations (`body`: the form's text). */
    async reply(writer: Writer, conversationId: number | undefined, body: unknown) {
      const conversation =
        conversationId === undefined
          ? undefined
          : await store.conversations.find(conversationId, writer.accountId);
      if (!conversation) throw conversationNotFound();
      mayWrite(writer);
      const text = checked(checkMessageBody(body));
      const sent = await reply(store, conversation.id, message(writer, text));
      notify(sent.notify);
      pusher?.messageSent({
        conversationId: conversation.id,
        senderId: writer.accountId,
        body: text,
        warned: sent.warned.length > 0,
      });
      return { conversationId: conversation.id, messageId: sent.messageId, warned: sent.warned };
    },

    /** Blocks (`block`) or unblocks the other side of one of the member's conversations. */
    async setBlock(member: Writer, conversationId: number | undefined, block: boolean) {
      if (conversationId === undefined) throw conversationNotFound();
      await setBlock(store, conversationId, member.accountId, block, now());
      return conversationId;
    },
  };
}

export type Messaging = ReturnType<typeof messaging>;
