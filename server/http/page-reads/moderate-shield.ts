// /moderate/shield's server read (server/http/page-read.ts), for moderators only: the scam shield's
// recent refusals and warnings, a page at a time (`?before=`; server/moderation/shield-review.ts).
import { idOf } from '../../../core/ids.ts';
import { shieldReviewView } from '../../moderation/shield-review.ts';
import { pageRead } from '../page-read.ts';
import type { ModerateShieldView } from '../../../core/views/shield-review.ts';

export const read = pageRead<ModerateShieldView>({
  for: 'moderators',
  read: async ({ c }, { store }) => ({
    view: await shieldReviewView(store, idOf(c.req.query('before'))),
  }),
});
