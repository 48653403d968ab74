// /account/verification's server read (server/http/page-read.ts), for the signed-in member: their
// verification, challenge and selfie in review (server/verification/views.ts).
import { pageRead } from '../page-read.ts';
import { verificationView } from '../../verification/views.ts';
import type { VerificationView } from '../../../core/views/verification.ts';

export const read = pageRead<VerificationView>({
  for: 'members',
  read: async ({ member }, { store, now }) => ({
    view: await verificationView(store, member.accountId, now()),
  }),
});
