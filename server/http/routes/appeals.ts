// Appeals (docs/product.md section 6), as API endpoints that take JSON or a plain form
// post:
//
//   POST /api/decisions/{id}/appeal[?key=…]     {text}               the member appeals a decision
//   POST /api/moderate/appeals/{id}/decide      {outcome, reply?}    a moderator decides an appeal
//
// The member is the signed-in member the decision is about, or whoever carries its mail's key (a
// banned member cannot sign in); to anyone else the decision does not exist (404). The moderators'
// endpoint is an unknown API path to anyone else. What is checked is server/moderation/appeals.ts.
import { Hono } from 'hono';
import { appealSchema, decideAppealSchema } from '../../../core/schemas/appeal.ts';
import { apiRoutes, decisionPagePath, moderateAppealsPath, routes } from '../../../core/paths.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import type { ModerationDeps } from '../../moderation/actions.ts';
import {
  decideAppeal,
  fileAppeal,
  NO_SUCH_APPEAL,
  NO_SUCH_DECISION,
} from '../../moderation/appeals.ts';
import { idOf } from '../../../core/ids.ts';
import { routeId } from '../route-id.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { textOf } from '../forms/submission.ts';
import { Refusal } from '../../../core/refusal.ts';

export interface AppealOptions extends ModerationDeps {
  form: FormEndpoint;
}

/** 2,000 characters of any script, form-encoded, with room to spare. */
const APPEAL_BODY_LIMIT = 64 * 1024;

/** The decision's page, with its mail's key: a refused appeal gets it back. */
const decisionPage = (c: AppContext) => ({
  route: routes.decision,
  params: { statementId: c.req.param('id') ?? '' },
  url: decisionPagePath(idOf(c.req.param('id')) ?? 0, c.req.query('key')),
});

export function appealRoutes(options: AppealOptions) {
  const { form, store } = options;
  const app = new Hono<AppEnv>();

  app.post(
    apiRoutes.appeal,
    ...form.action(
      {
        page: decisionPage,
        for: 'anyone',
        keep: ['text'],
        schema: appealSchema,
        limit: APPEAL_BODY_LIMIT,
      },
      async ({ c, member, input }) => {
        const decision = routeId(c, () => new Refusal('not-found', NO_SUCH_DECISION));
        const key = c.req.query('key');
        const by = { accountId: member?.accountId, key };
        await fileAppeal(store, by, decision.id, input, options.now());
        const page = decisionPagePath(decision.id, key);
        const redirect = `${page}${page.includes('?') ? '&' : '?'}done=appealed`;
        return { redirect, json: { statementId: decision.id, appeal: 'in-review' }, status: 201 };
      },
    ),
  );

  app.post(
    apiRoutes.decideAppeal,
    ...form.action(
      {
        page: { route: routes.moderateAppeals },
        for: 'moderators',
        keep: keptDecision,
        schema: decideAppealSchema,
      },
      async ({ c, member, input }) => {
        const appeal = routeId(c, () => new Refusal('not-found', NO_SUCH_APPEAL));
        const done = await decideAppeal(options, member, appeal.id, input);
        return { redirect: `${moderateAppealsPath()}?done=${done.outcome}`, json: done };
      },
    ),
  );

  return app;
}

/** What the appeals page puts back into a refused decision: which appeal, and the reply. */
const keptDecision = (fields: Record<string, unknown>, c: AppContext): Record<string, string> => ({
  appealId: c.req.param('id') ?? '',
  outcome: textOf(fields.outcome),
  reply: textOf(fields.reply).slice(0, 2000),
});
