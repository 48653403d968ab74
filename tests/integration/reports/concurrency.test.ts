// 50 reports of one ad at once from 50 different reporters (issue 11): exactly 50 report rows,
// exactly one hidden_ads row, one automatic log row and one publish asked for, in-process and over
// real HTTP with the server (one BEGIN IMMEDIATE transaction stores each report and decides hiding).
import { describe, expect, test } from 'vitest';
import { FORM_TYPE, listen } from '../../helpers/api.ts';
import { logRows, recordingPublisher, signUpMember } from '../../helpers/moderation.ts';
import {
  hiddenRows,
  insertLiveAd,
  reportJson,
  reportRows,
  reportsTestApp,
} from '../../helpers/reports.ts';

process.env.PASSWORD_HASH_COST = String(2 ** 14);

const REPORTERS = 50;
const publisher = recordingPublisher();
const t = reportsTestApp({ trustProxy: 1, publisher });

function expectHiddenOnce(id: number, published: number) {
  expect(reportRows(t.db, id)).toHaveLength(REPORTERS);
  expect(new Set(reportRows(t.db, id).map((row) => row.reporter_key)).size).toBe(REPORTERS);
  expect(hiddenRows(t.db, id)).toHaveLength(1);
  expect(logRows(t.db).filter((row) => row.ad_id === id && row.action === 'hide')).toHaveLength(1);
  expect(publisher.reasons.slice(published)).toEqual([`hid ad ${id} (reported by 3 people)`]);
}

describe(`${REPORTERS} reports of one ad at once`, () => {
  test('in-process: 50 rows, one hidden row, one publish', async () => {
    const poster = await signUpMember(t.app, t.db, 'race-in-process');
    const id = insertLiveAd(t.db, { accountId: poster.accountId });
    const published = publisher.reasons.length;
    const responses = await Promise.all(
      Array.from({ length: REPORTERS }, (_, index) =>
        reportJson(t.app, { ad: id, reason: 'spam' }, { address: `10.1.0.${index + 1}` }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(REPORTERS).fill(201));
    expectHiddenOnce(id, published);
  });

  test('over real HTTP, as plain form posts: 50 rows, one hidden row, one publish', async () => {
    const poster = await signUpMember(t.app, t.db, 'race-http');
    const id = insertLiveAd(t.db, { accountId: poster.accountId });
    const published = publisher.reasons.length;
    const server = await listen(t.app);
    try {
      const responses = await Promise.all(
        Array.from({ length: REPORTERS }, (_, index) =>
          fetch(`${server.url}/api/reports`, {
            method: 'POST',
            headers: {
              'content-type': FORM_TYPE,
              origin: server.url,
              'x-forwarded-for': `10.2.0.${index + 1}`,
            },
            body: new URLSearchParams({ ad: String(id), reason: 'commercial' }).toString(),
            redirect: 'manual',
          }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(REPORTERS).fill(303));
    } finally {
      await server.close();
    }
    expectHiddenOnce(id, published);
  });
});
