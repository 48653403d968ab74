// The world of the push tests about messages and saved searches: Web Push (web-push.ts: a push
// service on loopback, the pusher's own clock) under the messages world's app, and the move each
// of their tests starts with, a member who turned notifications on for a device of their own (its
// subscription posted as JSON, as the account page's script does). Call at a file's top.
import { expect } from 'vitest';
import { pushDevicesApiPath } from '../../core/paths.ts';
import { messagesWorld } from './messages-world.ts';
import type { TestMember } from './posting.ts';
import type { TestDevice } from './push-service.ts';
import { pushWorld } from './web-push.ts';

export function pushMessagesWorld() {
  const push = pushWorld();
  const t = messagesWorld({ pusher: (store) => push.pusherFor(store) });

  /** A new member with notifications on for a device named `name`. */
  async function memberWithDevice(
    name: string,
  ): Promise<{ member: TestMember; device: TestDevice }> {
    const member = await t.makeMember();
    const device = push.service.newDevice(name);
    const response = await t.submit(
      pushDevicesApiPath(),
      device.subscription,
      member.session,
      'json',
    );
    expect(response.status).toBe(201);
    return { member, device };
  }

  return { push, t, memberWithDevice };
}
