// The session cookie: a random token (the server keeps only its hash), HttpOnly, SameSite=Lax,
// Secure over HTTPS. A second, readable cookie only tells page scripts that someone is signed in,
// so anonymous visitors never call /api/me. A third, sent only to the API, marks a browser its
// member has signed up, signed in or reset the password from before (known-browser.ts).
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { API_PREFIX } from '../../core/paths.ts';

export { hashToken, newSessionToken } from './tokens.ts';

export const SESSION_COOKIE = 'lb_session';
export const MEMBER_HINT_COOKIE = 'lb_member';
export const DEVICE_COOKIE = 'lb_device';
export const SESSION_DAYS = 30;
export const DEVICE_DAYS = 365;

export function setSessionCookies(c: Context, token: string, secure: boolean): void {
  const maxAge = SESSION_DAYS * 24 * 60 * 60;
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure,
    sameSite: 'Lax',
    path: '/',
    maxAge,
  });
  setCookie(c, MEMBER_HINT_COOKIE, '1', {
    httpOnly: false,
    secure,
    sameSite: 'Lax',
    path: '/',
    maxAge,
  });
}

export function clearSessionCookies(c: Context, secure: boolean): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure, httpOnly: true, sameSite: 'Lax' });
  deleteCookie(c, MEMBER_HINT_COOKIE, { path: '/', secure, sameSite: 'Lax' });
}

export const sessionTokenOf = (c: Context) => getCookie(c, SESSION_COOKIE);

export function setDeviceCookie(c: Context, token: string, secure: boolean): void {
  setCookie(c, DEVICE_COOKIE, token, {
    httpOnly: true,
    secure,
    sameSite: 'Strict',
    path: API_PREFIX,
    maxAge: DEVICE_DAYS * 24 * 60 * 60,
  });
}

export const deviceTokenOf = (c: Context) => getCookie(c, DEVICE_COOKIE);
