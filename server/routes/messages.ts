// Replies, messages and blocking (docs/product.md section 7), for signed-in members, as on-request pages
// and API endpoints that take a plain form post (pages without JavaScript) or JSON:
//
//   GET  /messages                    the inbox: conversations, newest activity first, unread counts
//   GET  /messages/new?ad={id}        the reply form for a member's ad (or why there is none);
//                                     the member's own conversation about that ad, if there is one
//   GET  /messages/{id}[?before={message id}]
//                                     a conversation, 50 messages a page, the newest page first
//                                     (`before`: the page of the messages before that one; why a
//                                     message and not a page number: src/pages/messages-view.ts);
//                                     opening the newest page marks the other side's messages read
//   POST /api/messages    {ad, body}  starts a conversation (server/db/conversations.ts has the rules)
//   POST /api/messages/{id}/reply     {body}
//   POST /api/messages/{id}/block     blocks the other side;  /unblock  undoes the member's block
//
// A conversation that is not the member's answers exactly as one that does not exist (404), so ids
// are never confirmed. A refused form post comes back as its page (404 to 429) with the message and
// what was typed; JSON gets `{ error }`. Nothing here ever shows or sends the other side's email.
// Writing needs a verified email, as posting does; reading does not.
import { Hono } from 'hono';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { secondsToWait } from '../auth/rate-limits.ts';
import { findPublishedAd } from '../../src/content/ad-by-id.ts';
import { getPolicyTerms, getSite } from '../../src/content/index.ts';
import { formatDate } from '../../src/format.ts';
import {
  CLOSED_TEXTS,
  CONVERSATION_NOTICES,
  CONVERSATION_PAGE_SIZE,
  INBOX_SHOWN,
  type ConversationView,
  type InboxView,
  type NewMessageTarget,
} from '../../src/pages/messages-view.ts';
import { adPath, conversationPath, newMessagePath, routes } from '../../src/paths.ts';
import { scanMessage } from '../../src/policy/index.ts';
import type { CompiledAd } from '../../src/schemas/compiled-content.ts';
import {
  checkMessageBody,
  CONVERSATION_WINDOW_HOURS,
  MESSAGE_WINDOW_MINUTES,
  MESSAGES_PER_WINDOW,
} from '../../src/schemas/message.ts';
import type { AppEnv } from '../app-env.ts';
import { blockStore } from '../db/blocks.ts';
import {
  adAvailability,
  conversationStore,
  type AdForReply,
  type ConversationRow,
  type Notification,
  type StartOutcome,
  type ThreadPage,
} from '../db/conversations.ts';
import type { Db } from '../db/database.ts';
import type { FormEndpoint, FormPageOf } from '../forms/form-endpoint.ts';
import { NOT_SIGNED_IN, Refusal, type AnswerRefusal } from '../forms/refusal.ts';
import { readSubmission, textOf } from '../forms/submission.ts';
import type { Mailer } from '../mail/mailer.ts';
import { newMessageMail } from '../mail/conversation-messages.ts';
import type { MailSite } from '../mail/messages.ts';
import { pageSource } from '../pages.ts';
import { memberAdAsCompiled } from '../posting/ad-view.ts';

/** Largest request body the message endpoints read: 2,000 characters of 4-byte UTF-8, form-encoded. */
export const MESSAGES_MAX_BODY_BYTES = 32 * 1024;

export interface MessagingOptions {
  db: Db;
  refuse: AnswerRefusal;
  form: FormEndpoint;
  mailer: Mailer;
  mailSite: () => MailSite;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Messages a member may send in a window; default MESSAGES_PER_WINDOW in MESSAGE_WINDOW_MINUTES. */
  messageLimit?: { points: number; duration: number };
}

export const NOT_VERIFIED_TO_WRITE =
  'Verify your email address before writing to members: open the link we emailed you, or ask for a new one on your account page.';
export const CONVERSATION_NOT_FOUND = "We couldn't find that conversation.";
export const AD_NOT_FOUND_FOR_REPLY =
  "We couldn't find that ad. It may have expired or been removed.";
export const OWN_AD =
  'This is your own ad: members reply to it, and their messages appear in your Messages.';
export const NOT_A_MEMBER_AD =
  "This is a sample or editor's listing, not a member's ad: there is nobody to write to, and nothing would be delivered.";

type Status = 400 | 403 | 404 | 409 | 410 | 429;

/** Why a member ad takes no new conversations, in a sentence; undefined when it is not public. */
export function unavailableText(ad: AdForReply, today: string): string | undefined {
  switch (adAvailability(ad, today)) {
    case 'removed':
      return 'A moderator removed this ad, so it takes no replies.';
    case 'deleted':
      return 'The poster deleted this ad, so it takes no new replies.';
    case 'expired':
      return `This ad expired${ad.expiresOn ? ` on ${formatDate(ad.expiresOn)}` : ''}, so it takes no new replies.`;
    case 'hidden':
      return 'This ad is off the site while moderators look into reports about it, so it takes no new replies for now.';
    default:
      // In review or rejected: never on the site, so answered as an unknown ad.
      return undefined;
  }
}

/** What the message pages show, for one member, from the database. */
function messageViews(options: Pick<MessagingOptions, 'db' | 'now'>) {
  const store = conversationStore(options.db);
  const blocks = blockStore(options.db);
  const now = options.now ?? (() => new Date());
  const today = () => now().toISOString().slice(0, 10);
  return { inboxView, conversationView, targetOf };

  function inboxView(member: number): InboxView {
    const entries = store.inbox(member, INBOX_SHOWN).map((row) => ({
      conversationId: row.conversationId,
      adTitle: row.adTitle,
      other: otherSide(row, member),
      lastMessageAt: row.lastMessageAt,
      unread: row.unread,
      youBlocked: row.youBlocked === 1,
    }));
    return {
      kind: 'inbox',
      entries,
      total: entries.length < INBOX_SHOWN ? entries.length : store.inboxCount(member),
      unread: store.unreadTotal(member),
    };
  }

  function conversationView(
    conversation: ConversationRow,
    member: number,
    done: string | undefined,
    thread: ThreadPage,
  ): ConversationView {
    const other = conversation.posterId === member ? conversation.replierId : conversation.posterId;
    const live =
      conversation.adStatus === 'live' &&
      !conversation.adHidden &&
      conversation.adExpiresOn !== null &&
      conversation.adExpiresOn > today() &&
      conversation.adState !== null &&
      conversation.adCity !== null;
    const closed = store.closedReason(conversation, member);
    return {
      kind: 'conversation',
      conversationId: conversation.id,
      adTitle: conversation.adTitle,
      ...(live
        ? { adHref: adPath(conversation.adState!, conversation.adCity!, conversation.adId!) }
        : {}),
      yourAd: conversation.posterId === member,
      other: otherSide(conversation, member),
      messages: thread.messages.map((message) => ({
        id: message.id,
        from:
          message.senderId === member
            ? 'you'
            : message.senderId === conversation.posterId
              ? 'poster'
              : 'replier',
        body: message.body,
        sentAt: message.sentAt,
      })),
      page: {
        first: thread.older + Math.min(1, thread.messages.length),
        last: thread.older + thread.messages.length,
        total: thread.total,
        ...(thread.older > 0 ? { olderBefore: thread.messages[0]!.id } : {}),
        ...(thread.newer !== undefined ? { newerBefore: thread.newer } : {}),
      },
      ...(closed ? { closed } : {}),
      youBlocked: other !== null && blocks.between(member, other).youBlocked,
      ...(done && done in CONVERSATION_NOTICES
        ? { notice: CONVERSATION_NOTICES[done as keyof typeof CONVERSATION_NOTICES] }
        : {}),
    };
  }

  /** What `/messages/new?ad=…` is about, for this member. */
  function targetOf(adParam: string | undefined, member: number): NewMessageTarget {
    const id = idOf(adParam);
    if (id === undefined) return { kind: 'not-found' };
    const ad = store.findAd(id);
    if (!ad) {
      const published = findPublishedAd(id);
      return published ? { kind: 'not-member-ad', ad: published } : { kind: 'not-found' };
    }
    if (ad.accountId === member) return { kind: 'own-ad', ad: shownAd(ad) };
    const why = unavailableText(ad, today());
    if (adAvailability(ad, today()) !== 'live')
      return why ? { kind: 'unavailable', title: ad.title, why } : { kind: 'not-found' };
    const between = blocks.between(member, ad.accountId);
    if (between.youBlocked || between.blockedYou)
      return { kind: 'blocked', ad: shownAd(ad), by: between.youBlocked ? 'you' : 'them' };
    return { kind: 'member-ad', ad: shownAd(ad) };
  }

  function shownAd(ad: AdForReply): CompiledAd {
    return memberAdAsCompiled(ad, {
      postedAt: ad.postedOn ?? today(),
      expiresAt: ad.expiresOn ?? today(),
    });
  }
}

/**
 * The pages: the inbox; the reply form of an ad (or the member's conversation about it, if they
 * have one); a conversation, whose opening marks the other side's messages read. A conversation
 * that is not the member's is the same 404 as one that does not exist.
 */
export function messagePageSources(options: Pick<MessagingOptions, 'db' | 'now'>) {
  const store = conversationStore(options.db);
  const views = messageViews(options);
  const now = options.now ?? (() => new Date());
  return [
    pageSource({
      route: routes.messages,
      for: 'members',
      read: (_c, { member }) => ({ messages: views.inboxView(member.accountId) }),
    }),
    pageSource({
      route: routes.newMessage,
      for: 'members',
      read: (c, { member, form }) => {
        const adParam = form?.values.ad ?? c.req.query('ad');
        const adId = idOf(adParam);
        const existing =
          adId === undefined || form ? undefined : store.existingFor(adId, member.accountId);
        if (existing !== undefined) return c.redirect(conversationPath(existing), 303);
        const target = views.targetOf(adParam, member.accountId);
        return {
          messages: { kind: 'new', target },
          ...(target.kind === 'not-found' ? { status: 404 as const } : {}),
        };
      },
    }),
    pageSource({
      route: routes.conversation,
      for: 'members',
      read: (c, { member, params }) => {
        const id = idOf(params.conversationId);
        const conversation = id === undefined ? undefined : store.find(id, member.accountId);
        if (!conversation) return { messages: { kind: 'conversation-not-found' }, status: 404 };
        // A refused form (a POST) is shown on the newest page, where the reply form is.
        const beforeParam = c.req.method === 'GET' ? c.req.query('before') : undefined;
        const before = beforeParam === undefined ? undefined : idOf(beforeParam);
        const missing = (problem: 'malformed' | 'nothing-before') => ({
          messages: {
            kind: 'conversation-page-missing' as const,
            conversationId: conversation.id,
            adTitle: conversation.adTitle,
            problem,
          },
          status: problem === 'malformed' ? (400 as const) : (404 as const),
        });
        if (beforeParam !== undefined && before === undefined) return missing('malformed');
        const thread = store.page(conversation.id, CONVERSATION_PAGE_SIZE, before);
        if (before !== undefined && thread.messages.length === 0) return missing('nothing-before');
        // The newest page opened by its member: the other side's messages are read now (not by a
        // refused post, nor by reading back through older pages).
        const shown = thread.messages.at(-1);
        if (c.req.method === 'GET' && thread.newer === undefined && shown)
          store.markRead(conversation.id, member.accountId, now(), shown.id);
        return {
          messages: views.conversationView(
            conversation,
            member.accountId,
            c.req.query('done'),
            thread,
          ),
        };
      },
    }),
  ];
}

export function messagesRoutes(options: MessagingOptions) {
  const { refuse, mailer } = options;
  const store = conversationStore(options.db);
  const blocks = blockStore(options.db);
  const now = options.now ?? (() => new Date());
  const today = () => now().toISOString().slice(0, 10);
  const messageLimit = options.messageLimit ?? {
    points: MESSAGES_PER_WINDOW,
    duration: MESSAGE_WINDOW_MINUTES * 60,
  };
  const sendLimit = new RateLimiterMemory({ keyPrefix: 'messagesPerMember', ...messageLimit });
  /** Seconds to wait before the member may send again; 0 when they may now (and it counts). */
  const waitBeforeSending = (accountId: number) => secondsToWait(sendLimit, String(accountId));
  const tooFast = (wait: number) => {
    const minutes = Math.ceil(wait / 60);
    return `You have sent ${messageLimit.points} messages in the last ${Math.round(messageLimit.duration / 60)} minutes, the most anyone can. You can send again in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}.`;
  };
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
    if (!member) return refuse(c, new Refusal(401, NOT_SIGNED_IN));
    if (!member.emailVerified) return refuse(c, new Refusal(403, NOT_VERIFIED_TO_WRITE), values);
    const adId = idOf(adParam);
    const ad = adId === undefined ? undefined : store.findAd(adId);
    if (!ad) {
      const published = adId === undefined ? undefined : findPublishedAd(adId);
      return published
        ? refuse(c, new Refusal(403, NOT_A_MEMBER_AD), values)
        : refuse(c, new Refusal(404, AD_NOT_FOUND_FOR_REPLY), values);
    }
    const checked = checkMessageBody(submission.fields.body);
    if (!checked.ok) return refuse(c, new Refusal(400, checked.problem), values);
    // The first message of a conversation goes through the policy scanner (docs/product.md section
    // 7); a start that becomes a message in an existing conversation is scanned all the same.
    const scanned = scanMessage(
      checked.body,
      getPolicyTerms(),
      [ad.city, ad.state],
      getSite().brand,
    );
    if (scanned.refusal) return refuse(c, new Refusal(400, scanned.refusal), values);
    const startWait = await waitBeforeSending(member.accountId);
    if (startWait)
      return refuse(c, new Refusal(429, tooFast(startWait), undefined, startWait), values);
    const outcome = store.start(ad.id, member.accountId, checked.body, now());
    if (!outcome.ok) {
      const [status, message, retryAfter] = startRefusal(outcome, ad);
      return refuse(c, new Refusal(status, message, undefined, retryAfter), values);
    }
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
    if (!member) return refuse(c, new Refusal(401, NOT_SIGNED_IN));
    const conversation = id === undefined ? undefined : store.find(id, member.accountId);
    if (!conversation) return refuse(c, new Refusal(404, CONVERSATION_NOT_FOUND));
    if (!member.emailVerified) return refuse(c, new Refusal(403, NOT_VERIFIED_TO_WRITE), values);
    const checked = checkMessageBody(submission.fields.body);
    if (!checked.ok) return refuse(c, new Refusal(400, checked.problem), values);
    const replyWait = await waitBeforeSending(member.accountId);
    if (replyWait)
      return refuse(c, new Refusal(429, tooFast(replyWait), undefined, replyWait), values);
    const outcome = store.reply(conversation.id, member.accountId, checked.body, now());
    if (!outcome.ok)
      return outcome.refused === 'not-found'
        ? refuse(c, new Refusal(404, CONVERSATION_NOT_FOUND))
        : refuse(
            c,
            new Refusal(
              outcome.refused === 'blocked-you' || outcome.refused === 'you-blocked' ? 403 : 409,
              CLOSED_TEXTS[outcome.refused],
            ),
            values,
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
    if (!member) return refuse(c, new Refusal(401, NOT_SIGNED_IN));
    const conversation = id === undefined ? undefined : store.find(id, member.accountId);
    if (!conversation) return refuse(c, new Refusal(404, CONVERSATION_NOT_FOUND));
    const other =
      conversation.posterId === member.accountId ? conversation.replierId : conversation.posterId;
    if (other === null) return refuse(c, new Refusal(409, CLOSED_TEXTS['other-deleted']));
    if (block) blocks.block(member.accountId, other, now());
    else blocks.unblock(member.accountId, other);
    const done = block ? 'blocked' : 'unblocked';
    const redirectUrl = `${conversationPath(conversation.id)}?done=${done}`;
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

  // ---- Answers ----

  function startRefusal(
    outcome: Extract<StartOutcome, { ok: false }>,
    ad: AdForReply,
  ): [Status, string, number?] {
    switch (outcome.refused) {
      case 'ad-not-found':
        return [404, AD_NOT_FOUND_FOR_REPLY];
      case 'own-ad':
        return [403, OWN_AD];
      case 'ad-unavailable': {
        const why = unavailableText(ad, today());
        return why ? [410, why] : [404, AD_NOT_FOUND_FOR_REPLY];
      }
      case 'limit': {
        const retryAfter = Math.max(
          1,
          Math.ceil((Date.parse(outcome.nextAt) - now().getTime()) / 1000),
        );
        const when = `${outcome.nextAt.slice(0, 16).replace('T', ' ')} UTC`;
        const message = outcome.newAccount
          ? `New accounts can start ${outcome.limit} conversations a day, and you have started ${outcome.limit} in the last ${CONVERSATION_WINDOW_HOURS} hours. You can start another from ${when}.`
          : `You have started ${outcome.limit} conversations in the last ${CONVERSATION_WINDOW_HOURS} hours, the most anyone can. You can start another from ${when}.`;
        return [429, message, retryAfter];
      }
      case 'not-found':
        return [404, AD_NOT_FOUND_FOR_REPLY];
      case 'you-blocked':
        return [
          403,
          'You blocked the poster of this ad. Unblock them from your conversation with them to write again.',
        ];
      case 'blocked-you':
        return [403, CLOSED_TEXTS['blocked-you']];
      default:
        return [409, CLOSED_TEXTS[outcome.refused]];
    }
  }

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

function otherSide(
  row: Pick<ConversationRow, 'posterId' | 'replierId'>,
  member: number,
): 'poster' | 'replier' | 'deleted' {
  if (row.posterId === member) return row.replierId === null ? 'deleted' : 'replier';
  return row.posterId === null ? 'deleted' : 'poster';
}
