// /moderate's server read (server/http/page-read.ts), for moderators only: the queue
// (server/moderation/queue-view.ts), and the ban's confirmation when asked for (`?ban={account
// id}`) or when the ban's form was refused (a POST to /api/moderate/accounts/{id}/ban).
import { pageRead } from '../page-read.ts';
import { queueView } from '../../moderation/queue-view.ts';
import type { ModerationQueueView } from '../../../core/views/moderation.ts';

const BAN_PATH = /^\/api\/moderate\/accounts\/(\d{1,15})\/ban\/?$/;

export const read = pageRead<ModerationQueueView>({
  for: 'moderators',
  read: async ({ c, member }, { store, now, explicitThreshold }) => ({
    view: await queueView(store, {
      query: c.req.query(),
      ban: c.req.query('ban') ?? BAN_PATH.exec(c.req.path)?.[1],
      now: now(),
      moderatorId: member.accountId,
      explicitThreshold,
    }),
  }),
});
