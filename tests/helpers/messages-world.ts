// The world of a messages test file: the test app of helpers/messages.ts (the content fixture's
// ads published, one editor's ad among them), with the moves the tests make in it bound to it:
// members signed up, live ads and accounts written through the store, conversations started and
// replied to as a browser without JavaScript does, pages read, and the rows read back.
import type { TestApp, TestAppOptions } from './api.ts';
import {
  ageAccount,
  insertAccount,
  insertConversation,
  insertLiveAd,
  insertMessage,
  messagesTestApp,
  replyIn,
  startConversation,
  storedConversations,
  storedMessages,
  takeAdDown,
} from './messages.ts';
import { deleteAccountOf, getPage, makeMember, submit } from './posting.ts';

/** `f` without its first parameter, the test app. */
type Bound<F> = F extends (t: never, ...rest: infer Rest) => infer Out
  ? (...rest: Rest) => Out
  : never;

const moves = {
  ageAccount,
  deleteAccountOf,
  getPage,
  insertAccount,
  insertConversation,
  insertLiveAd,
  insertMessage,
  makeMember,
  replyIn,
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
