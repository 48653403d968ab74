// The server's digest schedule (server/saved-searches/digest-schedule.ts): `npm run alerts -- send` as a
// child process on the server's database, index and mail settings; one run at a time, however
// often it is asked; the digest reaches the outbox.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import {
  scheduleDigests,
  sourceDigestCommand,
} from '../../../server/saved-searches/digest-schedule.ts';
import { outboxMails } from '../../helpers/mail.ts';
import { alertsEnv, saveSearchAs } from '../../helpers/saved-searches.ts';
import { makeMember } from '../../helpers/posting.ts';
import { publishMemberAd, searchFixtureForFile } from '../../helpers/search-fixture.ts';

const fixture = searchFixtureForFile();

test('runs the digest as a child process, one run at a time, and the digest is mailed', async () => {
  const member = await makeMember(fixture);
  await saveSearchAs(fixture, member, 'q=canoe');
  await publishMemberAd(fixture, {
    state: 'New York',
    city: 'New York City',
    title: 'Canoe trips upstate',
  });
  const outbox = join(fixture.dir, 'schedule-outbox');
  const lines: string[] = [];
  const schedule = scheduleDigests({
    command: sourceDigestCommand(),
    env: alertsEnv(fixture, { MAIL_OUTBOX_DIR: outbox }),
    // Only when asked, in this test.
    firstRunMs: 3_600_000,
    log: (line) => lines.push(line),
  });
  try {
    const [first, joined] = [schedule.runNow(), schedule.runNow()];
    expect(joined).toBe(first);
    expect(await first).toBe(0);
    expect(lines).toEqual([]);
    const mails = outboxMails(outbox);
    expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([
      [member.email, '1 new ad: “canoe”'],
    ]);
    // Another run: nothing new.
    expect(await schedule.runNow()).toBe(0);
    expect(outboxMails(outbox)).toHaveLength(1);
  } finally {
    schedule.stop();
  }
});

test('a run that cannot work says why in the server log', async () => {
  const lines: string[] = [];
  const schedule = scheduleDigests({
    command: sourceDigestCommand(),
    env: { ...process.env, DATABASE_URL: 'not a url' },
    firstRunMs: 3_600_000,
    log: (line) => lines.push(line),
  });
  try {
    expect(await schedule.runNow()).toBe(1);
    expect(lines).toEqual(['Saved-search digests stopped: exit code 1']);
  } finally {
    schedule.stop();
  }
});
