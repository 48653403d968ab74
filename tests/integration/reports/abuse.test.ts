// The abuse table of reports (issue 11): flooding from one address (429 after REPORTS_PER_HOUR,
// unknown ads costing the same), X-Forwarded-For believed only when the app trusts a proxy, and
// conversations: reported by their two members only; anyone else gets the same 404 as an unknown
// id, and nothing is stored.
import { describe, expect, test } from 'vitest';
import {
  ALREADY_REPORTED,
  CONVERSATION_NOT_FOUND,
  TOO_MANY_REPORTS,
} from '../../../server/reports/texts.ts';
import { REPORTS_PER_HOUR } from '../../../core/schemas/report-reasons.ts';
import { signUpMember } from '../../helpers/moderation.ts';
import { bannerOf, headingOf } from '../../helpers/pages.ts';
import {
  conversationReportRows,
  editorAdIds,
  getAs,
  hiddenRows,
  insertConversation,
  insertLiveAd,
  reportForm,
  reportJson,
  reportRows,
  reportsTestApp,
  textOf,
} from '../../helpers/reports.ts';

describe('behind a trusted proxy', () => {
  const t = reportsTestApp({ trustProxy: 1 });

  test(`flooding from one address: ${REPORTS_PER_HOUR} reports an hour, unknown ads count too, then 429`, async () => {
    const address = '203.0.113.7';
    for (let index = 0; index < REPORTS_PER_HOUR; index += 1) {
      const response = await reportJson(t.app, { ad: 900000 + index, reason: 'spam' }, { address });
      expect(response.status).toBe(404);
    }
    const id = editorAdIds()[0]!;
    const refused = await reportForm(t.app, { ad: String(id), reason: 'spam' }, { address });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const html = await refused.text();
    expect(headingOf(html)).toBe('Report this ad');
    expect(bannerOf(html)).toBe(TOO_MANY_REPORTS);
    expect(await reportRows(t.sql, id)).toHaveLength(0);
    // Another address is not held back.
    const other = await reportForm(
      t.app,
      { ad: String(id), reason: 'spam' },
      { address: '203.0.113.8' },
    );
    expect(other.status).toBe(303);
    expect(await reportRows(t.sql, id)).toHaveLength(1);
  });

  test('IPv6 visitors are one reporter per /64', async () => {
    const id = editorAdIds()[1]!;
    const first = await reportForm(
      t.app,
      { ad: String(id), reason: 'spam' },
      { address: '2001:db8:1:2::1' },
    );
    expect(first.status).toBe(303);
    const sameNetwork = await reportForm(
      t.app,
      { ad: String(id), reason: 'spam' },
      { address: '2001:db8:1:2:ffff::9' },
    );
    expect(sameNetwork.status).toBe(409);
    expect(bannerOf(await sameNetwork.text())).toBe(ALREADY_REPORTED);
  });

  describe('a conversation', () => {
    test('its members report it, with the thread copied; a second report is 409', async () => {
      const poster = await signUpMember(t.app, t.store, 'conv-poster');
      const replier = await signUpMember(t.app, t.store, 'conv-replier');
      const adId = await insertLiveAd(t, {
        accountId: poster.accountId,
        title: 'Sunday walks',
      });
      const conversation = await insertConversation(t, {
        adId,
        posterId: poster.accountId,
        replierId: replier.accountId,
        messages: [
          [replier.accountId, 'Hello, I saw your ad.'],
          [poster.accountId, 'Hi! Which walks do you like?'],
          [replier.accountId, 'Send me money first.'],
        ],
      });
      const page = await getAs(t.app, `/report?conversation=${conversation}`, {
        session: poster.session,
      });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(headingOf(html)).toBe('Report this conversation');
      expect(textOf(html)).toContain('Sunday walks');
      // A message has no city or category.
      expect(html).not.toContain('Wrong city or category');
      expect([...html.matchAll(/type="radio"/g)]).toHaveLength(6);

      const sent = await reportForm(
        t.app,
        { conversation: String(conversation), reason: 'commercial', note: 'Asked for money.' },
        { session: poster.session },
      );
      expect(sent.status).toBe(303);
      const rows = await conversationReportRows(t.sql, conversation);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        ad_id: adId,
        reporter_key: `account:${poster.accountId}`,
        reported_account_id: replier.accountId,
        reason: 'commercial',
      });
      expect(JSON.parse(rows[0]!.thread!)).toEqual([
        expect.objectContaining({ from: 'reported', body: 'Hello, I saw your ad.' }),
        expect.objectContaining({ from: 'reporter', body: 'Hi! Which walks do you like?' }),
        expect.objectContaining({ from: 'reported', body: 'Send me money first.' }),
      ]);
      // A conversation report is about the messages: the ad stays up.
      expect(await hiddenRows(t.sql, adId)).toHaveLength(0);
      const again = await reportForm(
        t.app,
        { conversation: String(conversation), reason: 'spam' },
        { session: poster.session },
      );
      expect(again.status).toBe(409);
      // The other side may report it too: another reporter.
      const other = await reportJson(
        t.app,
        { conversation, reason: 'harassment' },
        { session: replier.session },
      );
      expect(other.status).toBe(201);
      expect(await conversationReportRows(t.sql, conversation)).toHaveLength(2);
    });

    test('anyone else: the same 404 as an unknown id, nothing stored; signed out: sign in first', async () => {
      const poster = await signUpMember(t.app, t.store, 'conv2-poster');
      const replier = await signUpMember(t.app, t.store, 'conv2-replier');
      const stranger = await signUpMember(t.app, t.store, 'conv2-stranger');
      const adId = await insertLiveAd(t, { accountId: poster.accountId });
      const conversation = await insertConversation(t, {
        adId,
        posterId: poster.accountId,
        replierId: replier.accountId,
        messages: [[replier.accountId, 'Hello.']],
      });
      const theirs = await getAs(t.app, `/report?conversation=${conversation}`, {
        session: stranger.session,
      });
      const unknown = await getAs(t.app, '/report?conversation=987654', {
        session: stranger.session,
      });
      expect(theirs.status).toBe(404);
      expect(unknown.status).toBe(404);
      const [a, b] = [await theirs.text(), await unknown.text()];
      expect(headingOf(a)).toBe('Conversation not found');
      expect(textOf(a)).toBe(textOf(b));

      const posted = await reportForm(
        t.app,
        { conversation: String(conversation), reason: 'spam' },
        { session: stranger.session },
      );
      expect(posted.status).toBe(404);
      expect(bannerOf(await posted.text())).toBe(CONVERSATION_NOT_FOUND);
      const json = await reportJson(
        t.app,
        { conversation, reason: 'spam' },
        { session: stranger.session },
      );
      expect(json.status).toBe(404);
      expect(await json.json()).toEqual({ error: CONVERSATION_NOT_FOUND });
      const visitor = await reportJson(
        t.app,
        { conversation, reason: 'spam' },
        { address: '192.0.2.77' },
      );
      expect(visitor.status).toBe(404);
      expect(await conversationReportRows(t.sql, conversation)).toHaveLength(0);

      const signedOut = await getAs(t.app, `/report?conversation=${conversation}`);
      expect(signedOut.status).toBe(303);
      expect(signedOut.headers.get('location')).toBe(
        `/signin?next=${encodeURIComponent(`/report?conversation=${conversation}`)}`,
      );

      const wrongReason = await reportJson(
        t.app,
        { conversation, reason: 'wrong-place' },
        { session: poster.session },
      );
      expect(wrongReason.status).toBe(400);
      expect(await conversationReportRows(t.sql, conversation)).toHaveLength(0);
    });
  });
});

describe('without a trusted proxy', () => {
  const t = reportsTestApp();

  test('a spoofed X-Forwarded-For does not make a new reporter', async () => {
    const id = editorAdIds()[0]!;
    const first = await reportForm(
      t.app,
      { ad: String(id), reason: 'spam' },
      { address: '1.1.1.1' },
    );
    expect(first.status).toBe(303);
    for (const address of ['2.2.2.2', '3.3.3.3, 4.4.4.4']) {
      const spoofed = await reportForm(t.app, { ad: String(id), reason: 'spam' }, { address });
      expect(spoofed.status).toBe(409);
    }
    expect(await reportRows(t.sql, id)).toHaveLength(1);
    expect(await hiddenRows(t.sql, id)).toHaveLength(0);
  });
});
