// /account's server read (server/http/page-read.ts), for the signed-in member: their own ads and saved
// searches, the decisions about them and the reports they sent (server/accounts/account-view.ts), and
// their devices for notifications (server/push/devices.ts).
import { accountView } from '../../accounts/account-view.ts';
import { pushDevicesView } from '../../push/devices.ts';
import { pageRead } from '../page-read.ts';
import { utcDay } from '../../../core/days.ts';
import type { AccountView } from '../../../core/views/account.ts';

export const read = pageRead<AccountView>({
  for: 'members',
  read: async ({ member }, { store, now, pusher }) => ({
    view: {
      ...(await accountView(store, member.accountId, utcDay(now()), now())),
      push: await pushDevicesView(store, pusher.settings, member.accountId),
    },
  }),
});
