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
import {
  forgotApiPath,
  resetApiPath,
  signupApiPath,
  verifyApiPath,
  verifyResendApiPath,
} from '../../../core/paths.ts';

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
  expect((await postJson(t.app, signupApiPath(), signupBody())).status).toBe(201);
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
  { path: forgotApiPath(), body: {}, status: 400, error: 'Enter your email address.' },
  { path: forgotApiPath(), body: { email: 42 }, status: 400, error: 'Email must be text.' },
  {
    path: forgotApiPath(),
    body: { email: ['a@example.com'] },
    status: 400,
    error: 'Email must be text.',
  },
  { path: forgotApiPath(), body: { email: null }, status: 400, error: 'Enter your email address.' },
  {
    path: forgotApiPath(),
    body: { email: '   ' },
    status: 400,
    error: 'Enter your email address.',
  },
  {
    path: forgotApiPath(),
    body: { email: 'not-an-address' },
    status: 400,
    error: 'Enter a valid email address, like name@example.com.',
  },
  {
    path: forgotApiPath(),
    body: { email: `${'a'.repeat(250)}@example.com` },
    status: 400,
    error: 'Email address is too long (254 characters at most).',
  },
  {
    path: forgotApiPath(),
    body: { email: 'a@example.com', admin: true },
    status: 400,
    error: 'Unexpected field: admin.',
  },
  { path: forgotApiPath(), body: '{"email":', status: 400, error: NOT_JSON },
  { path: forgotApiPath(), body: ['a@example.com'], status: 400, error: NOT_OBJECT },
  {
    path: forgotApiPath(),
    body: 'email=a@example.com',
    contentType: 'text/plain',
    status: 415,
    error: UNSUPPORTED,
  },
  { path: forgotApiPath(), body: { email: 'x'.repeat(20_000) }, status: 413, error: TOO_LARGE },
  {
    path: verifyApiPath(),
    body: {},
    status: 400,
    error: 'This link is not valid. Open the link from your email again.',
  },
  { path: verifyApiPath(), body: { token: 12345 }, status: 400, error: 'Token must be text.' },
  {
    path: verifyApiPath(),
    body: { token: 'short' },
    status: 400,
    error: 'This link is not valid. Check that you copied all of it.',
  },
  { path: verifyApiPath(), body: { token: MADE_UP_TOKEN }, status: 400, error: LINK_NOT_VALID },
  {
    path: verifyApiPath(),
    body: { token: MADE_UP_TOKEN, extra: 1 },
    status: 400,
    error: 'Unexpected field: extra.',
  },
  { path: verifyApiPath(), body: { token: 'x'.repeat(20_000) }, status: 413, error: TOO_LARGE },
  { path: verifyApiPath(), body: 'nonsense', status: 400, error: NOT_JSON },
  { path: resetApiPath(), body: {}, status: 400, error: LINK_NOT_VALID },
  {
    path: resetApiPath(),
    body: { token: ['x'], password: 'long enough password' },
    status: 400,
    error: LINK_NOT_VALID,
  },
  {
    path: resetApiPath(),
    body: { token: MADE_UP_TOKEN, password: 'long enough password' },
    status: 400,
    error: LINK_NOT_VALID,
  },
  {
    path: resetApiPath(),
    body: { token: "' OR 1=1; --", password: 'long enough password' },
    status: 400,
    error: LINK_NOT_VALID,
  },
  {
    path: resetApiPath(),
    body: { token: MADE_UP_TOKEN, password: 'p'.repeat(20_000) },
    status: 413,
    error: TOO_LARGE,
  },
  {
    path: resetApiPath(),
    body: 'token=abc',
    contentType: 'application/xml',
    status: 415,
    error: UNSUPPORTED,
  },
  { path: verifyResendApiPath(), body: {}, status: 401, error: 'You are not signed in.' },
  { path: verifyResendApiPath(), body: '[', status: 400, error: NOT_JSON },
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
    [forgotApiPath(), '', 400, 'Reset your password', 'Enter your email address.'],
    [forgotApiPath(), `email=${'x'.repeat(20_000)}`, 413, 'Reset your password', TOO_LARGE],
    [
      resetApiPath(),
      `token=${MADE_UP_TOKEN}&password=long+enough+password`,
      400,
      'This link is not valid',
      undefined,
    ],
    [resetApiPath(), 'password=long+enough+password', 400, 'This link is not valid', undefined],
    // Refused for its shape, shown as what the link is: not one of ours.
    [verifyApiPath(), 'token=%00%01', 400, 'This link is not valid', undefined],
    [verifyApiPath(), `token=${MADE_UP_TOKEN}`, 400, 'This link is not valid', undefined],
  ])('%s → %i, the page "%s" with its message', async (path, body, status, heading, banner) => {
    const response = await post(path, body);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(headingOf(html)).toBe(heading);
    expect(bannerOf(html)).toBe(banner);
  });

  test('a form from another site is refused with the form page (403)', async () => {
    const response = await t.app.request(`${ORIGIN}${forgotApiPath()}`, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, origin: 'https://elsewhere.example' },
      body: 'email=a%40example.com',
    });
    expect(response.status).toBe(403);
    expect(headingOf(await response.text())).toBe('Reset your password');
  });

  test.each([forgotApiPath(), resetApiPath(), verifyApiPath(), verifyResendApiPath()])(
    'GET %s is 405',
    async (path) => {
      const response = await t.app.request(`${ORIGIN}${path}`);
      expect(response.status).toBe(405);
      expect(await response.json()).toEqual({ error: 'Use POST for this endpoint.' });
    },
  );
});
