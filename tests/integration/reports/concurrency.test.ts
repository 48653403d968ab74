// Reports arriving at once (issue 11; docs/product.md section 12): each is filed in one unit of
// work holding its ad's lock, so that 50 reports of one ad at once make exactly 50 report rows, one
// hidden_ads row, one automatic log row and one publish, in-process and over real HTTP; and,
// through two server instances on one PostgreSQL schema (on SQLite, the one instance twice):
// reports that each could be the third, one reporter's two reports, two moderators deciding on one
// group.
import { beforeAll, describe, expect, test } from 'vitest';
import { ALREADY_REPORTED } from '../../../server/reports/texts.ts';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { FORM_TYPE, listen, openTestApp, type TestApp } from '../../helpers/api.ts';
import {
  emailPattern,
  oneWentThrough,
  postModerationJson,
  signUpModerator,
  type TestMember,
} from '../../helpers/moderation.ts';
import {
  hiddenRows,
  insertLiveAd,
  reportJson,
  reportRows,
  type From,
} from '../../helpers/reports.ts';
import { onPostgres } from '../../helpers/test-store.ts';
import { moderateReportsApiPath, reportsApiPath } from '../../../core/paths.ts';

const REPORTERS = 50;
const t = moderationWorld({ publishedAds: true, trustProxy: 1 });
let poster: TestMember;
beforeAll(async () => {
  poster = await t.signUpMember('reported');
});

let addressCounter = 0;
/** A client address no other report of this file uses. */
const newAddress = () => {
  addressCounter += 1;
  return `10.${Math.floor(addressCounter / 250) + 10}.0.${(addressCounter % 250) + 1}`;
};

const hideRows = async (id: number) =>
  (await t.logRows()).filter((row) => row.ad_id === id && row.action === 'hide');

async function expectHiddenOnce(id: number, reports: number, published: number) {
  const rows = await reportRows(t.sql, id);
  expect(rows).toHaveLength(reports);
  expect(new Set(rows.map((row) => row.reporter_key)).size).toBe(reports);
  expect(await hiddenRows(t.sql, id)).toHaveLength(1);
  expect(await hideRows(id)).toHaveLength(1);
  expect(t.publisher.reasons.slice(published)).toEqual([`hid ad ${id} (reported by 3 people)`]);
}

/**
 * Another instance of the server on the same store (PostgreSQL), asking the same publisher; on
 * SQLite, the embedded store of one instance, this one.
 */
const otherInstance = async (): Promise<TestApp> =>
  onPostgres() ? openTestApp(t.dir, { trustProxy: 1, publisher: t.publisher }) : t;

async function withOtherInstance(run: (other: TestApp) => Promise<void>) {
  const other = await otherInstance();
  try {
    await run(other);
  } finally {
    if (other !== t) await other.close();
  }
}

describe(`${REPORTERS} reports of one ad at once`, () => {
  test('in-process: 50 rows, one hidden row, one publish', async () => {
    const id = await insertLiveAd(t, { accountId: poster.accountId });
    const published = t.publisher.reasons.length;
    const responses = await Promise.all(
      Array.from({ length: REPORTERS }, () =>
        reportJson(t.app, { ad: id, reason: 'spam' }, { address: newAddress() }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(REPORTERS).fill(201));
    await expectHiddenOnce(id, REPORTERS, published);
  });

  test('over real HTTP, as plain form posts: 50 rows, one hidden row, one publish', async () => {
    const id = await insertLiveAd(t, { accountId: poster.accountId });
    const published = t.publisher.reasons.length;
    const server = await listen(t.app);
    try {
      const responses = await Promise.all(
        Array.from({ length: REPORTERS }, () =>
          fetch(`${server.url}${reportsApiPath()}`, {
            method: 'POST',
            headers: {
              'content-type': FORM_TYPE,
              origin: server.url,
              'x-forwarded-for': newAddress(),
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
    await expectHiddenOnce(id, REPORTERS, published);
  });
});

describe('through two instances on one database', () => {
  test('5 reporters at once, split across both, round after round: one hide, one publish each time', async () => {
    await withOtherInstance(async (other) => {
      for (let round = 0; round < 6; round += 1) {
        const id = await insertLiveAd(t, { accountId: poster.accountId });
        const published = t.publisher.reasons.length;
        const responses = await Promise.all(
          [t, other, t, other, t].map((instance) =>
            reportJson(instance.app, { ad: id, reason: 'spam' }, { address: newAddress() }),
          ),
        );
        expect(responses.map((response) => response.status)).toEqual(Array(5).fill(201));
        await expectHiddenOnce(id, 5, published);
      }
    });
  });

  test('the second and third reporter at once, one on each instance: the ad is hidden once', async () => {
    await withOtherInstance(async (other) => {
      for (let round = 0; round < 10; round += 1) {
        const id = await insertLiveAd(t, { accountId: poster.accountId });
        expect(
          (await reportJson(t.app, { ad: id, reason: 'spam' }, { address: newAddress() })).status,
        ).toBe(201);
        const published = t.publisher.reasons.length;
        // Each could count the other's report or not: under the ad's lock, the later one does.
        const responses = await Promise.all(
          [t, other].map((instance) =>
            reportJson(instance.app, { ad: id, reason: 'spam' }, { address: newAddress() }),
          ),
        );
        expect(responses.map((response) => response.status)).toEqual([201, 201]);
        await expectHiddenOnce(id, 3, published);
      }
    });
  });

  test('one reporter reporting an ad twice at once, on each instance: one stored, one refused', async () => {
    await withOtherInstance(async (other) => {
      for (let round = 0; round < 6; round += 1) {
        const id = await insertLiveAd(t, { accountId: poster.accountId });
        // A visitor in even rounds, a member (from two addresses) in odd ones.
        const member = round % 2 === 1 ? await t.signUpMember('twice') : undefined;
        const address = newAddress();
        const from = (): From =>
          member ? { session: member.session, address: newAddress() } : { address };
        const responses = await Promise.all(
          [t, other].map((instance) =>
            reportJson(instance.app, { ad: id, reason: 'harassment' }, from()),
          ),
        );
        expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
        const refused = responses.find((response) => response.status === 409)!;
        expect(await refused.json()).toEqual({ error: ALREADY_REPORTED });
        expect(await reportRows(t.sql, id)).toHaveLength(1);
      }
    });
  });

  test('two moderators dismissing one group at once, one on each instance: one wins, the other is told', async () => {
    const first = await signUpModerator(t.app, t.store);
    const second = await signUpModerator(t.app, t.store);
    await withOtherInstance(async (other) => {
      for (let round = 0; round < 4; round += 1) {
        const id = await insertLiveAd(t, { accountId: poster.accountId });
        for (let reporter = 0; reporter < 3; reporter += 1)
          expect(
            (await reportJson(t.app, { ad: id, reason: 'spam' }, { address: newAddress() })).status,
          ).toBe(201);
        const seen = (await reportRows(t.sql, id)).at(-1)!.id;
        const published = t.publisher.reasons.length;
        const responses = await Promise.all(
          [
            [t, first],
            [other, second],
          ].map(([instance, moderator]) =>
            postModerationJson(
              (instance as TestApp).app,
              moderateReportsApiPath(),
              { group: `ad:${id}`, seen, action: 'dismiss' },
              (moderator as TestMember).session,
            ),
          ),
        );
        const { winner, refused } = oneWentThrough(responses, [first, second], 200);
        expect(((await refused.json()) as { error: string }).error).toMatch(
          new RegExp(
            `^These reports were already handled by ${emailPattern(winner)}, who dismissed them`,
          ),
        );
        const dismissals = (await t.logRows()).filter(
          (row) => row.ad_id === id && row.action === 'dismiss',
        );
        expect(dismissals).toHaveLength(1);
        expect(await hiddenRows(t.sql, id)).toEqual([]);
        expect(t.publisher.reasons.slice(published)).toEqual([`dismissed the reports of ad ${id}`]);
      }
    });
  });
});
