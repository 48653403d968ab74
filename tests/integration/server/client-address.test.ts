// Who the client is behind reverse proxies. Each proxy appends the address it saw to
// X-Forwarded-For, so the client may write anything on the left of the list: rate limits must
// count the right-most address that none of our proxies added, or anyone gets a fresh limit by
// sending a made-up chain.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Limit } from '../../../server/auth/rate-limits.ts';
import {
  accountIn,
  JSON_TYPE,
  limitsWith,
  postJson,
  sessionCookieOf,
  signupBody,
  type TestApp,
  type TestAppOptions,
  testAppsForEachTest,
} from '../../helpers/api.ts';
import { signupApiPath } from '../../../core/paths.ts';

// The production limit on sign-ups per client: 20 in 15 minutes.
const SIGNUP_LIMIT: Limit = { points: 20, duration: 15 * 60 };
const THREE: Limit = { points: 3, duration: 60 };

const apps = testAppsForEachTest();

async function appWith(signupPerIp: Limit, options: TestAppOptions): Promise<TestApp> {
  return apps.open({ ...options, rateLimits: limitsWith({ signupPerIp }) });
}

async function serverWith(signupPerIp: Limit, options: TestAppOptions) {
  const testApp = await appWith(signupPerIp, options);
  const server = await apps.serve(testApp.app);
  const signup = (headers: Record<string, string>, body = signupBody()) =>
    fetch(`${server.url}${signupApiPath()}`, {
      method: 'POST',
      headers: { 'content-type': JSON_TYPE, ...headers },
      body: JSON.stringify(body),
    });
  return { ...testApp, server, signup };
}

const from = (forwardedFor: string) => ({ 'x-forwarded-for': forwardedFor });

describe('one proxy in front (TRUST_PROXY=1)', () => {
  it('counts a client that prepends a made-up address under its real one', async () => {
    // The reproduction: 20 sign-ups as 192.0.2.9, then the same client claims to be forwarded
    // for 203.0.113.5. The proxy appended 192.0.2.9, the address it really saw.
    const testApp = await appWith(SIGNUP_LIMIT, { trustProxy: 1 });
    const { app } = testApp;
    for (let attempt = 1; attempt <= 20; attempt++) {
      const response = await postJson(app, signupApiPath(), signupBody(), from('192.0.2.9'));
      expect(response.status).toBe(201);
    }
    expect((await postJson(app, signupApiPath(), signupBody(), from('192.0.2.9'))).status).toBe(
      429,
    );

    const spoofed = signupBody();
    const response = await postJson(app, signupApiPath(), spoofed, from('203.0.113.5, 192.0.2.9'));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await accountIn(testApp, spoofed.email as string)).toBeUndefined();
    // However long the made-up chain.
    const longer = await postJson(
      app,
      signupApiPath(),
      signupBody(),
      from('198.51.100.1, 198.51.100.2, 10.0.0.1, 192.0.2.9'),
    );
    expect(longer.status).toBe(429);
    // A different client behind the same proxy has its own limit.
    expect((await postJson(app, signupApiPath(), signupBody(), from('192.0.2.10'))).status).toBe(
      201,
    );
  });

  it('over real HTTP, takes the client from the header the proxy on 127.0.0.1 wrote', async () => {
    const { signup } = await serverWith(THREE, { trustProxy: 1 });
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await signup(from('192.0.2.9'))).status).toBe(201);
    }
    expect((await signup(from('203.0.113.5, 192.0.2.9'))).status).toBe(429);
    expect((await signup(from('192.0.2.10'))).status).toBe(201);
    // A request with no header at all reached us directly: it counts as the proxy's own address.
    expect((await signup({})).status).toBe(201);
  });

  it('counts IPv6 clients by their /64 (one subscriber), in any spelling', async () => {
    const { app } = await appWith(THREE, { trustProxy: 1 });
    for (const address of ['2001:db8:1:2::a', '2001:db8:1:2:0:0:0:b', '[2001:DB8:1:2::c]:443']) {
      expect((await postJson(app, signupApiPath(), signupBody(), from(address))).status).toBe(201);
    }
    expect(
      (await postJson(app, signupApiPath(), signupBody(), from('2001:db8:1:2:ffff::1'))).status,
    ).toBe(429);
    expect(
      (await postJson(app, signupApiPath(), signupBody(), from('2001:db8:1:3::a'))).status,
    ).toBe(201);
  });
});

describe('two proxies in front (TRUST_PROXY=2: a CDN, then ours)', () => {
  it('takes the second address from the right, whatever the client put before it', async () => {
    const { app } = await appWith(THREE, { trustProxy: 2 });
    // client 192.0.2.9 → CDN (appends 192.0.2.9) → our proxy (appends the CDN's 198.51.100.50).
    const chain = (prefix: string) => from(`${prefix}192.0.2.9, 198.51.100.50`);
    for (const prefix of ['', '203.0.113.5, ', '203.0.113.6, 203.0.113.7, ']) {
      expect((await postJson(app, signupApiPath(), signupBody(), chain(prefix))).status).toBe(201);
    }
    expect(
      (await postJson(app, signupApiPath(), signupBody(), chain('203.0.113.8, '))).status,
    ).toBe(429);
    expect(
      (await postJson(app, signupApiPath(), signupBody(), from('192.0.2.10, 198.51.100.50')))
        .status,
    ).toBe(201);
  });
});

describe('a list of trusted proxies (TRUST_PROXY=loopback,10.0.0.0/8)', () => {
  it('skips every hop from a trusted address and counts the first one that is not', async () => {
    const { signup } = await serverWith(THREE, { trustProxy: ['loopback', '10.0.0.0/8'] });
    // 127.0.0.1 (the socket) and 10.1.2.3 are ours; 192.0.2.9 is the client.
    for (const prefix of ['', '203.0.113.5, ', '10.9.9.9, ']) {
      expect((await signup(from(`${prefix}192.0.2.9, 10.1.2.3`))).status).toBe(201);
    }
    expect((await signup(from('203.0.113.6, 192.0.2.9, 10.1.2.3'))).status).toBe(429);
    expect((await signup(from('192.0.2.10, 10.1.2.3'))).status).toBe(201);
  });

  it('ignores X-Forwarded-For and X-Forwarded-Proto from a peer that is not on the list', async () => {
    // The test talks to the server from 127.0.0.1, which this list does not name.
    const { signup } = await serverWith(THREE, { trustProxy: ['10.0.0.0/8'] });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await signup({
        ...from(`192.0.2.${attempt}`),
        'x-forwarded-proto': 'https',
      });
      expect(response.status).toBe(201);
      expect(sessionCookieOf(response)?.attributes.has('secure')).toBe(false);
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
    expect((await signup(from('192.0.2.99'))).status).toBe(429);
  });
});

describe('TRUST_PROXY for npm start', () => {
  it.each(['yes', 'everyone', '10.0.0.0/33', '10.0.0.1, not-an-address', '-1'])(
    'refuses to start with TRUST_PROXY=%s and says why',
    (value) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'localboard-trust-'));
      try {
        const started = spawnSync(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
          cwd: join(import.meta.dirname, '..', '..', '..'),
          env: {
            ...process.env,
            TRUST_PROXY: value,
            PORT: '0',
            DATABASE_PATH: join(dataDir, 'db.sqlite'),
          },
          encoding: 'utf8',
          // Should the value be accepted by mistake, the server would keep running.
          timeout: 30_000,
        });
        expect(started.status).toBe(1);
        expect(started.stderr).toMatch(/^TRUST_PROXY: /m);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
