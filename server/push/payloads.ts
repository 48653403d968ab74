// What a push says (docs/product.md section 7, "Notifications on this device"): Declarative Web
// Push's JSON (https://github.com/WebKit/explainers/tree/main/DeclarativeWebPush), which Safari
// shows without running the service worker, and which the service worker reads too
// (src/client/push-notification.ts). Lock screens are read by whoever holds the phone: a push says
// that there is a message and opens it, never who wrote or what, nor the ad's title; the message's
// text only when its member turned that on (and never a text the scam shield warned of).
import { conversationPath } from '../../core/paths.ts';
import type { MailSite } from '../mail/messages.ts';
import { savedSearchPath } from '../saved-searches/saved-searches.ts';

/** Declarative Web Push's magic number: the JSON is a notification to show. */
export const DECLARATIVE_PUSH = 8030;

export interface DeclarativePush {
  web_push: typeof DECLARATIVE_PUSH;
  notification: {
    title: string;
    body?: string;
    /** The page a click opens: an absolute URL of the site. */
    navigate: string;
    /** A newer notification of the same tag replaces the one shown. */
    tag: string;
    lang: 'en';
  };
}

/** The longest excerpt of a message a notification shows (lock screens show two lines or so). */
export const EXCERPT_LENGTH = 140;

export const newMessageTitle = (brand: string) => `New message on ${brand}`;
export const NEW_MESSAGE_BODY = 'Open the conversation to read it.';
export const FIRST_MESSAGE_BODY = 'A member wrote to you about your ad. Open it to read it.';

/** The message's text as one line, cut at a word near EXCERPT_LENGTH. */
export function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= EXCERPT_LENGTH) return line;
  const cut = line.slice(0, EXCERPT_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > EXCERPT_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * A new message in a conversation: `text` only when its recipient turned message text on;
 * `request`: a first message they have not answered.
 */
export function newMessagePush(
  site: MailSite,
  conversationId: number,
  { text, request }: { text?: string; request: boolean },
): DeclarativePush {
  return {
    web_push: DECLARATIVE_PUSH,
    notification: {
      title: newMessageTitle(site.brand),
      body: text !== undefined ? excerpt(text) : request ? FIRST_MESSAGE_BODY : NEW_MESSAGE_BODY,
      navigate: `${site.baseUrl}${conversationPath(conversationId)}`,
      tag: `conversation-${conversationId}`,
      lang: 'en',
    },
  };
}

/** A saved search's new ads, when its digest found some: how many, never the search's words. */
export function savedSearchPush(
  site: MailSite,
  saved: { id: number; query: string },
  count: number,
): DeclarativePush {
  return {
    web_push: DECLARATIVE_PUSH,
    notification: {
      title: `New ads on ${site.brand}`,
      body: `${count === 1 ? '1 new ad' : `${count} new ads`} for one of your saved searches.`,
      navigate: `${site.baseUrl}${savedSearchPath(saved.query)}`,
      tag: `saved-search-${saved.id}`,
      lang: 'en',
    },
  };
}
