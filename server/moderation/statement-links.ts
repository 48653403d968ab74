// The link to a statement of reasons a decision's mail carries (docs/product.md section 6): the
// decision's page with a key, a keyed hash of the statement's id with a secret made once per
// database, so that a member who cannot sign in (a banned account) can read it and appeal; and the
// statement's lines for that mail.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { statementMailLines } from '../mail/appeal-messages.ts';
import { decisionPagePath } from '../../core/paths.ts';
import type { MailSite } from '../mail/messages.ts';
import type { StatementRow } from '../../store/parts/statements.ts';
import type { Store } from '../../store/store.ts';
import { statementView } from './statement-view.ts';

const STATEMENT_SECRET = 'statement-key';

export async function statementKey(store: Store, statementId: number): Promise<string> {
  const secret = await store.secrets.get(STATEMENT_SECRET);
  return createHmac('sha256', secret).update(`statement:${statementId}`).digest('hex').slice(0, 32);
}

export const sameKey = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The path of a statement's page, with its key. */
export async function mailLink(store: Store, row: StatementRow): Promise<string> {
  return decisionPagePath(row.id, await statementKey(store, row.id));
}

/** The statement's lines for its decision's mail, and the link to it; none if it is gone. */
export async function statementMail(
  deps: { store: Store; mailSite: () => MailSite },
  statementId: number,
  now: Date,
) {
  const row = await deps.store.statements.find(statementId);
  if (!row) return undefined;
  const link = await mailLink(deps.store, row);
  const view = statementView(row, now);
  return { view, link, lines: statementMailLines(deps.mailSite(), view, link) };
}
