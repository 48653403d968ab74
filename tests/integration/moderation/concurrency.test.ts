// Two moderators acting on one ad at once: exactly one wins, the other is told who handled it
// (409, the queue page with the message for a form); the ad changes once, one log row, one mail.
import { describe, expect, test } from 'vitest';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { cookieHeader, FORM_TYPE, listen, openTestApp } from '../../helpers/api.ts';
import { emailPattern, oneWentThrough, postModerationJson } from '../../helpers/moderation.ts';
import { bannerOf } from '../../helpers/pages.ts';
import { onPostgres } from '../../helpers/test-store.ts';
import { banAccountApiPath, moderateAdApiPath } from '../../../core/paths.ts';

const t = moderationWorld({ moderators: 2 });
const [first, second] = t.moderators;

describe('two moderators at once', () => {
  test('approve and reject the same ad: one wins, the other sees who handled it, nothing twice', async () => {
    const { poster, id } = await t.adInReview('race');
    const [approve, reject] = await Promise.all([
      t.postForm(moderateAdApiPath(id, 'approve'), { revision: '1' }, first.session),
      t.postForm(
        moderateAdApiPath(id, 'reject'),
        { revision: '1', reason: 'spam' },
        second.session,
      ),
    ]);
    const { winner, refused } = oneWentThrough([approve, reject], [first, second], 303);
    const html = await refused.text();
    expect(html).toContain('<h1>Moderation queue</h1>');
    expect(bannerOf(html)).toMatch(
      new RegExp(`^This ad was already handled by ${emailPattern(winner)}, who `),
    );
    const rows = (await t.logRows()).filter((row) => row.ad_id === id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.moderator_email).toBe(winner.email);
    expect((await t.storedAd(id)).revision).toBe(2);
    expect(await t.mailsOf(poster.email)).toHaveLength(1);
  });

  test('over HTTP, ten approvals of one ad from two moderators: one approval, one log row, one publish', async () => {
    const { poster, id } = await t.adInReview('race-http');
    const server = await listen(t.app);
    const published = t.publisher.reasons.length;
    try {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          fetch(`${server.url}${moderateAdApiPath(id, 'approve')}`, {
            method: 'POST',
            headers: {
              'content-type': FORM_TYPE,
              origin: server.url,
              ...cookieHeader((index % 2 ? first : second).session),
            },
            body: 'revision=1',
            redirect: 'manual',
          }),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([303, ...Array(9).fill(409)]);
    } finally {
      await server.close();
    }
    expect(await t.storedAd(id)).toMatchObject({ status: 'live', revision: 2 });
    expect((await t.logRows()).filter((row) => row.ad_id === id)).toHaveLength(1);
    expect(t.publisher.reasons.slice(published)).toEqual([`approved ad ${id}`]);
    expect(await t.mailsOf(poster.email)).toHaveLength(1);
  });

  test('two moderators approving one revision through two instances: one approves, the other is told who did', async () => {
    // On PostgreSQL a second app on the same schema, as a second server instance; on SQLite, the
    // embedded store of one instance, the same app twice.
    const other = onPostgres() ? await openTestApp(t.dir, { publisher: t.publisher }) : t;
    try {
      const { id } = await t.adInReview('race-instances');
      const responses = await Promise.all([
        t.postJson(moderateAdApiPath(id, 'approve'), { revision: 1 }, first.session),
        postModerationJson(
          other.app,
          moderateAdApiPath(id, 'approve'),
          { revision: 1 },
          second.session,
        ),
      ]);
      const { winner, refused } = oneWentThrough(responses, [first, second], 200);
      expect(((await refused.json()) as { error: string }).error).toMatch(
        new RegExp(`^This ad was already handled by ${emailPattern(winner)}, who approved it`),
      );
      expect(await t.storedAd(id)).toMatchObject({ status: 'live', revision: 2 });
      expect((await t.logRows()).filter((row) => row.ad_id === id)).toHaveLength(1);
    } finally {
      if (other !== t) await other.close();
    }
  });

  test('two bans of one account: one ban, the other told it was already banned', async () => {
    const { poster } = await t.adInReview('race-ban');
    const responses = await Promise.all(
      [first, second].map((moderator) =>
        t.postForm(banAccountApiPath(poster.accountId), { reason: 'spam' }, moderator.session),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([303, 409]);
    const refused = responses.find((response) => response.status === 409)!;
    expect(bannerOf(await refused.text())).toMatch(/^This account was already banned by /);
    const bans = (await t.logRows()).filter(
      (row) => row.account_id === poster.accountId && row.action === 'ban',
    );
    expect(bans).toHaveLength(1);
  });
});
