// /account's server read (server/page-read.ts), for the signed-in member: their own ads and saved
// searches, the decisions about them and the reports they sent (server/account/account-view.ts).
import { accountView } from '../../../server/account/account-view.ts';
import { pageRead } from '../../../server/page-read.ts';
import { utcDay } from '../../days.ts';
import type { AccountView } from './account-view.ts';

export const read = pageRead<AccountView>({
  for: 'members',
  read: async ({ member }, { store, now }) => ({
    view: await accountView(store, member.accountId, utcDay(now()), now()),
  }),
});
