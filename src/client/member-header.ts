// Shows the signed-in member's email and a Sign out button in the header. Pages stay static and
// cacheable: only visitors with the member hint cookie ask /api/me who they are.
import { accountPath, meApiPath, messagesPath, signoutApiPath } from '../../core/paths.ts';

/** The member hint cookie: set with the session, readable by scripts (the session is not). */
export const isSignedIn = () => document.cookie.split('; ').includes('lb_member=1');

export async function showSignedInMember(): Promise<void> {
  if (!isSignedIn()) return;
  let email: string;
  let unread = 0;
  try {
    const response = await fetch(meApiPath(), {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!response.ok) return;
    const me = (await response.json()) as { email?: unknown; unread?: unknown };
    email = String(me.email ?? '');
    unread = typeof me.unread === 'number' && me.unread > 0 ? Math.floor(me.unread) : 0;
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
  // Messages, with how many are unread when there are any (/messages).
  const messages = document.createElement('a');
  messages.className = 'member-bar__messages';
  messages.href = messagesPath();
  messages.textContent = 'Messages';
  if (unread > 0) {
    const count = document.createElement('span');
    count.className = 'unread-count';
    count.textContent = String(unread);
    const label = document.createElement('span');
    label.className = 'visually-hidden';
    label.textContent = ' unread';
    count.append(label);
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
  bar.append(messages, who, form);
  // Before the menu, so the menu stays at the right edge.
  header.insertBefore(bar, header.querySelector('.menu'));
  header.classList.add('site-header__inner--member');
  // Members need no invitation to join.
  for (const join of document.querySelectorAll<HTMLElement>('a[data-member-action="join"]'))
    join.hidden = true;
}
