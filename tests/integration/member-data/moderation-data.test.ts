// Download my data carries what moderation keeps about the member (docs/product.md section 8,
// issue 30): every statement of reasons as the member reads it (an ad hidden by reports, an ad
// removed by a moderator), their appeal (its text, its state, the outcome and the reply), the scam
// shield's counts of their messages refused and warned, and the fraud notices they received (by
// conversation). Never who reported, which moderator decided, or the other account of a notice;
// and nothing of it in another member's file. Decisions made through the real routes (plain form
// posts), in-process on a real store.
import { beforeAll, describe, expect, test } from 'vitest';
import { cookieHeader, ORIGIN } from '../../helpers/api.ts';
import { addThread } from '../../helpers/member-data.ts';
import {
  postModerationForm,
  signUpMember,
  signUpModerator,
  storedAd,
  type TestMember,
} from '../../helpers/moderation.ts';
import { insertLiveAd, reportForm, reportsTestApp } from '../../helpers/reports.ts';
import {
  accountDataApiPath,
  appealApiPath,
  decideAppealApiPath,
  moderateAdApiPath,
} from '../../../core/paths.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

const t = reportsTestApp();

interface Decision {
  decision: string;
  rule: string;
  reason: string;
  moderatorNote: string | null;
  reports: string[] | null;
  trigger: string;
  automated: string;
  appeal: { state: string; text?: string; reply?: string; until?: string };
}
interface ModerationData {
  moderationDecisions: Decision[];
  scamChecksOfYourMessages: {
    refused: { name: string; count: number }[];
    warned: { name: string; count: number }[];
  };
  fraudNoticesReceived: { what: string; receivedAt: string; conversations: number[] }[];
}

async function download(member: TestMember) {
  const response = await t.app.request(`${ORIGIN}${accountDataApiPath()}`, {
    headers: cookieHeader(member.session),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, file: JSON.parse(text) as ModerationData };
}

let poster: TestMember;
let moderatorA: TestMember;
let moderatorB: TestMember;
let reporters: TestMember[];
let scammer: TestMember;
let conversationId: number;

beforeAll(async () => {
  poster = await signUpMember(t.app, t.store, 'data-poster');
  moderatorA = await signUpModerator(t.app, t.store);
  moderatorB = await signUpModerator(t.app, t.store);
  reporters = await Promise.all(
    [1, 2, 3].map((n) => signUpMember(t.app, t.store, `data-reporter-${n}`)),
  );
  scammer = await signUpMember(t.app, t.store, 'data-scammer');

  // Reports hide one ad.
  const hidden = await insertLiveAd(t, { accountId: poster.accountId, title: 'Kayak trips' });
  for (const reporter of reporters)
    await reportForm(t.app, { ad: String(hidden), reason: 'spam' }, { session: reporter.session });
  // A moderator removes another; the member appeals; another moderator upholds it.
  const removed = await insertLiveAd(t, { accountId: poster.accountId, title: 'Dinner plans' });
  const { revision } = await storedAd(t.sql, removed);
  await postModerationForm(
    t.app,
    moderateAdApiPath(removed, 'remove'),
    { revision: String(revision), reason: 'commercial', note: 'Reads as paid company.' },
    moderatorA.session,
  );
  const statement = (await storedRow<{ id: number }>(
    t,
    "SELECT id FROM decision_statements WHERE kind = 'ad-removed' AND ad_id = ?",
    removed,
  ))!.id;
  await postModerationForm(
    t.app,
    appealApiPath(statement),
    { text: 'I only meant to share the bill.' },
    poster.session,
  );
  const appeal = (await storedRow<{ id: number }>(
    t,
    'SELECT id FROM appeals WHERE statement_id = ?',
    statement,
  ))!.id;
  const upheld = await postModerationForm(
    t.app,
    decideAppealApiPath(appeal),
    { outcome: 'upheld', reply: 'The ad offers money for company.' },
    moderatorB.session,
  );
  expect(upheld.status).toBe(303);

  // The scam shield's record of the member's messages.
  const at = new Date().toISOString();
  await t.store.scamShield.recordOutcome(poster.accountId, 'money', 'refused', at);
  await t.store.scamShield.recordOutcome(poster.accountId, 'money', 'refused', at);
  await t.store.scamShield.recordOutcome(poster.accountId, 'off-site-contact', 'warned', at);
  // A scammer wrote to the member about the hidden ad, the member answered; the scammer is banned.
  conversationId = await addThread(
    t,
    { adId: hidden, adTitle: 'Kayak trips' },
    { posterId: poster.accountId, replierId: scammer.accountId },
    [
      ['replier', 'Pay the deposit first.', 5],
      ['poster', 'No thanks.', 4],
    ],
  );
  expect(
    await t.store.fraudNotices.record(scammer.accountId, [poster.accountId], 'banned', at),
  ).toBe(1);
});

describe('Download my data: what moderation keeps about the member', () => {
  test('every decision with its statement, newest first, and the appeal with its outcome', async () => {
    const { file } = await download(poster);
    expect(file.moderationDecisions).toHaveLength(2);
    const [removal, hide] = file.moderationDecisions;
    expect(removal).toMatchObject({
      decision: 'Your ad “Dinner plans” was removed.',
      reason: 'Commercial or paid content',
      moderatorNote: 'Reads as paid company.',
      trigger: "A moderator's own review.",
      appeal: {
        state: 'upheld',
        text: 'I only meant to share the bill.',
        reply: 'The ad offers money for company.',
      },
    });
    expect(removal!.rule).toBe(
      'Clause 4.1 of the terms, No commercial sexual services: http://localhost/terms#clause-4-1',
    );
    expect(hide).toMatchObject({
      decision: 'Your ad “Kayak trips” was taken off the site after reports.',
      reports: ['Scam or spam (3)'],
      trigger: 'An automatic rule, after reports from members.',
      appeal: { state: 'can be appealed' },
    });
  });

  test("the scam checks' counts and the fraud notices received, by conversation", async () => {
    const { file } = await download(poster);
    expect(file.scamChecksOfYourMessages).toEqual({
      refused: [{ name: 'money request', count: 2 }],
      warned: [{ name: 'off-site contact', count: 1 }],
    });
    expect(file.fraudNoticesReceived).toEqual([
      {
        what: 'A member you talked with was banned for scam or fraud.',
        receivedAt: expect.any(String),
        mailedAt: null,
        conversations: [conversationId],
      },
    ]);
  });

  test('never who reported, which moderator decided, or the other account', async () => {
    const { text } = await download(poster);
    for (const someone of [...reporters, moderatorA, moderatorB, scammer])
      expect(text).not.toContain(someone.email);
    expect(text).not.toMatch(/"decidedBy"|"reporter|"moderator"|"bannedAccount/);
    expect(text).not.toContain(`"accountId": ${scammer.accountId}`);
  });

  test("another member's file has none of it", async () => {
    const { text, file } = await download(reporters[0]!);
    expect(file.moderationDecisions).toEqual([]);
    expect(file.fraudNoticesReceived).toEqual([]);
    expect(file.scamChecksOfYourMessages).toEqual({ refused: [], warned: [] });
    expect(text).not.toContain('Dinner plans');
    expect(text).not.toContain('I only meant to share the bill.');
  });
});
