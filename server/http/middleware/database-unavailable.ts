// When the database is away (PostgreSQL stopped or unreachable, SQLite locked past its timeout or
// its disk failing), what touches it is answered 503 with Retry-After, saying so, instead of a
// bug's 500: member actions (the API), pages rendered on request for members. The prerendered
// site needs no database and keeps serving. Nothing is kept in a broken state: the next request
// tries the database again (PostgreSQL's pool opens new connections once it is back).
import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { reasonOf } from '../../../store/engine.ts';
import { Refusal } from '../../../core/refusal.ts';
import { type AnswerRefusal } from '../forms/refusal.ts';
import { isFormSubmission } from '../forms/submission.ts';
import { isApiPath } from '../../../core/paths.ts';

export const DATABASE_UNAVAILABLE =
  'This part of the site is unavailable for a moment: our database does not answer. Please try again in a minute.';

/** Seconds after which trying again makes sense. */
export const UNAVAILABLE_RETRY_AFTER = 30;

/** How often the log says the database is unavailable, at most. */
const LOG_EVERY_MS = 60_000;

export interface UnavailableSettings {
  refuse: AnswerRefusal;
  log?: (line: string) => void;
}

/** The answer to a request that failed because the database is unavailable. */
export function databaseUnavailable(settings: UnavailableSettings) {
  const log = settings.log ?? ((line: string) => console.error(line));
  let lastLogged = -Infinity;
  let unlogged = 0;

  return async function answer(c: Context<AppEnv>, error: unknown): Promise<Response> {
    unlogged += 1;
    if (Date.now() - lastLogged >= LOG_EVERY_MS) {
      log(
        `The database is unavailable: answered 503 to ${unlogged} request${unlogged === 1 ? '' : 's'} (${reasonOf(error)}).`,
      );
      lastLogged = Date.now();
      unlogged = 0;
    }
    const refusal = new Refusal('busy', DATABASE_UNAVAILABLE, {
      retryAfter: UNAVAILABLE_RETRY_AFTER,
    });
    const isApi = isApiPath(c.req.path);
    const browser = isFormSubmission(c);
    if (isApi && browser && c.get('formPage')) {
      // The form's page with the message, as every refused form (server/http/forms/refusal.ts). It
      // reads the member, which may be what failed: rendered as for a visitor signed out, unless
      // that page is for members only (then it would send them to sign in: the plain page below).
      const lookup = c.var.member;
      c.set('member', () => lookup().catch(() => undefined));
      try {
        const page = await settings.refuse(c, refusal);
        if (page.status === 503 && isHtml(page)) return page;
      } catch {
        // The page reads the database too: the plain page below.
      }
    }
    c.header('Cache-Control', 'no-store');
    c.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER));
    if (isApi && !browser) return c.json({ error: DATABASE_UNAVAILABLE }, 503);
    return c.html(unavailablePage(), 503);
  };
}

const isHtml = (response: Response) =>
  (response.headers.get('content-type') ?? '').startsWith('text/html');

/** A page of its own, needing nothing: not the layout, whose header reads the member. */
function unavailablePage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Unavailable for a moment</title></head>
<body>
<main>
<h1>Unavailable for a moment</h1>
<p>${DATABASE_UNAVAILABLE}</p>
<p><a href="/">Back to the home page</a></p>
</main>
</body>
</html>
`;
}
