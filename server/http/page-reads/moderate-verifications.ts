// /moderate/verifications' server read (server/http/page-read.ts), for moderators only: the
// selfies waiting, oldest first, their photos behind the moderator's shield
// (server/verification/views.ts).
import { pageRead } from '../page-read.ts';
import { verificationQueueView } from '../../verification/views.ts';
import type { ModerateVerificationsView } from '../../../core/views/moderate-verifications.ts';

export const read = pageRead<ModerateVerificationsView>({
  for: 'moderators',
  read: async ({ member }, { store, now, explicitThreshold }) => ({
    view: await verificationQueueView(store, {
      now: now(),
      moderatorId: member.accountId,
      explicitThreshold,
    }),
  }),
});
