// The transparency report after a publish (issue 30 item 4, "Done when"): a moderator removes a
// member's live ad, the member appeals, another moderator reverses it; after the publish,
// /transparency and /transparency.csv count one removal, one appeal, one reversal. Then the same
// for a ban and its reversal. The site is built by `npm run build` from the test's database (a
// real SQLite file, or PostgreSQL in the postgres suite) and published by the real publisher; the
// forms are posted as a browser without JavaScript posts them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/http/app.ts';
import type { BuildPublisher } from '../../server/publishing/build-publisher.ts';
import { useCompiledContentDir } from '../../core/content/index.ts';
import {
  appealApiPath,
  banAccountApiPath,
  decideAppealApiPath,
  moderateAdApiPath,
  outputFileForPath,
  transparencyCsvPath,
  transparencyPath,
} from '../../core/paths.ts';
import { GENEROUS_RATE_LIMITS } from '../e2e/rate-limits.ts';
import { makeContentFixture } from '../helpers/content-fixture.ts';
import { mailsTo, testMailer } from '../helpers/mail.ts';
import {
  postModerationForm,
  signUpMember,
  signUpModerator,
  storedAd,
  type TestMember,
} from '../helpers/moderation.ts';
import { insertLiveAd, textOf } from '../helpers/reports.ts';
import { openTestStore, type TestStore } from '../helpers/test-store.ts';
import { buildSite, databaseArgs, testBuildPublisher } from '../helpers/vite-output.ts';
import { storedRow } from '../helpers/stored-rows.ts';

const today = new Date().toISOString().slice(0, 10);
let fixture: ReturnType<typeof makeContentFixture>;
let work: string;
let siteDir: string;
let t: TestStore;
let publisher: BuildPublisher;
let app: ReturnType<typeof createApp>;
let moderatorA: TestMember;
let moderatorB: TestMember;
let mailer: ReturnType<typeof testMailer>;

const file = (path: string) => readFileSync(join(siteDir, outputFileForPath(path)), 'utf8');

/** The CSV's total row, by column. */
function totals(): Record<string, string> {
  const [total] = parse(file(transparencyCsvPath()), { columns: true }) as Record<string, string>[];
  expect(total!.period).toBe('total');
  return total!;
}

/** A row of the page's "All time" tables: its label and number, as read. */
const allTime = () => textOf(file(transparencyPath()).split('id="period-2')[0]!);

async function publish() {
  expect(await publisher.publish('test')).toEqual({ ok: true });
}

const form = (path: string, fields: Record<string, string>, session?: string) =>
  postModerationForm(app, path, fields, session);

async function appealAndReverse(member: TestMember | { key: string }, statementId: number) {
  const filed =
    'key' in member
      ? await form(appealApiPath(statementId, member.key), { text: 'Please.' })
      : await form(appealApiPath(statementId), { text: 'Please.' }, member.session);
  expect(filed.status).toBe(303);
  const { id } = (await storedRow<{ id: number }>(
    t,
    'SELECT id FROM appeals WHERE statement_id = ?',
    statementId,
  ))!;
  const decide = (session: string) =>
    form(decideAppealApiPath(id), { outcome: 'reversed' }, session);
  expect((await decide(moderatorA.session)).status).toBe(403);
  expect((await decide(moderatorB.session)).status).toBe(303);
}

const lastStatementId = async () =>
  (await storedRow<{ id: number }>(t, 'SELECT max(id) AS id FROM decision_statements'))!.id;

beforeAll(async () => {
  fixture = makeContentFixture();
  work = mkdtempSync(join(tmpdir(), 'localboard-transparency-'));
  const outDir = join(work, 'out');
  siteDir = join(outDir, 'site');
  t = await openTestStore(work);
  mailer = testMailer(join(work, 'outbox'));
  buildSite({
    date: today,
    content: fixture.dir,
    out: outDir,
    cache: join(work, 'cache'),
    database: databaseArgs(t.env),
  });
  // The app's pages and mails read the compiled content the build wrote.
  useCompiledContentDir(join(work, 'cache'));
  publisher = testBuildPublisher({
    work,
    content: fixture.dir,
    env: t.env,
    buildDate: () => today,
    log: () => {},
  });
  app = createApp({
    siteDir,
    store: t.store,
    mailer,
    publisher,
    rateLimits: GENEROUS_RATE_LIMITS,
    log: false,
  });
  moderatorA = await signUpModerator(app, t.store);
  moderatorB = await signUpModerator(app, t.store);
}, 240_000);

afterAll(async () => {
  await publisher?.idle();
  await t?.store.close();
  fixture?.cleanup();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the transparency report after a publish', () => {
  test('before any decision: zeros, read from the database', () => {
    const page = file(transparencyPath());
    expect(page).toContain('<h1>Transparency report</h1>');
    expect(page).not.toContain('built without its moderation database');
    expect(page).toContain(`href="${transparencyCsvPath()}"`);
    expect(totals()).toMatchObject({ decisions: '0', kind_removed: '0', appeals_filed: '0' });
    // Every page's footer links to it.
    expect(file('/')).toContain(`href="${transparencyPath()}"`);
  });

  test('the server sends the page and the CSV', async () => {
    const page = await app.request(`http://localhost${transparencyPath()}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csv = await app.request(`http://localhost${transparencyCsvPath()}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toMatch(/^period,decisions,kind_rejected,/);
  });

  test('a removal, its appeal and its reversal: one removal, one appeal, one reversal', async () => {
    const poster = await signUpMember(app, t.store, 'transparency-poster');
    const adId = await insertLiveAd(t, {
      accountId: poster.accountId,
      state: 'California',
      city: 'San Jose',
      title: 'Dinner and a walk by the river',
    });
    await publish();
    const { revision } = await storedAd(t.sql, adId);
    const removed = await form(
      moderateAdApiPath(adId, 'remove'),
      { revision: String(revision), reason: 'commercial', note: 'Reads as paid company.' },
      moderatorA.session,
    );
    expect(removed.status).toBe(303);
    await appealAndReverse(poster, await lastStatementId());
    expect((await storedAd(t.sql, adId)).status).toBe('live');
    await publisher.idle();
    await publish();

    expect(totals()).toMatchObject({
      decisions: '1',
      kind_removed: '1',
      kind_banned: '0',
      reason_commercial: '1',
      trigger_moderator: '1',
      decided_automatically: '0',
      decided_automatically_percent: '0',
      appeals_filed: '1',
      appeals_reversed: '1',
      appeals_upheld: '0',
    });
    expect(Number(totals().median_hours_posting_to_decision)).toBeGreaterThanOrEqual(0);
    expect(Number(totals().median_hours_appeal_to_decision)).toBeGreaterThanOrEqual(0);
    const page = allTime();
    expect(page).toContain('Ads removed 1');
    expect(page).toContain('Appeals filed 1');
    expect(page).toContain('Appeals reversed 1');
    expect(page).toContain('Commercial or paid content 1');
    // This month has the same numbers; no person, no ad.
    const month = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date());
    expect(textOf(file(transparencyPath()))).toContain(`${month} Overview, ${month}`);
    expect(file(transparencyPath())).not.toContain('Dinner and a walk');
    expect(file(transparencyPath())).not.toContain(poster.email);
  }, 120_000);

  test('a ban and its reversal: one ban, two appeals, two reversals', async () => {
    const poster = await signUpMember(app, t.store, 'transparency-banned');
    await insertLiveAd(t, {
      accountId: poster.accountId,
      state: 'California',
      city: 'San Jose',
      title: 'Board games on Sundays',
    });
    const banned = await form(
      banAccountApiPath(poster.accountId),
      { reason: 'spam', note: 'Mass posting.' },
      moderatorA.session,
    );
    expect(banned.status).toBe(303);
    const statementId = await lastStatementId();
    // The banned member cannot sign in: they appeal through the mail's link (its key).
    await mailer.settled();
    const [mail] = mailsTo(join(work, 'outbox'), poster.email).filter((m) =>
      m.subject.endsWith('was closed'),
    );
    const key = new RegExp(`/account/decisions/${statementId}\\?key=(\\w+)`).exec(mail!.text)![1]!;
    await appealAndReverse({ key }, statementId);
    await publisher.idle();
    await publish();

    expect(totals()).toMatchObject({
      decisions: '2',
      kind_removed: '1',
      kind_banned: '1',
      reason_spam: '1',
      appeals_filed: '2',
      appeals_reversed: '2',
    });
    expect(allTime()).toContain('Accounts banned 1');
  }, 120_000);
});
