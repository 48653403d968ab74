// `npm run alerts -- send` over real SMTP (smtp-server): the digests go through a few connections
// kept open (not one a mail: a run mails thousands), and the program ends once they are sent.
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MAILS_IN_FLIGHT } from '../../../server/saved-searches/digest.ts';
import { parseMail, type ReadMail } from '../../helpers/mail.ts';
import { alertsEnv, saveSearchAs } from '../../helpers/saved-searches.ts';
import { makeMember } from '../../helpers/posting.ts';
import { publishMemberAd, searchFixtureForFile } from '../../helpers/search-fixture.ts';

const MEMBERS = MAILS_IN_FLIGHT + 4;
const fixture = searchFixtureForFile();
let smtp: SMTPServer;
let smtpPort: number;
let connections = 0;
const received: ReadMail[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push(parseMail(Buffer.concat(chunks).toString('utf8')));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

test('mails every digest through pooled connections, then exits', async () => {
  const emails: string[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const member = await makeMember(fixture);
    emails.push(member.email);
    await saveSearchAs(fixture, member, 'q=kiteboarding');
  }
  await publishMemberAd(fixture, {
    state: 'Florida',
    city: 'Miami',
    title: 'Kiteboarding at Crandon Park',
  });

  // Not spawnSync: the SMTP server answers from this process.
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/alerts.ts', 'send'], {
    cwd: join(import.meta.dirname, '..', '..', '..'),
    env: alertsEnv(fixture, { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // With its connections left open, the program would never end.
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(output).toContain(`mailed ${MEMBERS} digests.`);
  expect(code).toBe(0);
  expect(received.map((mail) => mail.to).sort()).toEqual([...emails].sort());
  expect(received[0]!.subject).toBe('1 new ad: “kiteboarding”');
  expect(connections).toBeLessThanOrEqual(MAILS_IN_FLIGHT);
}, 60_000);
