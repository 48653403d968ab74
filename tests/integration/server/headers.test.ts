// Response headers a browser acts on: Permissions-Policy everywhere, HSTS once the request is
// known to have come over HTTPS (directly or through our proxy), and no caching of anything that
// sets a cookie or shows account data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cookieHeader,
  FORM_TYPE,
  makeTestApp,
  ORIGIN,
  PASSWORD,
  dobYearsAgo,
  postJson,
  sessionTokenOf,
  signupBody,
  uniqueEmail,
  type TestApp,
} from '../../helpers/api.ts';
import { meApiPath, signinApiPath, signoutApiPath, signupApiPath } from '../../../core/paths.ts';

let direct: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  direct = await makeTestApp();
  proxied = await makeTestApp({ trustProxy: 1 });
});
afterAll(async () => {
  await direct.remove();
  await proxied.remove();
});

describe('Permissions-Policy', () => {
  it.each(['/', '/signup', '/nowhere', meApiPath()])(
    'turns off camera, microphone, … on %s',
    async (path) => {
      const response = await direct.app.request(`${ORIGIN}${path}`);
      const policy = response.headers.get('permissions-policy') ?? '';
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
        expect(policy).toContain(`${feature}=()`);
      }
    },
  );
});

describe('Strict-Transport-Security', () => {
  it('is not sent over plain http', async () => {
    const response = await direct.app.request(`${ORIGIN}/`);
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('is sent when the request itself came over https', async () => {
    const response = await direct.app.request('https://localhost/');
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });

  it('is sent when our proxy says the browser used https', async () => {
    const response = await proxied.app.request(`${ORIGIN}/`, {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.0.2.1' },
    });
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });

  it('is not sent on the word of a client when no proxy is trusted', async () => {
    const response = await direct.app.request(`${ORIGIN}/`, {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('Cache-Control: no-store', () => {
  it('is on every answer that sets a cookie: sign-up, sign-in, sign-out', async () => {
    const email = uniqueEmail('cache');
    const signup = await postJson(direct.app, signupApiPath(), signupBody({ email }));
    const signin = await postJson(direct.app, signinApiPath(), { email, password: PASSWORD });
    const signout = await direct.app.request(`${ORIGIN}${signoutApiPath()}`, {
      method: 'POST',
      headers: cookieHeader(sessionTokenOf(signin)),
    });
    for (const response of [signup, signin, signout]) {
      expect(response.headers.getSetCookie().length).toBeGreaterThan(0);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('is on the redirect a form sign-up answers with', async () => {
    const response = await direct.app.request(`${ORIGIN}${signupApiPath()}`, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE },
      body: new URLSearchParams({
        email: uniqueEmail('form-cache'),
        password: 'form-password-123',
        dateOfBirth: dobYearsAgo(30),
        acceptTerms: 'on',
      }).toString(),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('is on account data (/api/me) and on refusals that show what was typed', async () => {
    const signup = await postJson(direct.app, signupApiPath(), signupBody());
    const me = await direct.app.request(`${ORIGIN}${meApiPath()}`, {
      headers: cookieHeader(sessionTokenOf(signup)),
    });
    expect(me.status).toBe(200);
    expect(me.headers.get('cache-control')).toBe('no-store');
    const refused = await postJson(direct.app, signupApiPath(), signupBody({ password: 'short' }));
    expect(refused.status).toBe(400);
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  it('is not on public pages, which caches may keep and revalidate', async () => {
    const response = await direct.app.request(`${ORIGIN}/`);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  });
});
