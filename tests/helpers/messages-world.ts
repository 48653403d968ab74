// The world of a messages test file: the test app of helpers/messages.ts (the content fixture's
// ads published, one editor's ad among them), with the moves the tests make in it bound to it:
// members (and moderators) signed up, live ads and accounts written through the store,
// conversations started and replied to as a browser without JavaScript does, a moderator's form
// posted, pages read, and the rows read back.
import { readFileSync } from 'node:fs';
import { beforeAll, expect } from 'vitest';
import type { TestApp, TestAppOptions } from './api.ts';
import {
  insertAccount,
  insertConversation,
  insertLiveAd,
  insertMessage,
  conversationIdOf,
  messagesTestApp,
  replyIn,
  startConversation,
  storedConversations,
  storedMessages,
  takeAdDown,
  textOf,
} from './messages.ts';
import { insertAdInReview, postModerationForm, signUpModerator } from './moderation.ts';
import { deleteAccountOf, getPage, makeMember, submit } from './posting.ts';

/** `f` without its first parameter, the test app. */
type Bound<F> = F extends (t: never, ...rest: infer Rest) => infer Out
  ? (...rest: Rest) => Out
  : never;

const moves = {
  deleteAccountOf,
  getPage,
  insertAccount,
  insertAdInReview,
  insertConversation,
  insertLiveAd,
  insertMessage,
  makeMember,
  /** A plain form post, as a moderator's browser without JavaScript sends it. */
  postForm: (t: TestApp, path: string, fields: Record<string, string>, session?: string) =>
    postModerationForm(t.app, path, fields, session),
  replyIn,
  /** A member given the moderator role (helpers/moderation.ts). */
  signUpModerator: (t: TestApp) => signUpModerator(t.app, t.store),
  startConversation,
  storedConversations,
  storedMessages,
  submit,
  takeAdDown,
};

export type MessagesWorld = TestApp & { [Name in keyof typeof moves]: Bound<(typeof moves)[Name]> };

/**
 * Made before the file's tests, removed after them (as messagesTestApp); the object is filled in
 * by `beforeAll`: read its app and store inside tests only.
 */
export function messagesWorld(options?: TestAppOptions): MessagesWorld {
  const world = messagesTestApp(options) as MessagesWorld;
  for (const [name, move] of Object.entries(moves))
    Object.assign(world, {
      [name]: (...rest: unknown[]) => (move as (...all: unknown[]) => unknown)(world, ...rest),
    });
  return world;
}

/** A file of tests/fixtures/scam-corpus/: its lines, but blank ones and comments. */
export const scamCorpus = (name: string) =>
  readFileSync(new URL(`../fixtures/scam-corpus/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));

export type FirstMessageOutcome = 'refused' | 'warned' | 'delivered';

/**
 * A poster's live ad, made before the file's tests, and what becomes of texts sent to it as first
 * messages, each by a new member (refused, or shown to the poster with or without the scam
 * warning): each text with its outcome, in order.
 */
export function firstMessageOutcomes(
  t: MessagesWorld,
): (messages: readonly string[]) => Promise<Array<[FirstMessageOutcome, string]>> {
  let poster: Awaited<ReturnType<MessagesWorld['makeMember']>>;
  let adId: number;
  beforeAll(async () => {
    poster = await t.makeMember();
    adId = await t.insertLiveAd(poster, 'Coffee, tacos and a walk in Griffith Park');
  });
  const outcomeOf = async (text: string): Promise<FirstMessageOutcome> => {
    const sender = await t.makeMember();
    const response = await t.startConversation(sender, adId, text);
    if (response.status === 400) return 'refused';
    expect(response.status).toBe(303);
    const page = await t.getPage(`/messages/${conversationIdOf(response)}`, poster.session);
    expect(page.status).toBe(200);
    return textOf(await page.text()).includes('Warning: this message may be a scam')
      ? 'warned'
      : 'delivered';
  };
  return async (messages) => {
    const outcomes: Array<[FirstMessageOutcome, string]> = [];
    for (const text of messages) outcomes.push([await outcomeOf(text), text]);
    return outcomes;
  };
}
