// Shows the signed-in member's email and a Sign out button in the header (which unsubscribes this
// browser from notifications before it posts: push-sign-out.ts). Pages stay static and cacheable:
// only visitors with the member hint cookie ask /api/me who they are.
import { accountPath, meApiPath, messagesPath, signoutApiPath } from '../../core/paths.ts';
import { newConversationsText } from '../../core/views/messages.ts';
import { unsubscribeOnSignOut } from './push-sign-out.ts';

/** The member hint cookie: set with the session, readable by scripts (the session is not). */
export const isSignedIn = () => document.cookie.split('; ').includes('lb_member=1');

export async function showSignedInMember(): Promise<void> {
  if (!isSignedIn()) return;
  let email: string;
  const fresh = { chats: 0, requests: 0 };
  try {
    const response = await fetch(meApiPath(), {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!response.ok) return;
    const me = (await response.json()) as {
      email?: unknown;
      newChats?: unknown;
      newRequests?: unknown;
    };
    email = String(me.email ?? '');
    fresh.chats = countOf(me.newChats);
    fresh.requests = countOf(me.newRequests);
  } catch {
    return;
  }
  const header = document.querySelector('.site-header__inner');
  if (!email || !header) return;

  const bar = document.createElement('div');
  bar.className = 'member-bar';
  // The email leads to the account page (verification status, a new link).
  const who = document.createElement('a');
  who.className = 'member-bar__email';
  who.href = accountPath();
  who.textContent = email;
  // Messages, with what is new when anything is, in words: "2 new: 1 chat, 1 request" (/messages).
  const messages = document.createElement('a');
  messages.className = 'member-bar__messages';
  messages.href = messagesPath();
  messages.textContent = 'Messages';
  const news = newConversationsText(fresh);
  if (news) {
    const count = document.createElement('span');
    count.className = 'unread-count';
    count.textContent = news;
    messages.append(' ', count);
  }
  const form = document.createElement('form');
  form.method = 'post';
  form.action = signoutApiPath();
  const signOut = document.createElement('button');
  signOut.type = 'submit';
  signOut.className = 'button button--ghost button--small';
  signOut.textContent = 'Sign out';
  form.append(signOut);
  // Signing out here turns this browser's notifications off too (the server's part is its own).
  unsubscribeOnSignOut(form);
  bar.append(messages, who, form);
  // Before the menu, so the menu stays at the right edge.
  header.insertBefore(bar, header.querySelector('.menu'));
  header.classList.add('site-header__inner--member');
  // Members need no invitation to join.
  for (const join of document.querySelectorAll<HTMLElement>('a[data-member-action="join"]'))
    join.hidden = true;
}

/** A count from /api/me: a whole number from 0 up (anything else: 0). */
const countOf = (value: unknown) =>
  typeof value === 'number' && value > 0 ? Math.floor(value) : 0;
