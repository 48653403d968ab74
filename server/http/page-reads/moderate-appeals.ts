// /moderate/appeals' server read (server/http/page-read.ts), for moderators only: the open appeals,
// oldest first (server/moderation/appeals-view.ts).
import { appealsView } from '../../moderation/appeals-view.ts';
import { pageRead } from '../page-read.ts';
import type { ModerateAppealsView } from '../../../core/views/moderate-appeals.ts';

export const read = pageRead<ModerateAppealsView>({
  for: 'moderators',
  read: async ({ member }, { store, now }) => ({
    view: await appealsView(store, member.accountId, now()),
  }),
});
