// /reset?token=…'s server read (server/http/page-read.ts): what the emailed link's token is now, from the
// link, or from the refused form that carried it.
import { pageRead } from '../page-read.ts';
import type { LinkState } from '../../../src/pages/request.ts';

export const read = pageRead<LinkState>({
  for: 'anyone',
  read: async ({ c, form }, { links }) => ({
    view: (await links.stateOf(c.req.query('token') ?? form?.values.token, 'reset')).state,
  }),
});
