// Replies, messages and blocking (docs/product.md section 7), for signed-in members, as on-request pages
// (each read beside its page: src/pages/{messages,messages-new,conversation}/server-read.ts) and API
// endpoints that take a plain form post (pages without JavaScript) or JSON:
//
//   GET  /messages                    the inbox: conversations, newest activity first, unread counts
//   GET  /messages/new?ad={id}        the reply form for a member's ad (or why there is none);
//                                     the member's own conversation about that ad, if there is one
//   GET  /messages/{id}[?before={message id}]
//                                     a conversation, 50 messages a page, the newest page first
//                                     (`before`: the page of the messages before that one; why a
//                                     message and not a page number: src/pages/messages-view.ts);
//                                     opening the newest page marks the other side's messages read
//   POST /api/messages    {ad, body}  starts a conversation (server/messages/ has the rules)
//   POST /api/messages/{id}/reply     {body}
//   POST /api/messages/{id}/block     blocks the other side;  /unblock  undoes the member's block
//
// A conversation that is not the member's answers exactly as one that does not exist (404), so ids
// are never confirmed. A refused form post comes back as its page (404 to 429) with the message and
// what was typed; JSON gets `{ error }`. Nothing here ever shows or sends the other side's email.
// Writing needs a verified email, as posting does; reading does not.
import { Hono } from 'hono';
import { findPublishedAd } from '../../src/content/ad-by-id.ts';
import { conversationPath, newMessagePath, routes } from '../../src/paths.ts';
import { checkMessageBody } from '../../src/schemas/message.ts';
import type { AppEnv } from '../app-env.ts';
import type { FormEndpoint, FormPageOf } from '../forms/form-endpoint.ts';
import { NOT_SIGNED_IN, Refusal } from '../refusal.ts';
import { type AnswerRefusal } from '../forms/refusal.ts';
import { readSubmission, textOf } from '../forms/submission.ts';
import { newMessageMail } from '../mail/conversation-messages.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import {
  checkFirstMessage,
  reply,
  setBlock,
  startConversation,
  type Notification,
} from '../messages/conversations.ts';
import type { MessageLimit } from '../messages/limits.ts';
import {
  AD_NOT_FOUND_FOR_REPLY,
  blockRefusal,
  CONVERSATION_NOT_FOUND,
  NOT_A_MEMBER_AD,
  NOT_VERIFIED_TO_WRITE,
  replyRefusal,
  startRefusal,
} from '../messages/texts.ts';
import type { Store } from '../store/store.ts';

/** Largest request body the message endpoints read: 2,000 characters of 4-byte UTF-8, form-encoded. */
export const MESSAGES_MAX_BODY_BYTES = 32 * 1024;

export interface MessagingOptions {
  store: Store;
  refuse: AnswerRefusal;
  form: FormEndpoint;
  mailer: Mailer;
  mailSite: () => MailSite;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Messages a member may send in a window; default MESSAGES_PER_WINDOW in MESSAGE_WINDOW_MINUTES. */
  messageLimit?: MessageLimit;
}

export function messagesRoutes(options: MessagingOptions) {
  const { refuse, mailer, store, messageLimit } = options;
  const now = options.now ?? (() => new Date());
  const app = new Hono<AppEnv>();
  const endpoint = (page: FormPageOf) => options.form(page, MESSAGES_MAX_BODY_BYTES);
  const conversationPage = endpoint((c) => ({
    route: routes.conversation,
    params: { conversationId: c.req.param('id') ?? '' },
  }));

  app.post('/messages', ...endpoint({ route: routes.newMessage }), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const adParam = textOf(submission.fields.ad);
    const values = { ad: adParam, body: textOf(submission.fields.body) };
    // The reply screen of this ad: where a visitor comes back to after signing in.
    c.set('formPage', { route: routes.newMessage, url: newMessagePath(idOf(adParam) ?? 0) });
    const member = await c.var.member();
    if (!member) return refuse(c, new Refusal('signed-out', NOT_SIGNED_IN));
    if (!member.emailVerified)
      return refuse(c, new Refusal('forbidden', NOT_VERIFIED_TO_WRITE), values);
    const adId = idOf(adParam);
    const ad = adId === undefined ? undefined : await store.conversations.findAd(adId);
    if (!ad) {
      const published = adId === undefined ? undefined : findPublishedAd(adId);
      return published
        ? refuse(c, new Refusal('forbidden', NOT_A_MEMBER_AD), values)
        : refuse(c, new Refusal('not-found', AD_NOT_FOUND_FOR_REPLY), values);
    }
    // A start that becomes a message in an existing conversation is scanned all the same.
    const checked = checkFirstMessage(submission.fields.body, ad);
    if (!checked.ok) return refuse(c, new Refusal('invalid', checked.problem), values);
    const outcome = await startConversation(store, ad.id, {
      senderId: member.accountId,
      body: checked.body,
      now,
      messageLimit,
    });
    if (!outcome.ok) return refuse(c, startRefusal(outcome, now()), values);
    notify(outcome.notify);
    const redirectUrl = outcome.created
      ? `${conversationPath(outcome.conversationId)}?done=started`
      : `${conversationPath(outcome.conversationId)}#latest`;
    return submission.kind === 'form'
      ? c.redirect(redirectUrl, 303)
      : c.json({ conversationId: outcome.conversationId, redirectUrl }, 201);
  });

  app.post('/messages/:id{[0-9]+}/reply', ...conversationPage, async (c) => {
    const id = idOf(c.req.param('id'));
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const values = { body: textOf(submission.fields.body) };
    const member = await c.var.member();
    if (!member) return refuse(c, new Refusal('signed-out', NOT_SIGNED_IN));
    const conversation =
      id === undefined ? undefined : await store.conversations.find(id, member.accountId);
    if (!conversation) return refuse(c, new Refusal('not-found', CONVERSATION_NOT_FOUND));
    if (!member.emailVerified)
      return refuse(c, new Refusal('forbidden', NOT_VERIFIED_TO_WRITE), values);
    const checked = checkMessageBody(submission.fields.body);
    if (!checked.ok) return refuse(c, new Refusal('invalid', checked.problem), values);
    const outcome = await reply(store, conversation.id, {
      senderId: member.accountId,
      body: checked.body,
      now,
      messageLimit,
    });
    if (!outcome.ok)
      return refuse(
        c,
        replyRefusal(outcome, now()),
        outcome.refused === 'not-found' ? undefined : values,
      );
    notify(outcome.notify);
    const redirectUrl = `${conversationPath(conversation.id)}#latest`;
    return submission.kind === 'form'
      ? c.redirect(redirectUrl, 303)
      : c.json({ messageId: outcome.messageId, redirectUrl }, 201);
  });

  app.post('/messages/:id{[0-9]+}/:action{block|unblock}', ...conversationPage, async (c) => {
    const id = idOf(c.req.param('id'));
    const block = c.req.param('action') === 'block';
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const member = await c.var.member();
    if (!member) return refuse(c, new Refusal('signed-out', NOT_SIGNED_IN));
    const outcome =
      id === undefined
        ? ({ ok: false, refused: 'not-found' } as const)
        : await setBlock(store, id, member.accountId, block, now());
    if (!outcome.ok) return refuse(c, blockRefusal(outcome));
    const done = block ? 'blocked' : 'unblocked';
    const redirectUrl = `${conversationPath(id!)}?done=${done}`;
    return submission.kind === 'form'
      ? c.redirect(redirectUrl, 303)
      : c.json({ blocked: block, redirectUrl }, 200);
  });

  app.on(
    ['GET', 'PUT', 'PATCH', 'DELETE'],
    ['/messages', '/messages/:id/reply', '/messages/:id/block', '/messages/:id/unblock'],
    (c) => c.json({ error: 'Use POST for this endpoint.' }, 405),
  );

  return app;

  function notify(notification: Notification | undefined) {
    if (notification) mailer.send(newMessageMail(options.mailSite(), notification));
  }
}

/** An id from the URL or a form: digits only, and a safe integer. */
function idOf(param: string | undefined): number | undefined {
  if (!param || !/^\d{1,15}$/.test(param)) return undefined;
  const id = Number(param);
  return id > 0 ? id : undefined;
}
