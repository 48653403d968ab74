// /verify-age's server read (server/http/page-read.ts), for the signed-in member: their state, their
// age check, and the laws that ask for one (server/age-assurance/views.ts).
import { verifyAgeView } from '../../age-assurance/views.ts';
import { pageRead } from '../page-read.ts';
import type { VerifyAgeView } from '../../../core/views/age-assurance.ts';

export const read = pageRead<VerifyAgeView>({
  for: 'members',
  read: async ({ member }, { store }) => ({ view: await verifyAgeView(store, member.accountId) }),
});
