// Mail over real SMTP, through the real server over HTTP, as in production with SMTP_URL set:
// smtp-server receives what nodemailer sends; the member signs up, verifies with the link from
// the received mail, then resets the password with another.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMailer } from '../../../server/mail/mailer.ts';
import {
  dobYearsAgo,
  listen,
  makeTestApp,
  PASSWORD,
  type RunningServer,
  type TestApp,
} from '../../helpers/api.ts';
import { linkToken, parseMail, type ReadMail } from '../../helpers/mail.ts';
import { headingOf, useFixtureContent, textOf } from '../../helpers/pages.ts';
import {
  forgotApiPath,
  meApiPath,
  resetApiPath,
  resetPath,
  signinApiPath,
  signupApiPath,
  verifyApiPath,
  verifyPath,
} from '../../../core/paths.ts';

interface Received extends ReadMail {
  envelopeTo: string[];
}

const received: Received[] = [];
const waiting: (() => void)[] = [];
let smtp: SMTPServer;
let smtpPort: number;
let t: TestApp;
let server: RunningServer;
let cleanupContent: () => void;
let outboxDir: string;

beforeAll(async () => {
  cleanupContent = useFixtureContent();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          ...parseMail(Buffer.concat(chunks).toString('utf8')),
          envelopeTo: session.envelope.rcptTo.map((to) => to.address),
        });
        waiting.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  // Nothing may be written to the outbox when SMTP is used.
  outboxDir = mkdtempSync(join(tmpdir(), 'localboard-no-outbox-'));
  let baseUrl = '';
  t = await makeTestApp({
    mailer: createMailer({
      smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
      outboxDir,
      from: '"Localboard" <no-reply@localboard.example>',
      log: () => {},
    }),
    mailSite: () => ({ brand: 'Localboard', baseUrl }),
  });
  server = await listen(t.app);
  baseUrl = server.url;
});

afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  t?.remove();
  rmSync(outboxDir, { recursive: true, force: true });
  cleanupContent?.();
});

/** The next mail to `to` received after `count` mails in all. */
async function mailAfter(count: number, to: string): Promise<Received> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = received.slice(count).find((entry) => entry.envelopeTo.includes(to));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} arrived over SMTP`);
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      setTimeout(resolve, 200);
    });
  }
}

const form = (fields: Record<string, string>, cookie = '') => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    origin: server.url,
    ...(cookie ? { cookie } : {}),
  },
  body: new URLSearchParams(fields).toString(),
});

const sessionCookie = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0]!)
    .filter((pair) => pair.startsWith('lb_session='))
    .join('; ');

describe('mail over SMTP', () => {
  test('sign up, verify with the received link, reset the password with another', async () => {
    const email = `smtp-${process.pid}@example.com`;
    const before = received.length;
    const signup = await fetch(
      `${server.url}${signupApiPath()}`,
      form({ email, password: PASSWORD, dateOfBirth: dobYearsAgo(30), acceptTerms: 'on' }),
    );
    expect(signup.status).toBe(303);
    const cookie = sessionCookie(signup);

    const verification = await mailAfter(before, email);
    expect(verification.to).toBe(email);
    expect(verification.envelopeTo).toEqual([email]);
    expect(verification.from).toContain('no-reply@localboard.example');
    expect(verification.subject).toBe('Verify your email for Localboard');
    const token = linkToken(verification, verifyPath());
    expect(verification.text).toContain(`${server.url}/verify?token=${token}`);
    expect(verification.html).toContain(`href="${server.url}/verify?token=${token}"`);

    const page = await fetch(`${server.url}/verify?token=${token}`);
    expect(headingOf(await page.text())).toBe('Verify your email');
    const verified = await fetch(`${server.url}${verifyApiPath()}`, form({ token }));
    expect(verified.status).toBe(200);
    expect(headingOf(await verified.text())).toBe('Your email is verified');
    const account = await fetch(`${server.url}/account`, { headers: { cookie } });
    expect(textOf(await account.text())).toContain('Email status Verified');

    const beforeReset = received.length;
    const forgot = await fetch(`${server.url}${forgotApiPath()}`, form({ email }));
    expect(forgot.status).toBe(303);
    const resetMail = await mailAfter(beforeReset, email);
    expect(resetMail.subject).toBe('Reset your Localboard password');
    const resetToken = linkToken(resetMail, resetPath());
    const reset = await fetch(
      `${server.url}${resetApiPath()}`,
      form({ token: resetToken, password: 'the new password here' }),
    );
    expect(reset.status).toBe(303);
    expect((await fetch(`${server.url}${meApiPath()}`, { headers: { cookie } })).status).toBe(401);
    const signin = await fetch(
      `${server.url}${signinApiPath()}`,
      form({ email, password: 'the new password here' }),
    );
    expect(signin.status).toBe(303);

    await t.mailer.settled();
    expect(received.every((mail) => mail.envelopeTo.length === 1)).toBe(true);
    expect(readdirSync(outboxDir)).toEqual([]);
  });
});
