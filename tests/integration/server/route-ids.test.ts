// An id in a request's path, as an attacker sends it ("abc", "-1", twenty digits, "1e3"): every
// route family reads it one way (server/http/route-id.ts) and answers 4xx with the message of its
// own "not found", never a 500 and never told apart from an id that names nothing; a script gets
// `{ error }`, a form posted without JavaScript its page with the message. Pages read their ids as
// the page's not-found screen; the public ad pages are files, so a malformed one is the site's 404.
import { describe, expect, it } from 'vitest';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { textOf } from '../../helpers/pages.ts';

const world = moderationWorld({ moderators: 1 });

const MALFORMED = ['abc', '-1', '99999999999999999999', '1e3'];

const AD_NOT_YOURS = "We couldn't find that ad among yours.";
const NO_CONVERSATION = "We couldn't find that conversation.";
const NO_ENDPOINT = 'There is no such API endpoint.';
const NO_VERIFICATION = 'There is no such verification.';

/**
 * A member's endpoints: POST, the message of their "not found" (404), and what the form's page
 * then says (the push devices' section, where its message goes, is only there with Web Push).
 */
const MEMBER_POSTS: [string, string, RegExp | undefined][] = [
  ['/api/ads/ID/edit', AD_NOT_YOURS, /couldn't find that ad among yours/],
  ['/api/ads/ID/delete', AD_NOT_YOURS, /couldn't find that ad among yours/],
  ['/api/ads/ID/renew', AD_NOT_YOURS, /couldn't find that ad among yours/],
  [
    '/api/saved-searches/ID/delete',
    'This saved search does not exist (any more).',
    /This saved search does not exist/,
  ],
  [
    '/api/account/push-devices/ID/delete',
    'That device is not in your list (it may have been removed already).',
    undefined,
  ],
  ['/api/messages/ID/reply', NO_CONVERSATION, /Conversation not found/],
  ['/api/messages/ID/block', NO_CONVERSATION, /Conversation not found/],
  ['/api/decisions/ID/appeal', 'There is no such decision.', /Decision not found/],
];

/** A moderator's endpoints: where the refusal says "no X", ID is the id as the path named it. */
const MODERATOR_POSTS: [string, string][] = [
  ['/api/moderate/ads/ID/approve', 'There is no member ad ID.'],
  ['/api/moderate/ads/ID/reject', 'There is no member ad ID.'],
  ['/api/moderate/accounts/ID/ban', 'There is no account ID.'],
  ['/api/moderate/photos/ID/remove', 'There is no photo ID.'],
  ['/api/moderate/photos/ID/reveal', 'There is no photo ID.'],
  [
    '/api/moderate/repeated-messages/ID/dismiss',
    'This announcement was dismissed already, or there is no such announcement.',
  ],
  [
    '/api/moderate/shield-decisions/ID/mistaken',
    'There is no such decision of the scam shield: decisions are deleted after 30 days.',
  ],
  ['/api/moderate/appeals/ID/decide', 'There is no such appeal.'],
  ['/api/moderate/verifications/ID/approve', NO_VERIFICATION],
  ['/api/moderate/verifications/ID/refuse', NO_VERIFICATION],
];

/** What every form above would send: enough that the id is what is refused. */
const FIELDS = {
  text: 'Please look again.',
  body: 'Hello',
  outcome: 'upheld',
  reply: 'The photo shows a phone number.',
  reason: 'spam',
};

const rows = <Row extends unknown[]>(table: Row[]) =>
  table.flatMap((row) => MALFORMED.map((id) => [...row, id] as [...Row, string]));

describe('a malformed id in the path', () => {
  it.each(rows(MEMBER_POSTS))(
    'POST %s (%s, %s), id %s: 404 with the message',
    async (path, message, page, id) => {
      const member = await world.signUpMember('ids');
      const url = path.replace('ID', id);
      const json = await world.postJson(url, FIELDS, member.session);
      expect({ status: json.status, body: await json.json() }).toEqual({
        status: 404,
        body: { error: message },
      });
      const form = await world.postForm(url, FIELDS, member.session);
      expect(form.status).toBe(404);
      expect(form.headers.get('content-type')).toMatch(/^text\/html/);
      if (page) expect(textOf(await form.text())).toMatch(page);
    },
  );

  it.each(rows(MODERATOR_POSTS))(
    'POST %s as a moderator (%s), id %s: 404',
    async (path, message, id) => {
      const session = world.moderators[0].session;
      const url = path.replace('ID', id);
      const json = await world.postJson(url, FIELDS, session);
      expect({ status: json.status, body: await json.json() }).toEqual({
        status: 404,
        body: { error: message.replace('ID', id) },
      });
      // The queue again, saying so.
      const form = await world.postForm(url, FIELDS, session);
      expect(form.status).toBe(404);
      expect(textOf(await form.text())).toContain(message.replace('ID', id));
    },
  );

  it.each(
    rows<[string]>([
      ['/api/photos/ID/400'],
      ['/api/photos/1/ID'],
      ['/api/photos/ID/blurred'],
      ['/api/verification/ID/selfie'],
    ]),
  )('GET %s, %s: the unknown endpoint', async (path, id) => {
    const response = await world.getPage(path.replace('ID', id), world.moderators[0].session);
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 404,
      body: { error: NO_ENDPOINT },
    });
  });

  it.each(
    rows<[string, RegExp]>([
      ['/account/ads/ID/edit', /Ad not found/],
      ['/messages/ID', /not found/i],
      ['/account/decisions/ID', /not found/i],
      ['/city/California/Los%20Angeles/ad/ID', /Not found/],
    ]),
  )('GET %s, %s: 404 saying so', async (path, words, id) => {
    const member = await world.signUpMember('ids');
    const response = await world.getPage(path.replace('ID', id), member.session);
    expect(response.status).toBe(404);
    expect(textOf(await response.text())).toMatch(words);
  });
});
