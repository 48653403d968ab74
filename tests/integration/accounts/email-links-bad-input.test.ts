// Bad input to the emailed-link endpoints (/api/verify, /api/verify/resend, /api/forgot,
// /api/reset): wrong types, missing fields, unexpected fields, huge text, bad tokens, bodies that
// are not JSON or a form. Each is a 4xx with its message (JSON) or the form page with it (a
// browser's form post), never a 500, and changes nothing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  FORM_TYPE,
  JSON_TYPE,
  makeTestApp,
  ORIGIN,
  postJson,
  signupBody,
  type TestApp,
} from '../../helpers/api.ts';
import { bannerOf, headingOf, useFixtureContent } from '../../helpers/pages.ts';

const NOT_JSON = 'The request body is not valid JSON.';
const NOT_OBJECT = 'The request body must be a JSON object.';
const UNSUPPORTED = 'Send the request as JSON (Content-Type: application/json) or as a form.';
const TOO_LARGE = 'The request body is too large (16 KB at most).';
const LINK_NOT_VALID =
  'This link is not valid. Check that you opened the whole link from the email.';
const MADE_UP_TOKEN = 'B'.repeat(43);

let cleanupContent: () => void;
let t: TestApp;
beforeAll(async () => {
  cleanupContent = useFixtureContent();
  t = await makeTestApp();
  // A real account, so a reset with a made-up token cannot land on it by accident.
  expect((await postJson(t.app, '/api/signup', signupBody())).status).toBe(201);
});
afterAll(() => {
  t.remove();
  cleanupContent();
});

interface BadInput {
  path: string;
  body: string | Record<string, unknown> | unknown[];
  contentType?: string;
  status: number;
  error: string;
}

const table: BadInput[] = [
  { path: '/api/forgot', body: {}, status: 400, error: 'Enter your email address.' },
  { path: '/api/forgot', body: { email: 42 }, status: 400, error: 'Email must be text.' },
  {
    path: '/api/forgot',
    body: { email: ['a@example.com'] },
    status: 400,
    error: 'Email must be text.',
  },
  { path: '/api/forgot', body: { email: null }, status: 400, error: 'Enter your email address.' },
  { path: '/api/forgot', body: { email: '   ' }, status: 400, error: 'Enter your email address.' },
  {
    path: '/api/forgot',
    body: { email: 'not-an-address' },
    status: 400,
    error: 'Enter a valid email address, like name@example.com.',
  },
  {
    path: '/api/forgot',
    body: { email: `${'a'.repeat(250)}@example.com` },
    status: 400,
    error: 'Email address is too long (254 characters at most).',
  },
  {
    path: '/api/forgot',
    body: { email: 'a@example.com', admin: true },
    status: 400,
    error: 'Unexpected field: admin.',
  },
  { path: '/api/forgot', body: '{"email":', status: 400, error: NOT_JSON },
  { path: '/api/forgot', body: ['a@example.com'], status: 400, error: NOT_OBJECT },
  {
    path: '/api/forgot',
    body: 'email=a@example.com',
    contentType: 'text/plain',
    status: 415,
    error: UNSUPPORTED,
  },
  { path: '/api/forgot', body: { email: 'x'.repeat(20_000) }, status: 413, error: TOO_LARGE },
  {
    path: '/api/verify',
    body: {},
    status: 400,
    error: 'This link is not valid. Open the link from your email again.',
  },
  { path: '/api/verify', body: { token: 12345 }, status: 400, error: 'Token must be text.' },
  {
    path: '/api/verify',
    body: { token: 'short' },
    status: 400,
    error: 'This link is not valid. Check that you copied all of it.',
  },
  { path: '/api/verify', body: { token: MADE_UP_TOKEN }, status: 400, error: LINK_NOT_VALID },
  {
    path: '/api/verify',
    body: { token: MADE_UP_TOKEN, extra: 1 },
    status: 400,
    error: 'Unexpected field: extra.',
  },
  { path: '/api/verify', body: { token: 'x'.repeat(20_000) }, status: 413, error: TOO_LARGE },
  { path: '/api/verify', body: 'nonsense', status: 400, error: NOT_JSON },
  { path: '/api/reset', body: {}, status: 400, error: LINK_NOT_VALID },
  {
    path: '/api/reset',
    body: { token: ['x'], password: 'long enough password' },
    status: 400,
    error: LINK_NOT_VALID,
  },
  {
    path: '/api/reset',
    body: { token: MADE_UP_TOKEN, password: 'long enough password' },
    status: 400,
    error: LINK_NOT_VALID,
  },
  {
    path: '/api/reset',
    body: { token: "' OR 1=1; --", password: 'long enough password' },
    status: 400,
    error: LINK_NOT_VALID,
  },
  {
    path: '/api/reset',
    body: { token: MADE_UP_TOKEN, password: 'p'.repeat(20_000) },
    status: 413,
    error: TOO_LARGE,
  },
  {
    path: '/api/reset',
    body: 'token=abc',
    contentType: 'application/xml',
    status: 415,
    error: UNSUPPORTED,
  },
  { path: '/api/verify/resend', body: {}, status: 401, error: 'You are not signed in.' },
  { path: '/api/verify/resend', body: '[', status: 400, error: NOT_JSON },
];

describe.each(table)('$path with $body', ({ path, body, contentType, status, error }) => {
  test(`answers ${status} with its message`, async () => {
    const response = await t.app.request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'content-type': contentType ?? JSON_TYPE },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect(response.status).toBe(status);
    const answer = (await response.json()) as { error: string };
    expect(answer.error).toBe(error);
  });
});

describe('the same endpoints posted as forms without JavaScript', () => {
  const post = (path: string, body: string) =>
    Promise.resolve(
      t.app.request(`${ORIGIN}${path}`, {
        method: 'POST',
        headers: { 'content-type': FORM_TYPE },
        body,
      }),
    );

  test.each([
    ['/api/forgot', '', 400, 'Reset your password', 'Enter your email address.'],
    ['/api/forgot', `email=${'x'.repeat(20_000)}`, 413, 'Reset your password', TOO_LARGE],
    [
      '/api/reset',
      `token=${MADE_UP_TOKEN}&password=long+enough+password`,
      400,
      'This link is not valid',
      undefined,
    ],
    ['/api/reset', 'password=long+enough+password', 400, 'This link is not valid', undefined],
    // Refused for its shape, shown as what the link is: not one of ours.
    ['/api/verify', 'token=%00%01', 400, 'This link is not valid', undefined],
    ['/api/verify', `token=${MADE_UP_TOKEN}`, 400, 'This link is not valid', undefined],
  ])('%s → %i, the page "%s" with its message', async (path, body, status, heading, banner) => {
    const response = await post(path, body);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(headingOf(html)).toBe(heading);
    expect(bannerOf(html)).toBe(banner);
  });

  test('a form from another site is refused with the form page (403)', async () => {
    const response = await t.app.request(`${ORIGIN}/api/forgot`, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, origin: 'https://elsewhere.example' },
      body: 'email=a%40example.com',
    });
    expect(response.status).toBe(403);
    expect(headingOf(await response.text())).toBe('Reset your password');
  });

  test.each(['/api/forgot', '/api/reset', '/api/verify', '/api/verify/resend'])(
    'GET %s is 405',
    async (path) => {
      const response = await t.app.request(`${ORIGIN}${path}`);
      expect(response.status).toBe(405);
      expect(await response.json()).toEqual({ error: 'Use POST for this endpoint.' });
    },
  );
});
