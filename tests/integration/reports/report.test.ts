// Reporting (docs/product.md section 8) in-process, on SQLite or PostgreSQL: the /report form for
// any published ad, one report per reporter (an account, or a visitor's address) per ad, visitors'
// keys never holding their address, hiding at 3 reporters or at once for "under 18", and every
// refusal a clear answer with nothing stored: no reason, an unknown ad, a second report. The
// test app trusts one proxy hop, so X-Forwarded-For names the client.
import { describe, expect, test } from 'vitest';
import { ALREADY_REPORTED, REPORT_NOT_FOUND } from '../../../server/reports/texts.ts';
import { REPORT_REASONS } from '../../../core/schemas/report-reasons.ts';
import { CHOOSE_A_REASON } from '../../../core/schemas/report.ts';
import { logRows, recordingPublisher, signUpMember } from '../../helpers/moderation.ts';
import { bannerOf, headingOf, privatePage } from '../../helpers/pages.ts';
import {
  reportTaken,
  editorAdIds,
  getAs,
  hiddenRows,
  insertLiveAd,
  reportForm,
  reportJson,
  reportRows,
  reportsTestApp,
  textOf,
} from '../../helpers/reports.ts';
import { accountPath, reportsApiPath } from '../../../core/paths.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const publisher = recordingPublisher();
const t = reportsTestApp({ trustProxy: 1, publisher });
let addressCounter = 0;
/** A client address no other test uses. */
const newAddress = () => `198.51.100.${++addressCounter}`;

describe('the report form', () => {
  test('names the ad and lists the seven reasons of the specification, one required', async () => {
    const id = editorAdIds()[0]!;
    const response = await getAs(t.app, `/report?ad=${id}`);
    const html = await privatePage(response, 'Report this ad');
    const text = textOf(html);
    expect(text).toContain('Los Angeles, California');
    const labels = [...html.matchAll(/<label for="report-reason-[^"]+">([^<]*)<\/label>/g)].map(
      (match) => match[1]!.replace(/&#x27;/g, "'"),
    );
    expect(labels).toEqual([
      'Offers or asks for money or gifts (commercial sex)',
      'May involve someone under 18',
      'Scam or spam',
      'Harassment or threats',
      "Uses someone else's photos or identity",
      'Wrong city or category',
      'Something else',
    ]);
    const radios = [...html.matchAll(/<input type="radio"[^>]*>/g)].map((match) => match[0]);
    expect(radios).toHaveLength(7);
    for (const radio of radios) expect(radio).toMatch(/ required="" name="reason" /);
    expect(html).toContain('maxLength="1000"');
    expect(html).toContain(`action="${reportsApiPath()}"`);
  });

  test('an ad that does not exist, or is not live: 404 with a clear page', async () => {
    const poster = await signUpMember(t.app, t.store, 'not-live');
    const { insertAdInReview } = await import('../../helpers/moderation.ts');
    const inReview = await insertAdInReview(t, { accountId: poster.accountId });
    for (const path of [
      '/report?ad=999999',
      '/report?ad=abc',
      `/report?ad=${inReview}`,
      '/report',
    ]) {
      const response = await getAs(t.app, path);
      expect(response.status, path).toBe(404);
      expect(headingOf(await response.text())).toBe('Ad not found');
    }
  });
});

describe('sending a report', () => {
  test('a visitor without JavaScript: thank-you page, one row keyed by a hash, never the address', async () => {
    const id = editorAdIds()[0]!;
    const address = newAddress();
    const response = await reportForm(
      t.app,
      { ad: String(id), reason: 'spam', note: 'The same text is in five cities.' },
      { address },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/report?sent=1');
    const thanks = await getAs(t.app, '/report?sent=1');
    expect(textOf(await thanks.text())).toContain('Thank you, a moderator will look at it.');

    const rows = await reportRows(t.sql, id);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      reason: 'spam',
      note: 'The same text is in five cities.',
      reporter_account_id: null,
      reported_account_id: null,
      conversation_id: null,
      resolved_at: null,
    });
    expect(row.reporter_key).toMatch(/^address:[0-9a-f]{64}$/);
    const everything = JSON.stringify(await storedRows(t, 'SELECT * FROM reports'));
    expect(everything).not.toContain(address);
    expect(JSON.parse(row.ad_copy)).toMatchObject({ kind: 'editor', id, city: 'Los Angeles' });
    // One secret, made once for this database.
    expect(await storedRows(t, 'SELECT name FROM server_secrets')).toEqual([
      { name: 'reporter-key' },
    ]);
  });

  test('one report per reporter per ad: the same address again is 409, another address counts', async () => {
    const id = editorAdIds()[1]!;
    const address = newAddress();
    expect((await reportForm(t.app, { ad: String(id), reason: 'other' }, { address })).status).toBe(
      303,
    );
    const again = await reportForm(t.app, { ad: String(id), reason: 'spam' }, { address });
    expect(again.status).toBe(409);
    const html = await again.text();
    expect(headingOf(html)).toBe('Report this ad');
    expect(bannerOf(html)).toBe(ALREADY_REPORTED);
    expect(await reportRows(t.sql, id)).toHaveLength(1);
    const json = await reportJson(t.app, { ad: id, reason: 'spam' }, { address });
    expect(json.status).toBe(409);
    expect(await json.json()).toEqual({ error: ALREADY_REPORTED });
    expect(
      (await reportJson(t.app, { ad: id, reason: 'spam' }, { address: newAddress() })).status,
    ).toBe(201);
    expect(await reportRows(t.sql, id)).toHaveLength(2);
  });

  test('a member is one reporter from any address; a visitor at the same address is another', async () => {
    const poster = await signUpMember(t.app, t.store, 'poster');
    const id = await insertLiveAd(t, {
      accountId: poster.accountId,
      title: 'Chess in the park',
    });
    const member = await signUpMember(t.app, t.store, 'reporter');
    const address = newAddress();
    await reportTaken(
      t.app,
      { ad: String(id), reason: 'spam' },
      { address, session: member.session },
    );
    const elsewhere = await reportForm(
      t.app,
      { ad: String(id), reason: 'spam' },
      { address: newAddress(), session: member.session },
    );
    expect(elsewhere.status).toBe(409);
    expect((await reportForm(t.app, { ad: String(id), reason: 'spam' }, { address })).status).toBe(
      303,
    );
    const rows = await reportRows(t.sql, id);
    expect(rows.map((row) => row.reporter_key)).toEqual([
      `account:${member.accountId}`,
      expect.stringMatching(/^address:/),
    ]);
    expect(rows[0]).toMatchObject({
      reporter_account_id: member.accountId,
      reported_account_id: poster.accountId,
    });
    expect(JSON.parse(rows[0]!.ad_copy)).toMatchObject({
      kind: 'member',
      title: 'Chess in the park',
    });
  });

  test('no reason, an unknown reason, a note too long: 400 with the form and what was typed; nothing stored', async () => {
    const id = editorAdIds()[0]!;
    const before = (await reportRows(t.sql, id)).length;
    const none = await reportForm(
      t.app,
      { ad: String(id), note: 'kept' },
      { address: newAddress() },
    );
    expect(none.status).toBe(400);
    const html = await none.text();
    expect(bannerOf(html)).toBe(CHOOSE_A_REASON);
    expect(html).toContain('>kept</textarea>');
    const unknown = await reportJson(
      t.app,
      { ad: id, reason: 'boring' },
      { address: newAddress() },
    );
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: CHOOSE_A_REASON, field: 'reason' });
    const long = await reportForm(
      t.app,
      { ad: String(id), reason: 'spam', note: 'x'.repeat(1001) },
      { address: newAddress() },
    );
    expect(long.status).toBe(400);
    expect(bannerOf(await long.text())).toBe(
      'The note must be at most 1,000 characters (got 1001).',
    );
    expect(await reportRows(t.sql, id)).toHaveLength(before);
  });

  test('an ad that does not exist: 404 with a clear page, nothing stored', async () => {
    const response = await reportForm(
      t.app,
      { ad: '999999', reason: 'spam' },
      { address: newAddress() },
    );
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(headingOf(html)).toBe('Ad not found');
    expect(bannerOf(html)).toBe(REPORT_NOT_FOUND);
    const json = await reportJson(t.app, { ad: 999999, reason: 'spam' }, { address: newAddress() });
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ error: REPORT_NOT_FOUND });
    expect(await reportRows(t.sql, 999999)).toHaveLength(0);
  });
});

describe('hiding', () => {
  test('3 different reporters hide an ad once: one hidden row, one log row, one publish', async () => {
    const poster = await signUpMember(t.app, t.store, 'hidden-poster');
    const id = await insertLiveAd(t, { accountId: poster.accountId, title: 'Three reports' });
    const published = publisher.reasons.length;
    for (const reason of ['spam', 'commercial']) {
      await reportTaken(t.app, { ad: String(id), reason }, { address: newAddress() });
    }
    expect(await hiddenRows(t.sql, id)).toHaveLength(0);
    expect(publisher.reasons.length).toBe(published);
    await reportTaken(t.app, { ad: String(id), reason: 'identity' }, { address: newAddress() });
    expect(await hiddenRows(t.sql, id)).toEqual([
      expect.objectContaining({ kind: 'member', why: 'reports' }),
    ]);
    await reportTaken(t.app, { ad: String(id), reason: 'spam' }, { address: newAddress() });
    expect(publisher.reasons.slice(published)).toEqual([`hid ad ${id} (reported by 3 people)`]);
    const hides = (await logRows(t.sql)).filter((row) => row.ad_id === id);
    expect(hides).toEqual([
      expect.objectContaining({
        action: 'hide',
        moderator_email: 'reports (automatic)',
        moderator_id: null,
        account_id: poster.accountId,
        account_email: poster.email,
      }),
    ]);
  });

  test('the member whose ad reports hid sees it off the site on their account page, not as live', async () => {
    const poster = await signUpMember(t.app, t.store, 'hidden-owner');
    const id = await insertLiveAd(t, {
      accountId: poster.accountId,
      title: 'Hidden from view',
    });
    const account = async () =>
      textOf(await (await getAs(t.app, accountPath(), { session: poster.session })).text());
    expect(await account()).toMatch(/Hidden from view\s*Live/);
    await reportTaken(t.app, { ad: String(id), reason: 'under-18' }, { address: newAddress() });
    const shown = await account();
    expect(shown).toMatch(/Hidden from view\s*Off the site: reported/);
    expect(shown).toContain('People reported this ad, so it is off the site until a moderator');
    expect(shown).not.toContain('View it on the site');
  });

  test('one "May involve someone under 18" hides an editor\'s ad at once', async () => {
    const id = editorAdIds()[1]!;
    const published = publisher.reasons.length;
    const response = await reportForm(
      t.app,
      { ad: String(id), reason: 'under-18' },
      { address: newAddress() },
    );
    expect(response.status).toBe(303);
    expect(await hiddenRows(t.sql, id)).toEqual([
      expect.objectContaining({ kind: 'editor', why: 'under-18' }),
    ]);
    expect(publisher.reasons.slice(published)).toEqual([
      `hid ad ${id} (reported as possibly under 18)`,
    ]);
    expect(
      (await logRows(t.sql)).filter((row) => row.ad_id === id && row.action === 'hide'),
    ).toHaveLength(1);
    expect(REPORT_REASONS['under-18']).toBe('May involve someone under 18');
  });
});
