// /account's server read (server/http/page-read.ts), for the signed-in member: their own ads and saved
// searches, the decisions about them and the reports they sent (server/accounts/account-view.ts).
import { accountView } from '../../../server/accounts/account-view.ts';
import { pageRead } from '../../../server/http/page-read.ts';
import { utcDay } from '../../days.ts';
import type { AccountView } from './account-view.ts';

export const read = pageRead<AccountView>({
  for: 'members',
  read: async ({ member }, { store, now }) => ({
    view: await accountView(store, member.accountId, utcDay(now()), now()),
  }),
});
