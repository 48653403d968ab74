// Cross-site posts refused (CSRF), security headers on API and site responses, unknown API paths,
// and a request log that never holds a password, an email or a token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountIn,
  cookieHeader,
  JSON_TYPE,
  listen,
  makeTestApp,
  ORIGIN,
  PASSWORD,
  postJson,
  sessionTokenOf,
  signupBody,
  type TestApp,
} from '../../helpers/api.ts';
import { withFixtureContent } from '../../helpers/pages.ts';
import { meApiPath, signinApiPath, signoutApiPath, signupApiPath } from '../../../core/paths.ts';

// Refused form posts come back as their pages, which read the compiled content.
withFixtureContent();

const CROSS_SITE = 'This request came from another site and was refused.';
const PARTNER = 'https://partner.example';

let testApp: TestApp;
beforeAll(async () => {
  testApp = await makeTestApp({ allowedOrigins: [PARTNER] });
});
afterAll(() => testApp.remove());

describe('origin check on state-changing requests', () => {
  async function expectRefusedCrossSite(headers: Record<string, string>) {
    const body = signupBody();
    const response = await postJson(testApp.app, signupApiPath(), body, headers);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: CROSS_SITE });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await accountIn(testApp, body.email as string)).toBeUndefined();
  }

  async function expectAllowed(headers: Record<string, string>) {
    const body = signupBody();
    const response = await postJson(testApp.app, signupApiPath(), body, headers);
    expect(response.status).toBe(201);
    expect(await accountIn(testApp, body.email as string)).toBeDefined();
  }

  it('refuses a sign-up from another origin with 403 and stores nothing', () =>
    expectRefusedCrossSite({ origin: 'https://evil.example' }));

  it('refuses a cross-site fetch that names no Origin (Sec-Fetch-Site: cross-site)', () =>
    expectRefusedCrossSite({ 'sec-fetch-site': 'cross-site' }));

  it('refuses the opaque origin "null" (sandboxed frames, some redirects)', () =>
    expectRefusedCrossSite({ origin: 'null' }));

  it('refuses the right host on the wrong scheme or port', async () => {
    await expectRefusedCrossSite({ origin: 'https://localhost' });
    await expectRefusedCrossSite({ origin: 'http://localhost:8080' });
  });

  it('refuses an origin that is not in allowedOrigins', () =>
    expectRefusedCrossSite({ origin: 'https://partner.example.evil.example' }));

  it('allows the app’s own origin', () => expectAllowed({ origin: ORIGIN }));

  it('allows a same-origin fetch that names no Origin', () =>
    expectAllowed({ 'sec-fetch-site': 'same-origin' }));

  it('allows an origin listed in allowedOrigins', () => expectAllowed({ origin: PARTNER }));

  it('refuses a cross-site sign-out, so the session survives it', async () => {
    const signup = await postJson(testApp.app, signupApiPath(), signupBody());
    const token = sessionTokenOf(signup);
    const response = await testApp.app.request(`${ORIGIN}${signoutApiPath()}`, {
      method: 'POST',
      headers: { ...cookieHeader(token), origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
    const me = await testApp.app.request(`${ORIGIN}${meApiPath()}`, {
      headers: cookieHeader(token),
    });
    expect(me.status).toBe(200);
  });

  it('over real HTTP, allows the origin the browser sees (from the Host header)', async () => {
    const server = await listen(testApp.app);
    try {
      const body = signupBody();
      const response = await fetch(`${server.url}${signupApiPath()}`, {
        method: 'POST',
        headers: { 'content-type': JSON_TYPE, origin: server.url },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(201);
      const evil = await fetch(`${server.url}${signupApiPath()}`, {
        method: 'POST',
        headers: { 'content-type': JSON_TYPE, origin: 'https://evil.example' },
        body: JSON.stringify(signupBody()),
      });
      expect(evil.status).toBe(403);
    } finally {
      await server.close();
    }
  });

  // Behind a TLS-terminating proxy the app sees http://host while the browser sends
  // `Origin: https://host`: with trustProxy, X-Forwarded-Proto decides the scheme.
  it('behind a TLS proxy (trustProxy), allows the site’s own https origin', async () => {
    const proxied = await makeTestApp({ trustProxy: true });
    try {
      const response = await postJson(proxied.app, signupApiPath(), signupBody(), {
        'x-forwarded-proto': 'https',
        origin: 'https://localhost',
      });
      expect(response.status).toBe(201);
    } finally {
      proxied.remove();
    }
  });
});

describe('security headers', () => {
  function expectSecurityHeaders(response: Response) {
    const csp = response.headers.get('content-security-policy') ?? '';
    const directives = new Map(
      csp
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter(([name]) => name)
        .map(([name, ...values]) => [name!, values]),
    );
    expect(directives.get('script-src')).toBeDefined();
    expect(directives.get('script-src')).not.toContain("'unsafe-inline'");
    expect(directives.get('script-src')).not.toContain("'unsafe-eval'");
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  }

  it('are on an API response', async () => {
    expectSecurityHeaders(await testApp.app.request(`${ORIGIN}${meApiPath()}`));
  });

  it('are on an API refusal', async () => {
    const response = await postJson(testApp.app, signupApiPath(), '{');
    expect(response.status).toBe(400);
    expectSecurityHeaders(response);
  });

  it('are on a site page', async () => {
    const response = await testApp.app.request(`${ORIGIN}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expectSecurityHeaders(response);
  });

  it('are on a form page answered after a refused form post', async () => {
    const response = await testApp.app.request(`${ORIGIN}${signupApiPath()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=x',
    });
    expect(response.status).toBe(400);
    expectSecurityHeaders(response);
  });
});

describe('paths the API does not have', () => {
  // Hono ignores a mounted app's notFound handler (honojs/hono#3465): the API has a catch-all
  // route so unknown API paths answer JSON, not the site's HTML 404 page.
  it('answers GET /api/whatever with 404 JSON { error }', async () => {
    const response = await testApp.app.request(`${ORIGIN}/api/whatever`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ error: 'There is no such API endpoint.' });
  });

  it('answers POST /api/whatever with 404 JSON { error }', async () => {
    const response = await postJson(testApp.app, '/api/whatever', {});
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ error: 'There is no such API endpoint.' });
  });

  it('answers 404 (never 500) for an unknown API path, whatever its body', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await testApp.app.request(`${ORIGIN}/api/whatever`, { method });
      expect(response.status).toBe(404);
    }
  });

  it.each([
    ['GET', signupApiPath()],
    ['GET', signinApiPath()],
    ['GET', signoutApiPath()],
    ['PUT', signupApiPath()],
    ['DELETE', meApiPath()],
  ])('answers %s %s with a 4xx, not a 500', async (method, path) => {
    const response = await testApp.app.request(`${ORIGIN}${path}`, { method });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});

describe('the request log', () => {
  it('writes one line a request with method, path and status, and no secret', async () => {
    const lines: string[] = [];
    const logged = await makeTestApp({ log: (line) => lines.push(line) });
    try {
      const email = 'Log.Watcher+secret@Example.com';
      const password = 'log-must-never-see-this';
      const signup = await postJson(logged.app, signupApiPath(), signupBody({ email, password }));
      expect(signup.status).toBe(201);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z POST \/api\/signup 201 \d+ms$/);

      const signupToken = sessionTokenOf(signup);
      const signin = await postJson(logged.app, signinApiPath(), { email, password });
      const signinToken = sessionTokenOf(signin);
      await logged.app.request(`${ORIGIN}/api/me?token=${signinToken}`, {
        headers: cookieHeader(signinToken),
      });
      await postJson(logged.app, signinApiPath(), { email, password: `${password}!` });
      await postJson(logged.app, signupApiPath(), signupBody({ email, password }));
      await logged.app.request(`${ORIGIN}${signoutApiPath()}`, {
        method: 'POST',
        headers: cookieHeader(signupToken),
      });

      expect(lines.map((line) => line.split(' ').slice(1, 4).join(' '))).toEqual([
        `POST ${signupApiPath()} 201`,
        `POST ${signinApiPath()} 200`,
        `GET ${meApiPath()} 200`,
        `POST ${signinApiPath()} 401`,
        `POST ${signupApiPath()} 409`,
        `POST ${signoutApiPath()} 200`,
      ]);
      const everything = lines.join('\n').toLowerCase();
      for (const secret of [email, password, PASSWORD, signupToken, signinToken, 'token=']) {
        expect(everything).not.toContain(secret.toLowerCase());
      }
    } finally {
      logged.remove();
    }
  });
});
