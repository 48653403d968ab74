// Shared setup for the API integration tests: the test's store (a SQLite file, or a PostgreSQL
// schema in the PostgreSQL suite: test-store.ts) and a tiny prerendered site in a temp folder, the
// Hono app built on them, and small helpers for requests, cookies and the rows the API wrote.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createApp, type AppOptions } from '../../server/http/app.ts';
import { serveHttp } from '../../server/http/serve-http.ts';
import type { Limit, RateLimitSettings } from '../../server/auth/rate-limits.ts';
import type { StoreHandle } from '../../store/store.ts';
import type { Mailer } from '../../server/mail/mailer.ts';
import type { Pusher } from '../../server/push/pusher.ts';
import { TEST_MAIL_SITE, testMailer } from './mail.ts';
import { openTestStore, type TestSql, type TestStore } from './test-store.ts';
import { storedRow, storedRows } from './stored-rows.ts';

export type App = ReturnType<typeof createApp>;

/** The origin of in-process requests (`app.request('http://localhost/...')`). */
export const ORIGIN = 'http://localhost';
export const SESSION_COOKIE = 'lb_session';
export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';

const GENEROUS: Limit = { points: 10_000, duration: 60 };
export const GENEROUS_LIMITS: RateLimitSettings = {
  signupPerIp: GENEROUS,
  signupPerEmail: GENEROUS,
  signinPerIp: GENEROUS,
  signinPerEmail: GENEROUS,
  signinPerClientAndEmail: GENEROUS,
  signinPerAccountFromNewBrowsers: GENEROUS,
  linkPerIp: GENEROUS,
  linkPerEmail: GENEROUS,
};

/** Generous limits everywhere except the ones given. */
export const limitsWith = (overrides: Partial<RateLimitSettings>): RateLimitSettings => ({
  ...GENEROUS_LIMITS,
  ...overrides,
});

/** The prerendered site's files the tests need: the home page and the not-found page. */
export function writeTestSite(siteDir: string): void {
  const file = (path: string, html: string) => {
    mkdirSync(join(siteDir, path, '..'), { recursive: true });
    writeFileSync(join(siteDir, path), html);
  };
  file('index.html', '<!DOCTYPE html><html lang="en"><body><h1>Localboard</h1></body></html>');
  file('404.html', '<!DOCTYPE html><html lang="en"><body><h1>Page Not Found</h1></body></html>');
}

export type TestAppOptions = Partial<Omit<AppOptions, 'db' | 'store' | 'siteDir' | 'pusher'>> & {
  /** Web Push for the app: a pusher built on the test's store (tests/helpers/web-push.ts). */
  pusher?: (store: StoreHandle) => Pusher;
};

export interface TestApp {
  app: App;
  /** The store the app runs on (SQLite, or PostgreSQL in the PostgreSQL suite). */
  store: StoreHandle;
  /** Rows read and written directly (test-store.ts). */
  sql: TestSql;
  /** How another process opens the same store: DATABASE_URL or DATABASE_PATH. */
  env: TestStore['env'];
  /** The temp folder holding the database and the site. */
  dir: string;
  dbPath: string;
  siteDir: string;
  /** Where the app's mail is written (unless the test gave its own mailer). */
  outboxDir: string;
  /** The app's mailer: `await mailer.settled()` before reading the outbox. */
  mailer: Mailer;
  /** Closes the store, keeping its data (to open it again). */
  close(): Promise<void>;
  /** Closes the store and deletes the temp folder. */
  remove(): Promise<void>;
}

/** A new temp folder with the site, a fresh database and the app (generous limits, no log). */
export async function makeTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'localboard-api-'));
  writeTestSite(join(dir, 'site'));
  return openTestApp(dir, options);
}

/**
 * makeTestApp for the file's tests: made before them, removed after. The object is filled in by
 * `beforeAll`: read it inside hooks and tests only.
 */
export function testAppForFile(options: TestAppOptions = {}): TestApp {
  const testApp = {} as TestApp;
  beforeAll(async () => {
    Object.assign(testApp, await makeTestApp(options));
  });
  afterAll(() => testApp.remove?.());
  return testApp;
}

/** Test apps that last one test (testAppsForEachTest). */
export interface TestAppsOfATest {
  /** A new test app (makeTestApp), removed after the test. */
  open(options?: TestAppOptions): Promise<TestApp>;
  /** An app the test made otherwise, removed likewise. */
  keep<T extends TestApp>(testApp: T): T;
  /** Another instance on `first`'s folder and database (openTestApp), closed after the test. */
  openAgain(first: TestApp, options?: TestAppOptions): Promise<TestApp>;
  /** The app listening on a loopback port, closed after the test before the apps are removed. */
  serve(app: App): Promise<RunningServer>;
}

/**
 * Test apps for tests that each make their own (other limits, options, a restart): every app
 * made or kept during a test is removed after it, the last first (a second instance shares the
 * folder its first removes), once the servers on them are closed.
 */
export function testAppsForEachTest(): TestAppsOfATest {
  const opened: TestApp[] = [];
  const servers: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    for (const testApp of opened.splice(0).reverse()) await testApp.remove();
  });
  const keep = <T extends TestApp>(testApp: T): T => {
    opened.push(testApp);
    return testApp;
  };
  return {
    keep,
    open: async (options = {}) => keep(await makeTestApp(options)),
    async openAgain(first, options = {}) {
      const testApp = await openTestApp(first.dir, options);
      opened.push({ ...testApp, remove: testApp.close });
      return testApp;
    },
    async serve(app) {
      const server = await listen(app);
      servers.push(server);
      return server;
    },
  };
}

/** A new app on the database and site of an existing temp folder (a server restart). */
export async function openTestApp(dir: string, options: TestAppOptions = {}): Promise<TestApp> {
  const dbPath = join(dir, 'localboard.sqlite');
  const siteDir = join(dir, 'site');
  const outboxDir = join(dir, 'outbox');
  const mailer = options.mailer ?? testMailer(outboxDir);
  const { store, sql, env } = await openTestStore(dir);
  const { pusher, ...appOptions } = options;
  const app = createApp({
    rateLimits: GENEROUS_LIMITS,
    log: false,
    mailer,
    mailSite: TEST_MAIL_SITE,
    ...appOptions,
    ...(pusher ? { pusher: pusher(store) } : {}),
    siteDir,
    store,
  });
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= store.close());
  return {
    app,
    store,
    sql,
    env,
    dir,
    dbPath,
    siteDir,
    outboxDir,
    mailer,
    close,
    async remove() {
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The app of a file's tests over a site folder of its own: `files` (paths in the site) written,
 * then `prepare(dir)` run, before its tests; the folder removed after them. The object is filled
 * in by `beforeAll`: read it inside tests only.
 */
export function testAppOnSiteFiles(
  files: Record<string, string | Buffer>,
  prepare?: (dir: string) => void,
): TestApp {
  const testApp = {} as TestApp;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'localboard-site-'));
    for (const [file, content] of Object.entries(files)) {
      const path = join(dir, 'site', file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
    prepare?.(dir);
    Object.assign(testApp, await openTestApp(dir));
  });
  afterAll(() => testApp.remove?.());
  return testApp;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

/** Serves the app over real HTTP on a free port of 127.0.0.1. */
export function listen(app: App): Promise<RunningServer> {
  return new Promise((resolve) => {
    const server = serveHttp(app.fetch, { port: 0, hostname: '127.0.0.1' }, () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}

export function postJson(
  app: App,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  origin = ORIGIN,
): Promise<Response> {
  return Promise.resolve(
    app.request(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': JSON_TYPE, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

export function postForm(
  app: App,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    app.request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

let emailCounter = 0;
/** An address no other test uses. */
export const uniqueEmail = (label = 'member') =>
  `${label}-${process.pid}-${++emailCounter}@example.com`;

export const PASSWORD = 'correct horse battery staple';

export function signupBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { email: uniqueEmail(), password: PASSWORD, dateOfBirth: dobYearsAgo(30), ...overrides };
}

/** Today in UTC, YYYY-MM-DD, as the server counts it. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * The date of birth `years` years and then `days` days before today (UTC). On 29 February the
 * same day `years` ago may not exist; the 28th is used, the day such a person is that age.
 */
export function dobYearsAgo(years: number, days = 0, now = new Date()): string {
  const year = now.getUTCFullYear() - years;
  const month = now.getUTCMonth();
  const lastDayOfMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const date = new Date(Date.UTC(year, month, Math.min(now.getUTCDate(), lastDayOfMonth)));
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

export interface SetCookie {
  name: string;
  value: string;
  /** Attribute names lower-cased; flags (HttpOnly, Secure) map to true. */
  attributes: Map<string, string | true>;
}

export function setCookies(response: Response): SetCookie[] {
  return response.headers.getSetCookie().map((header) => {
    const [pair = '', ...parts] = header.split(';').map((part) => part.trim());
    const equals = pair.indexOf('=');
    const attributes = new Map<string, string | true>();
    for (const part of parts) {
      const at = part.indexOf('=');
      if (at === -1) attributes.set(part.toLowerCase(), true);
      else attributes.set(part.slice(0, at).toLowerCase(), part.slice(at + 1));
    }
    return { name: pair.slice(0, equals), value: pair.slice(equals + 1), attributes };
  });
}

export const sessionCookieOf = (response: Response): SetCookie | undefined =>
  setCookies(response).find((cookie) => cookie.name === SESSION_COOKIE);

/** The session token a response set; fails the test when there is none. */
export function sessionTokenOf(response: Response): string {
  const cookie = sessionCookieOf(response);
  if (!cookie?.value) throw new Error(`No ${SESSION_COOKIE} cookie in the response`);
  return cookie.value;
}

export const cookieHeader = (token: string) => ({ cookie: `${SESSION_COOKIE}=${token}` });

/** What GET /api/me answers a member with nothing new: no unread message, new chat or request. */
export const meWithNothingNew = (email: string, emailVerified = false) => ({
  email,
  emailVerified,
  unread: 0,
  newChats: 0,
  newRequests: 0,
});

export interface StoredAccount {
  email: string;
  password_hash: string;
  date_of_birth: string;
}

/** The stored accounts, oldest first, read through the test's store (either engine). */
export const accountsIn = (t: Pick<TestApp, 'sql'>): Promise<StoredAccount[]> =>
  storedRows<StoredAccount>(
    t,
    'SELECT email, password_hash, date_of_birth FROM accounts ORDER BY id',
  );

/** The stored account of an address, read through the test's store (either engine). */
export const accountIn = (t: Pick<TestApp, 'sql'>, email: string) =>
  storedRow<StoredAccount>(
    t,
    'SELECT email, password_hash, date_of_birth FROM accounts WHERE email = ?',
    email,
  );

/** How many rows a table holds, read through the test's store (either engine). */
export async function rowsIn(t: Pick<TestApp, 'sql'>, table: string): Promise<number> {
  const row = await storedRow<{ n: number }>(t, `SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row!.n);
}

/** How many sessions an address's account has, read through the test's store (either engine). */
export async function sessionsOf(t: Pick<TestApp, 'sql'>, email: string): Promise<number> {
  const row = await storedRow<{ n: number }>(
    t,
    `SELECT COUNT(*) AS n FROM sessions
     JOIN accounts ON accounts.id = sessions.account_id WHERE accounts.email = ?`,
    email,
  );
  return Number(row!.n);
}
