// /account/decisions/{id}'s server read (server/http/page-read.ts): the statement of reasons of one
// decision, for its member, signed in or carrying the key of the decision's mail (a banned member
// cannot sign in); to anyone else, as to an unknown id, the page's "not found", 404.
import { statementFor } from '../../moderation/appeals.ts';
import { statementView } from '../../moderation/statement-view.ts';
import { pageRead } from '../page-read.ts';
import { idOf } from '../../../core/ids.ts';
import type { DecisionView } from '../../../src/pages/decision/decision-view.ts';

export const read = pageRead<DecisionView>({
  for: 'anyone',
  read: async ({ c, member, params }, { store, now }) => {
    const id = idOf(params.statementId);
    const key = c.req.query('key');
    const row =
      id === undefined
        ? undefined
        : await statementFor(store, id, { accountId: member?.accountId, key });
    if (!row) return { status: 404 };
    return { view: { statement: statementView(row, now()), ...(key ? { key } : {}) } };
  },
});
