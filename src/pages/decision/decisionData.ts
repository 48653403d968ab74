import { getSite } from '../../../core/content/index.ts';
import { accountPath, appealApiPath, decisionPagePath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';
import type { DecisionView } from './decision-view.ts';

/**
 * `/account/decisions/{id}`: one decision about the member, its statement of reasons, and the
 * appeal form while it can be appealed (or where the appeal stands). Only its member reads it:
 * signed in, or with the key of the decision's mail; anyone else finds nothing (404).
 */
export function decisionData({ routeParams, request }: DataContext<DecisionView>) {
  const { brand } = getSite();
  const id = Number(routeParams.statementId);
  const view = request?.read;
  return {
    ...pageShell({
      title: `A moderation decision - ${brand}`,
      description: `Why ${brand} restricted your content or account, and how to appeal.`,
      path: Number.isSafeInteger(id) ? decisionPagePath(id) : accountPath(),
      robots: 'noindex, nofollow',
    }),
    statement: view?.statement,
    /** Where the appeal form posts: the mail's key goes with it. */
    appealAction: view && appealApiPath(view.statement.id, view.key),
    signedIn: request?.member !== undefined,
    appealed: request?.query.done === 'appealed',
    error: request?.form?.error,
    text: request?.form?.values.text ?? '',
  };
}
