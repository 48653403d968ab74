// A message between members (docs/product.md section 7) and the numbers of messaging, apart from any
// schema library so that pages can show them. The server checks every message with
// `checkMessageBody`; the database's CHECK (migration 5) holds the same 1–2,000 characters.

/** Characters a message may have, counted as SQLite's length() counts them (code points). */
export const MESSAGE_MAX_CHARS = 2000;
/** Accounts younger than this many hours are new… */
export const NEW_ACCOUNT_HOURS = 24;
/** …and may start this many conversations within CONVERSATION_WINDOW_HOURS… */
export const NEW_ACCOUNT_CONVERSATIONS = 5;
/** …while anyone may start this many. */
export const MAX_CONVERSATIONS = 30;
export const CONVERSATION_WINDOW_HOURS = 24;
/**
 * Messages one member may send, in all conversations, within MESSAGE_WINDOW_MINUTES: far above a
 * person typing (the concurrency test sends 100 at once), low enough that a script cannot fill a
 * thread or the database.
 */
export const MESSAGES_PER_WINDOW = 120;
export const MESSAGE_WINDOW_MINUTES = 10;

/**
 * The text as stored: line breaks as `\n` (a form sends `\r\n`, which a browser's own count takes
 * as one character), and without NUL and other control characters but tabs and line breaks
 * (SQLite's length() stops at a NUL, and none of them belongs in a message).
 */
export const normaliseMessageBody = (text: string) =>
  text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');

/** Characters as the database counts them. */
export const messageLength = (text: string) => [...text].length;

export type MessageBodyCheck = { ok: true; body: string } | { ok: false; problem: string };

/** The message to store, or why it cannot be sent. */
export function checkMessageBody(input: unknown): MessageBodyCheck {
  const body = normaliseMessageBody(typeof input === 'string' ? input : '').trim();
  if (body === '') return { ok: false, problem: 'Write a message before sending it.' };
  const length = messageLength(body);
  if (length > MESSAGE_MAX_CHARS)
    return {
      ok: false,
      problem: `A message can be ${MESSAGE_MAX_CHARS.toLocaleString('en-US')} characters at most; yours has ${length.toLocaleString('en-US')}. Shorten it, or send it in two messages.`,
    };
  return { ok: true, body };
}
