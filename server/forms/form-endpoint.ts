// The middleware of every endpoint a form (or a page script) posts to, declared with the endpoint:
// which page the form is on (a refusal answers with it), the origin check (no other site posts
// here) and the body limit. One helper, so every endpoint refuses the same way.
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppContext, AppEnv, PageTarget } from '../app-env.ts';
import type { ProxyTrust } from '../client-address.ts';
import { originCheck } from '../middleware/origin-check.ts';
import { Refusal, type AnswerRefusal } from './refusal.ts';

/** Largest request body an endpoint reads, unless it says otherwise. */
export const MAX_BODY_BYTES = 16 * 1024;

export interface FormEndpointSettings {
  refuse: AnswerRefusal;
  /** Other origins allowed to post (a site on another host). */
  allowedOrigins: readonly string[];
  trust: ProxyTrust;
}

export type FormPageOf = PageTarget | ((c: AppContext) => PageTarget);

/**
 * The middleware before a form endpoint's handler: `page` is the form's page (none for an
 * endpoint that no page's form posts to), `maxBodyBytes` the body limit.
 */
export function formEndpoints(settings: FormEndpointSettings) {
  const checkOrigin = originCheck(settings.allowedOrigins, settings.trust, settings.refuse);
  return (page: FormPageOf | undefined, maxBodyBytes = MAX_BODY_BYTES) => {
    const limit = bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) =>
        settings.refuse(
          c,
          new Refusal(413, `The request body is too large (${maxBodyBytes / 1024} KB at most).`),
        ),
    });
    const formPage: MiddlewareHandler<AppEnv> = async (c, next) => {
      if (page) c.set('formPage', typeof page === 'function' ? page(c) : page);
      await next();
    };
    return [formPage, checkOrigin, limit] as const;
  };
}

export type FormEndpoint = ReturnType<typeof formEndpoints>;
