// Two real server processes on one PostgreSQL (docs/product.md section 12, issue 19): each serves
// its own copy of the production build (as two clones of the project would), both share the
// database. A session made on one is valid on the other; failed sign-ins spread over both are
// refused as soon as they would be on one; a member signs up, verifies and posts on one, a
// moderator approves there, and the ad goes live on both; after `kill -9` of one, the other
// serves members and pages.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of the scripts, without types.
import { ensurePostgres, freePort, startThrowawayPostgres } from '../../scripts/postgres.mjs';
import {
  adPath,
  adsApiPath,
  meApiPath,
  moderateAdApiPath,
  signinApiPath,
  signupApiPath,
  verifyApiPath,
  verifyPath,
} from '../../core/paths.ts';
import { linkToken, mailsTo } from '../helpers/mail.ts';
import { validAd } from '../helpers/posting.ts';
import { TEST_PASSWORD_HASH_COST } from '../helpers/password-cost.ts';

const root = join(import.meta.dirname, '..', '..');
const postgres = ensurePostgres(() => {}) as { binDir?: string; problem?: string };
const PASSWORD = 'a long enough password';
const JSON_HEADERS = { 'content-type': 'application/json' };

interface Instance {
  name: string;
  url: string;
  outboxDir: string;
  process: ChildProcess;
  output: string[];
}

let work: string;
let cluster: { url: string; stop(): void } | undefined;
const instances: Instance[] = [];

/** A copy of the e2e build and its compiled content, and a server process serving it. */
async function startInstance(name: string, databaseUrl: string): Promise<Instance> {
  const dir = join(work, name);
  cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(root, '.content'), join(dir, '.content'), { recursive: true });
  // The server build in {dir}/dist/server imports the project's dependencies.
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  const port = (await freePort()) as number;
  const output: string[] = [];
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', join(dir, 'dist', 'server', 'serve.mjs')],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...withoutTestMarkers(process.env),
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        SITE_DIR: join(dir, 'dist', 'site'),
        COMPILED_CONTENT_DIR: join(dir, '.content'),
        MAIL_OUTBOX_DIR: join(dir, 'outbox'),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST),
      },
    },
  );
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const instance = {
    name,
    url: `http://127.0.0.1:${port}`,
    outboxDir: join(dir, 'outbox'),
    process: child,
    output,
  };
  instances.push(instance);
  return instance;
}

/** The environment without Vitest's markers (Vike stands aside when it sees them). */
function withoutTestMarkers(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept = { ...env };
  for (const key of Object.keys(kept))
    if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete kept[key];
  return kept;
}

/** Resolves once `check` passes, polling every 100 ms; fails with the instances' output after `ms`. */
async function eventually(what: string, check: () => Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // Not answering yet.
    }
    if (Date.now() > deadline)
      throw new Error(
        `${what}: not within ${ms / 1000} s\n` +
          instances.map((one) => `--- ${one.name}\n${one.output.join('')}`).join('\n'),
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const status = async (url: string, init?: RequestInit) => (await fetch(url, init)).status;

function post(instance: Instance, path: string, body: unknown, cookie?: string) {
  return fetch(`${instance.url}${path}`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, origin: instance.url, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');

async function signUp(instance: Instance, email: string) {
  const response = await post(instance, signupApiPath(), {
    email,
    password: PASSWORD,
    dateOfBirth: '1990-05-17',
  });
  expect(response.status).toBe(201);
  return cookieOf(response);
}

describe.skipIf(!postgres.binDir)('two instances on one PostgreSQL', () => {
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'localboard-two-instances-'));
    cluster = await startThrowawayPostgres(postgres.binDir);
    [a, b] = await Promise.all([
      startInstance('a', cluster!.url),
      startInstance('b', cluster!.url),
    ]);
    for (const instance of [a, b])
      await eventually(
        `${instance.name} ready`,
        async () => {
          return (await status(`${instance.url}/readyz`)) === 200;
        },
        120_000,
      );
  }, 240_000);

  afterAll(async () => {
    for (const instance of instances) instance.process.kill('SIGKILL');
    cluster?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('both answer /healthz and /readyz with 200', async () => {
    for (const instance of [a, b]) {
      expect(await status(`${instance.url}/healthz`)).toBe(200);
      expect(await status(`${instance.url}/readyz`)).toBe(200);
    }
  });

  it('a session made on one is valid on the other', async () => {
    const cookie = await signUp(a, 'shared-session@example.com');
    const me = await fetch(`${b.url}${meApiPath()}`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe('shared-session@example.com');
  });

  it('failed sign-ins spread over both are refused as soon as they would be on one', async () => {
    await signUp(b, 'guessed@example.com');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1)
      statuses.push(
        (
          await post(attempt % 2 === 0 ? a : b, signinApiPath(), {
            email: 'guessed@example.com',
            password: `wrong password ${attempt}`,
          })
        ).status,
      );
    // One client's free failures on one account (5), then each further one makes it wait 1 s,
    // 2 s, 4 s: counted on both, a refusal comes among the next three wherever they land (the
    // first wait may have passed while a slow hash answered). Counted apart, neither instance
    // would see more than four failures of the eight.
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toContain(429);
  });

  it('an ad posted and approved on one goes live on both', { timeout: 180_000 }, async () => {
    const email = 'poster@example.com';
    const cookie = await signUp(a, email);
    await eventually('the verification mail', async () => mailsTo(a.outboxDir, email).length > 0);
    const token = linkToken(mailsTo(a.outboxDir, email)[0]!, verifyPath());
    expect((await post(a, verifyApiPath(), { token })).status).toBe(200);
    const posted = await post(a, adsApiPath(), validAd({ city: 'San Diego' }), cookie);
    expect(posted.status).toBe(201);
    const { id } = (await posted.json()) as { id: number };

    const moderatorEmail = 'moderator@example.com';
    const moderatorCookie = await signUp(a, moderatorEmail);
    const made = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/moderator.ts', 'add', moderatorEmail],
      { cwd: root, encoding: 'utf8', env: { ...process.env, DATABASE_URL: cluster!.url } },
    );
    expect(made.status, made.stderr).toBe(0);
    const approved = await post(
      a,
      moderateAdApiPath(id, 'approve'),
      { revision: 1 },
      moderatorCookie,
    );
    expect(approved.status).toBe(200);

    const path = adPath('California', 'San Diego', id);
    for (const instance of [a, b])
      await eventually(
        `the ad live on ${instance.name}`,
        async () => {
          return (await status(`${instance.url}${path}`)) === 200;
        },
        150_000,
      );
  });

  it('after kill -9 of one, the other serves members and pages', async () => {
    const cookie = await signUp(a, 'survivor@example.com');
    a.process.kill('SIGKILL');
    await new Promise((resolve) => a.process.once('exit', resolve));
    const me = await fetch(`${b.url}${meApiPath()}`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await status(`${b.url}/`)).toBe(200);
    expect(await status(`${b.url}/readyz`)).toBe(200);
  });
});
