// The moderators' review of the scam shield (docs/product.md section 7, issue 51 item 4), on either
// store (this folder runs on SQLite and again on PostgreSQL), as moderators meet it without
// JavaScript: /moderate/shield lists the recorded refusals and warnings, newest first, in words,
// never with the sender's or recipient's email, and to moderators only; "Mark as mistaken" is a
// plain form post that marks it once and leaves its text as an ordinary text to label (twice:
// 409; unknown: 404; to a member: the unknown endpoint); a ban for "Scam or fraud" keeps the texts
// of the account's first messages as scam texts, in its own unit of work, so that deleting the
// account afterwards loses none; any other reason keeps nothing; decisions (and exported texts)
// go after 30 days. Decisions are recorded through the store, as the message flow records them.
import { describe, expect, test } from 'vitest';
import {
  banAccountApiPath,
  markShieldDecisionMistakenApiPath,
  moderateShieldPath,
} from '../../../core/paths.ts';
import {
  forgetOldShieldDecisions,
  SCAM_TEXTS_PER_BAN,
  SHIELD_PAGE_SIZE,
} from '../../../server/moderation/shield-review.ts';
import type { NewShieldDecision } from '../../../store/parts/shield-decisions.ts';
import {
  insertConversation,
  insertLiveAd,
  insertMessage,
  messagesTestApp,
  textOf,
} from '../../helpers/messages.ts';
import {
  getPage,
  postModerationForm,
  postModerationJson,
  recordingPublisher,
  signUpModerator,
  type TestMember,
} from '../../helpers/moderation.ts';
import { bannerOf } from '../../helpers/pages.ts';
import { deleteAccountOf, makeMember } from '../../helpers/posting.ts';
import { formatDate } from '../../../core/format.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const t = messagesTestApp({ publisher: recordingPublisher() });

let moderatorMember: TestMember | undefined;
const moderator = async () => (moderatorMember ??= await signUpModerator(t.app, t.store));

/** A refusal or warning, recorded as the message flow records it; its id. */
async function recorded(
  sender: TestMember,
  recipient: TestMember | null,
  overrides: Partial<NewShieldDecision> = {},
): Promise<number> {
  return t.store.shieldDecisions.record({
    senderId: sender.accountId,
    recipientId: recipient?.accountId ?? null,
    text: 'Add me on telegram, same name there',
    outcome: 'refused',
    by: 'signal',
    families: ['off-site-contact'],
    probability: 0.914,
    adjusted: 0.968,
    behaviour: ['account made 2 hours ago', '4 first messages in the last hour'],
    at: new Date().toISOString(),
    ...overrides,
  });
}

async function shieldPage(path = moderateShieldPath(), session?: string) {
  const response = await getPage(t.app, path, session ?? (await moderator()).session);
  return { status: response.status, html: await response.text() };
}

const candidates = () =>
  storedRows<{ label: string; text: string; reason: string }>(
    t,
    'SELECT label, text, reason FROM shield_label_candidates ORDER BY id',
  );

/** The markup of one decision's entry on the page (up to the next one, or the list's end). */
function entryOf(html: string, id: number): string {
  const start = html.indexOf(`id="decision-${id}"`);
  if (start === -1) return '';
  const next = html.indexOf('class="form-card shield-decision"', start);
  return html.slice(start, next === -1 ? html.indexOf('</ol>', start) : next);
}

describe('/moderate/shield', () => {
  test('lists the refusals and warnings in words, newest first, without any email', async () => {
    const [sender, recipient] = [await makeMember(t), await makeMember(t)];
    const refused = await recorded(sender, recipient, { at: '2026-12-01T09:30:00.000Z' });
    const warned = await recorded(sender, recipient, {
      text: 'My car broke down, could you send $40 for the repair?',
      outcome: 'warned',
      by: 'model',
      families: ['money', 'sob-story'],
      probability: 0.62,
      adjusted: 0.55,
      behaviour: [],
    });
    const { status, html } = await shieldPage();
    expect(status).toBe(200);
    const page = textOf(html);
    expect(page).toContain('Scam shield');
    expect(page.indexOf('My car broke down')).toBeLessThan(page.indexOf('Add me on telegram'));
    expect(textOf(entryOf(html, refused))).toContain(
      'Refused, decided by the scam signals' +
        ' Dec 1, 2026, 09:30 UTC' +
        ' Add me on telegram, same name there' +
        ' Families off-site contact' +
        " Probability of a scam 91% by the model; 97% with the sender's behaviour" +
        " The sender's behaviour account made 2 hours ago 4 first messages in the last hour" +
        ' Mark as mistaken',
    );
    expect(textOf(entryOf(html, warned))).toContain(
      'Delivered with a warning, decided by the learned model',
    );
    expect(textOf(entryOf(html, warned))).toContain('Families money request, sob story');
    expect(textOf(entryOf(html, warned))).toContain("The sender's behaviour nothing that counted");
    for (const member of [sender, recipient]) expect(html).not.toContain(member.email);
  });

  test('pages of 50, older ones by ?before=', async () => {
    const sender = await makeMember(t);
    const ids: number[] = [];
    for (let n = 0; n < SHIELD_PAGE_SIZE + 1; n += 1)
      ids.push(await recorded(sender, null, { text: `Paged message number ${n}` }));
    const first = await shieldPage();
    expect(first.html).toContain(`href="/moderate/shield?before=${ids[1]}"`);
    expect(first.html).not.toContain('Paged message number 0<');
    const older = await shieldPage(moderateShieldPath(ids[1]));
    expect(textOf(older.html)).toContain('Paged message number 0');
    expect(textOf(older.html)).toContain('Newest decisions');
    // Marked from the older page: back to it.
    const marked = await postModerationForm(
      t.app,
      markShieldDecisionMistakenApiPath(ids[0]!),
      { before: String(ids[1]) },
      (await moderator()).session,
    );
    expect(marked.headers.get('location')).toBe(
      `/moderate/shield?before=${ids[1]}&done=marked#decision-${ids[0]}`,
    );
  });

  test('is the not-found page to members, and to anyone signed out', async () => {
    const member = await makeMember(t);
    expect((await shieldPage(moderateShieldPath(), member.session)).status).toBe(404);
    expect((await getPage(t.app, moderateShieldPath())).status).toBe(404);
  });
});

describe('Mark as mistaken', () => {
  test('as a plain form post: marked once, its text an ordinary text to label', async () => {
    const { session } = await moderator();
    const sender = await makeMember(t);
    const text = "I'm not on WhatsApp, let's keep chatting here";
    const id = await recorded(sender, null, { text });
    const before = (await candidates()).length;
    const { html } = await shieldPage();
    expect(entryOf(html, id)).toContain(`action="${markShieldDecisionMistakenApiPath(id)}"`);

    const marked = await postModerationForm(
      t.app,
      markShieldDecisionMistakenApiPath(id),
      {},
      session,
    );
    expect(marked.status).toBe(303);
    expect(marked.headers.get('location')).toBe(`/moderate/shield?done=marked#decision-${id}`);
    const after = await shieldPage('/moderate/shield?done=marked');
    expect(bannerOf(after.html)).toBe(
      'Marked as mistaken. Its text waits for the editors as an ordinary message, without who sent it.',
    );
    const today = formatDate(new Date().toISOString().slice(0, 10));
    expect(textOf(entryOf(after.html, id))).toContain(
      `Marked mistaken by a moderator on ${today}.`,
    );
    expect(entryOf(after.html, id)).not.toContain('Mark as mistaken');
    expect((await candidates()).slice(before)).toEqual([
      { label: 'ordinary', text, reason: 'marked-mistaken' },
    ]);

    // Twice: the page again with why; nothing more to label.
    const again = await postModerationForm(
      t.app,
      markShieldDecisionMistakenApiPath(id),
      {},
      session,
    );
    expect(again.status).toBe(409);
    expect(bannerOf(await again.text())).toBe(
      `This decision was marked mistaken already, by a moderator on ${today}.`,
    );
    expect(await candidates()).toHaveLength(before + 1);
  });

  test('as JSON; an unknown decision is 404; to a member the endpoint does not exist', async () => {
    const { session } = await moderator();
    const id = await recorded(await makeMember(t), null);
    const json = await postModerationJson(
      t.app,
      markShieldDecisionMistakenApiPath(id),
      {},
      session,
    );
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual({ marked: id });
    const unknown = await postModerationForm(
      t.app,
      markShieldDecisionMistakenApiPath(id + 10_000),
      {},
      session,
    );
    expect(unknown.status).toBe(404);
    expect(bannerOf(await unknown.text())).toContain('There is no such decision');
    const member = await makeMember(t);
    const other = await recorded(member, null);
    const refused = await postModerationForm(
      t.app,
      markShieldDecisionMistakenApiPath(other),
      {},
      member.session,
    );
    expect(refused.status).toBe(404);
    expect((await t.store.shieldDecisions.find(other))?.markedMistakenAt).toBeNull();
  });
});

describe('a ban', () => {
  /**
   * The scammer writes first in a conversation about each victim's ad; the first victim answers,
   * and the scammer writes once more after the answer.
   */
  async function scammerWrites(scammer: TestMember, victims: TestMember[], texts: string[]) {
    for (const [index, victim] of victims.entries()) {
      const adTitle = `Evening walks ${index}`;
      const adId = await insertLiveAd(t, victim, adTitle);
      const thread = await insertConversation(t, {
        adId,
        adTitle,
        posterId: victim.accountId,
        replierId: scammer.accountId,
      });
      for (const text of texts) await insertMessage(t, thread, scammer.accountId, text, 30);
      if (index === 0) {
        await insertMessage(t, thread, victim.accountId, 'Who is this? No thanks.', 20);
        await insertMessage(t, thread, scammer.accountId, 'Please, it is urgent', 10);
      }
    }
  }

  const ban = async (account: TestMember, reason: string) =>
    postModerationForm(
      t.app,
      banAccountApiPath(account.accountId),
      { reason, note: '' },
      (await moderator()).session,
    );

  test('for scam or fraud: its first messages, each text once, kept as scam texts, whatever is deleted after', async () => {
    const scammer = await makeMember(t);
    const victims = [await makeMember(t), await makeMember(t)];
    const texts = ['Hi dear, I am a soldier abroad', 'Can you buy me a gift card for my leave'];
    await scammerWrites(scammer, victims, texts);
    const before = (await candidates()).length;
    expect((await ban(scammer, 'scam')).status).toBe(303);
    expect((await candidates()).slice(before)).toEqual(
      texts.map((text) => ({ label: 'scam', text, reason: 'banned-for-fraud' })),
    );
    // Its account and messages deleted: the texts stay, and never named it.
    await deleteAccountOf(t, scammer.accountId);
    expect((await candidates()).slice(before)).toHaveLength(2);
    const columns = await storedRows(t, 'SELECT * FROM shield_label_candidates');
    expect(Object.keys(columns[0]!).sort()).toEqual(
      ['created_at', 'exported_at', 'id', 'label', 'reason', 'text'].sort(),
    );
  });

  test('for another reason keeps nothing; and no more than SCAM_TEXTS_PER_BAN texts', async () => {
    const spammer = await makeMember(t);
    await scammerWrites(spammer, [await makeMember(t)], ['Buy my course']);
    const before = (await candidates()).length;
    expect((await ban(spammer, 'spam')).status).toBe(303);
    expect(await candidates()).toHaveLength(before);

    const prolific = await makeMember(t);
    const many = Array.from({ length: SCAM_TEXTS_PER_BAN + 5 }, (_, n) => `Lure ${n}`);
    await scammerWrites(prolific, [await makeMember(t)], many);
    expect((await ban(prolific, 'scam')).status).toBe(303);
    const kept = (await candidates()).slice(before);
    expect(kept).toHaveLength(SCAM_TEXTS_PER_BAN);
    expect(kept[0]!.text).toBe('Lure 0');
  });
});

describe('after 30 days', () => {
  test('decisions are deleted, and texts exported as long ago', async () => {
    const sender = await makeMember(t);
    const now = new Date();
    const day = 24 * 60 * 60 * 1000;
    const old = await recorded(sender, null, {
      at: new Date(now.getTime() - 31 * day).toISOString(),
    });
    const recent = await recorded(sender, null, {
      at: new Date(now.getTime() - 29 * day).toISOString(),
    });
    await t.store.shieldDecisions.addCandidates(
      [{ label: 'scam', text: 'Exported long ago', reason: 'banned-for-fraud' }],
      now.toISOString(),
    );
    const waiting = await t.store.shieldDecisions.unexportedCandidates();
    await t.store.shieldDecisions.markExported(
      waiting.filter((row) => row.text === 'Exported long ago').map((row) => row.id),
      new Date(now.getTime() - 31 * day).toISOString(),
    );
    const forgotten = await forgetOldShieldDecisions(t.store, now);
    expect(forgotten.decisions).toBeGreaterThanOrEqual(1);
    expect(forgotten.exported).toBe(1);
    expect(await t.store.shieldDecisions.find(old)).toBeUndefined();
    expect(await t.store.shieldDecisions.find(recent)).toBeDefined();
    expect(await candidates()).not.toContainEqual(
      expect.objectContaining({ text: 'Exported long ago' }),
    );
  });
});
