// `npm run shield:labels` (issue 51 item 4, "Done when": a moderator marks a refusal mistaken;
// the export has it; it holds no email, id or other message), on either store: after a ban for
// "Scam or fraud" and a refusal marked mistaken, both as moderators post them without JavaScript,
// the export writes the corpus's columns (label,family,source,text) with the family left for the
// editor, one line a label and text, read back by a CSV parser as written; nothing of the accounts
// (no email, no number of any kind), and none of the other messages; marked exported once, not
// with --dry-run; and the command does the same from the server's settings.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, test } from 'vitest';
import { banAccountApiPath, markShieldDecisionMistakenApiPath } from '../../../core/paths.ts';
import { exportShieldLabels } from '../../../server/moderation/shield-labels.ts';
import { recordingPublisher, type TestMember } from '../../helpers/moderation.ts';
import { messagesWorld } from '../../helpers/messages-world.ts';
import { onPostgres } from '../../helpers/test-store.ts';

const t = messagesWorld({ publisher: recordingPublisher() });
const root = join(import.meta.dirname, '..', '..', '..');

const LURES = [
  'Hello dear I am an engineer working on an oil rig',
  'Could you buy me a gift card, "honey"',
];
const MISTAKEN = "No thanks, I'm not on WhatsApp, let's keep talking here";
/** What else the accounts wrote: never in the export. */
const OTHERS = [
  'Who is this? No thanks.',
  'Please answer me, it is urgent',
  'Add me on telegram, same name',
];
const HEADER = 'label,family,source,text';
const EXPECTED = [
  HEADER,
  `scam,,moderator review: account banned for fraud,${LURES[0]}`,
  `scam,,moderator review: account banned for fraud,"Could you buy me a gift card, ""honey"""`,
  `ordinary,,moderator review: marked mistaken,"${MISTAKEN}"`,
  '',
].join('\n');

let moderator: TestMember;
let accounts: TestMember[];

beforeAll(async () => {
  moderator = await t.signUpModerator();
  const [scammer, victim, other, sender] = [
    await t.makeMember(),
    await t.makeMember(),
    await t.makeMember(),
    await t.makeMember(),
  ];
  accounts = [scammer!, victim!, other!, sender!];
  // The scammer's lures, to two members; one answers, and the scammer writes again.
  for (const member of [victim!, other!]) {
    const adId = await t.insertLiveAd(member, 'Evening walks');
    const thread = await t.insertConversation({
      adId,
      adTitle: 'Evening walks',
      posterId: member.accountId,
      replierId: scammer!.accountId,
    });
    for (const lure of LURES) await t.insertMessage(thread, scammer!.accountId, lure, 30);
    if (member === victim) {
      await t.insertMessage(thread, victim.accountId, OTHERS[0]!, 20);
      await t.insertMessage(thread, scammer!.accountId, OTHERS[1]!, 10);
    }
  }
  const banned = await t.postForm(
    banAccountApiPath(scammer!.accountId),
    { reason: 'scam', note: 'Gift cards.' },
    moderator.session,
  );
  expect(banned.status).toBe(303);
  // A refusal marked mistaken, and one that is not.
  const recorded = (text: string) =>
    t.store.shieldDecisions.record({
      senderId: sender!.accountId,
      recipientId: victim!.accountId,
      text,
      outcome: 'refused',
      by: 'model',
      families: ['off-site-contact'],
      probability: 0.97,
      adjusted: 0.99,
      behaviour: ['account made today'],
      at: new Date().toISOString(),
    });
  const mistaken = await recorded(MISTAKEN);
  await recorded(OTHERS[2]!);
  const marked = await t.postForm(
    markShieldDecisionMistakenApiPath(mistaken),
    {},
    moderator.session,
  );
  expect(marked.status).toBe(303);
});

async function exported(dryRun: boolean): Promise<{ csv: string; lines: number }> {
  let csv = '';
  const lines = await exportShieldLabels(t.store, { dryRun, now: new Date() }, async (text) => {
    csv += text;
  });
  return { csv, lines };
}

describe('npm run shield:labels', () => {
  test('--dry-run: the corpus columns, the family left to the editor, nothing marked', async () => {
    const { csv, lines } = await exported(true);
    expect(lines).toBe(3);
    expect(csv).toBe(EXPECTED);
    expect(parse(csv, { columns: true })).toEqual([
      ...LURES.map((text) => ({
        label: 'scam',
        family: '',
        source: 'moderator review: account banned for fraud',
        text,
      })),
      {
        label: 'ordinary',
        family: '',
        source: 'moderator review: marked mistaken',
        text: MISTAKEN,
      },
    ]);
    expect((await exported(true)).csv).toBe(EXPECTED);
  });

  test('holds no email, no id and no other message', async () => {
    const { csv } = await exported(true);
    for (const member of [moderator, ...accounts]) {
      expect(csv).not.toContain(member.email);
      expect(csv).not.toContain(member.email.split('@')[0]);
    }
    // No number of any kind: no account's, message's, conversation's or decision's id.
    expect(csv).not.toMatch(/\d/);
    expect(csv).not.toContain('@');
    for (const text of [...OTHERS, 'Gift cards.', 'Evening walks']) expect(csv).not.toContain(text);
  });

  test('marks what it wrote exported: the next export has nothing', async () => {
    expect((await exported(false)).csv).toBe(EXPECTED);
    expect(await exported(false)).toEqual({ csv: `${HEADER}\n`, lines: 0 });
  });

  test.skipIf(onPostgres())('the command, from the server settings, to a file', async () => {
    await t.store.shieldDecisions.addCandidates(
      [{ label: 'scam', text: 'Send me the code from your phone', reason: 'banned-for-fraud' }],
      new Date().toISOString(),
    );
    const tsx = join(root, 'node_modules', '.bin', 'tsx');
    const run = (args: string[]) =>
      spawnSync(tsx, ['scripts/shield-labels.ts', ...args], {
        cwd: root,
        env: { ...process.env, ...t.env },
        encoding: 'utf8',
      });
    const dry = run(['--dry-run']);
    expect(dry.status).toBe(0);
    const line =
      'scam,,moderator review: account banned for fraud,Send me the code from your phone';
    expect(dry.stdout).toBe(`${HEADER}\n${line}\n`);
    expect(dry.stderr).toContain('1 text to label (dry run');
    const dir = mkdtempSync(join(tmpdir(), 'localboard-labels-'));
    const written = run(['--out', join(dir, 'labels.csv')]);
    expect(written.status).toBe(0);
    expect(written.stdout).toBe('');
    expect(readFileSync(join(dir, 'labels.csv'), 'utf8')).toBe(`${HEADER}\n${line}\n`);
    rmSync(dir, { recursive: true });
    expect(written.stderr).toContain(
      'The family column is empty: before adding a line to\ncontent/shield/first-messages.csv',
    );
    expect(written.stderr).toContain('core/schemas/shield-corpus.ts');
    expect(run([]).stdout).toBe(`${HEADER}\n`);
    const refused = run(['--out']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('Usage: npm run shield:labels');
  });
});
