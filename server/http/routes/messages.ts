// Replies, messages and blocking (docs/product.md section 7), for signed-in members, as on-request pages
// and API endpoints that take a plain form post (pages without JavaScript) or JSON:
//
//   GET  /messages                    the inbox: conversations, newest activity first, unread counts
//   GET  /messages/new?ad={id}        the reply form for a member's ad (or why there is none);
//                                     the member's own conversation about that ad, if there is one
//   GET  /messages/{id}[?before={message id}]
//                                     a conversation, 50 messages a page, the newest page first
//                                     (`before`: the page of the messages before that one; why a
//                                     message and not a page number: core/views/messages.ts);
//                                     opening the newest page marks the other side's messages read
//   POST /api/messages    {ad, body}  starts a conversation (server/messages/ has the rules):
//                                     303, or 201 {conversationId, redirectUrl, warned}; `warned`:
//                                     the scam families the recipient is warned of ([] for none);
//                                     refused (400 {error}) by the scam shield, nothing is stored
//   POST /api/messages/{id}/reply     {body}: 303, or 201 {messageId, redirectUrl, warned}
//   POST /api/messages/{id}/block     blocks the other side;  /unblock  undoes the member's block
//
// A conversation that is not the member's answers exactly as one that does not exist (404), so ids
// are never confirmed. A refused form post comes back as its page (404 to 429) with the message and
// what was typed; JSON gets `{ error }`. Nothing here ever shows or sends the other side's email.
// Writing needs a verified email, as posting does; reading does not.
import { Hono } from 'hono';
import { idOf } from '../../../core/ids.ts';
import { apiRoutes, conversationPath, newMessagePath, routes } from '../../../core/paths.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { textOf } from '../forms/submission.ts';
import { usePost } from '../forms/unknown-endpoint.ts';
import { routeId } from '../route-id.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { MailSite } from '../../mail/messages.ts';
import type { MessageLimit } from '../../messages/limits.ts';
import { messaging } from '../../messages/messaging.ts';
import { conversationNotFound } from '../../messages/texts.ts';
import type { Pusher } from '../../push/pusher.ts';
import type { Store } from '../../../store/store.ts';

/** Largest request body the message endpoints read: 2,000 characters of 4-byte UTF-8, form-encoded. */
export const MESSAGES_MAX_BODY_BYTES = 32 * 1024;

export interface MessagingOptions {
  store: Store;
  form: FormEndpoint;
  mailer: Mailer;
  mailSite: () => MailSite;
  /** The clock (tests move it). */
  now: () => Date;
  /** Messages a member may send in a window; default MESSAGES_PER_WINDOW in MESSAGE_WINDOW_MINUTES. */
  messageLimit?: MessageLimit;
  /** Tells the recipient's devices of each new message (server/push/). */
  pusher?: Pick<Pusher, 'messageSent'>;
}

export function messagesRoutes(options: MessagingOptions) {
  const { form, store, mailer, mailSite, messageLimit, pusher } = options;
  const { now } = options;
  const messages = messaging({ store, mailer, mailSite, now, messageLimit, pusher });
  const app = new Hono<AppEnv>();
  const limit = MESSAGES_MAX_BODY_BYTES;
  const conversationPage = (c: AppContext) => ({
    route: routes.conversation,
    params: { conversationId: c.req.param('id') ?? '' },
  });

  app.post(
    apiRoutes.messages,
    ...form.action(
      // Anyone: signed out is refused by `start`, once the ad's reply screen is the form's page.
      { page: { route: routes.newMessage }, for: 'anyone', keep: ['ad', 'body'], limit },
      async ({ c, member, fields }) => {
        const adId = idOf(textOf(fields.ad));
        // The reply screen of this ad: where a visitor comes back to after signing in.
        c.set('formPage', { route: routes.newMessage, url: newMessagePath(adId ?? 0) });
        const { conversationId, created, warned } = await messages.start(member, adId, fields.body);
        const path = conversationPath(conversationId);
        const redirect = created ? `${path}?done=started` : `${path}#latest`;
        return { redirect, json: { conversationId, redirectUrl: redirect, warned }, status: 201 };
      },
    ),
  );

  app.post(
    apiRoutes.reply,
    ...form.action(
      { page: conversationPage, for: 'members', keep: ['body'], limit },
      async ({ c, member, fields }) => {
        const { id } = routeId(c, conversationNotFound);
        const { conversationId, messageId, warned } = await messages.reply(member, id, fields.body);
        const redirect = `${conversationPath(conversationId)}#latest`;
        return { redirect, json: { messageId, redirectUrl: redirect, warned }, status: 201 };
      },
    ),
  );

  app.post(
    apiRoutes.block,
    ...form.action({ page: conversationPage, for: 'members', limit }, async ({ c, member }) => {
      const blocked = c.req.param('action') === 'block';
      const id = await messages.setBlock(member, routeId(c, conversationNotFound).id, blocked);
      const redirect = `${conversationPath(id)}?done=${blocked ? 'blocked' : 'unblocked'}`;
      return { redirect, json: { blocked, redirectUrl: redirect } };
    }),
  );

  app.on(
    ['GET', 'PUT', 'PATCH', 'DELETE'],
    [apiRoutes.messages, apiRoutes.reply, apiRoutes.block],
    usePost,
  );

  return app;
}
