// What the server reads for /account/decisions/{id} (its server read, server/http/page-reads/): the decision's statement of
// reasons, for its member only (signed in, or with its mail's key). Types only.
import type { StatementView } from '../../../core/views/statement.ts';

export interface DecisionView {
  statement: StatementView;
  /** The mail's key the page was opened with, carried by the appeal form. */
  key?: string;
}
