// Posting and the member's own ads (product.md section 6), as API endpoints that take a plain form
// post (pages without JavaScript) or JSON, and the account pages that show the ads:
//
// - POST /api/ads: a new ad, checked with the posting form's schema (the CSV ads' field rules),
//   the place (the city must be one we list), the policy scanner and the limits (3 ads in review
//   or live; 1 new ad a city in 24 hours), then stored in review → /post/in-review.
// - POST /api/ads/{id}/edit, /delete, /renew: the member's own ad only; any other id is "not
//   found", whether or not it exists. Delete and renew ask the publisher, without waiting.
// - GET /api/ads/cities?state=…: the state's cities, for the form's suggestions.
// - GET /account and /account/ads/{id}/edit: the on-request pages, given the member's ads.
//
// Refusals come back as the form's page (fields kept, each message beside its field) for a form
// post, and as `{ error, field? }` for JSON. This sub-app has its own body limit: a 5,000-character
// description is up to 15 KB of UTF-8, and three times that once a form percent-encodes it.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { findPublishedAd } from '../../src/content/ad-by-id.ts';
import { getState, hasCity } from '../../src/content/index.ts';
import {
  accountPath,
  editAdPath,
  postInReviewPath,
  postPath,
  signinThenPath,
} from '../../src/paths.ts';
import type { FormFill } from '../../src/pages/request.ts';
import {
  AD_EDIT_FIELDS,
  AD_FORM_FIELDS,
  checkAdEdit,
  checkAdForm,
  type AdFormProblems,
} from '../../src/schemas/ad-form.ts';
import {
  AD_LIVE_DAYS,
  CITY_WINDOW_HOURS,
  MAX_ACTIVE_ADS,
  RENEW_AFTER_DAYS,
  RENEW_BEFORE_DAYS,
} from '../../src/schemas/ad-limits.ts';
import type { ProxyTrust } from '../client-address.ts';
import type { Db } from '../db/database.ts';
import { addDays, memberAdStore, utcDay, type MemberAdRow } from '../db/member-ads.ts';
import { originCheck } from '../middleware/origin-check.ts';
import type { OnRequestPages } from '../pages.ts';
import { memberAdView } from '../posting/ad-view.ts';
import { scanAdForPosting, type AdScanner } from '../posting/policy.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';
import { isFormSubmission, Refusal } from '../refusal.ts';
import { keptValues, readSubmission, type Submission } from './accounts.ts';

/** Largest request body the posting endpoints read (see the top of this file). */
export const POSTING_MAX_BODY_BYTES = 64 * 1024;

export interface PostingOptions {
  db: Db;
  pages: OnRequestPages;
  /** Asked to publish when a live ad is deleted or an ad is renewed; none in the API's tests. */
  publisher?: Publisher;
  /** The policy scanner (server/posting/policy.ts). */
  scan?: AdScanner;
  allowedOrigins: readonly string[];
  trust: ProxyTrust;
  /** The clock (tests move it). */
  now?: () => Date;
}

export const FIX_FIELDS = 'Please correct the fields marked below.';
export const NOT_VERIFIED =
  'Verify your email address before posting: open the link we emailed you, or ask for a new one on your account page.';
export const AD_NOT_FOUND = "We couldn't find that ad among yours.";
export const ACTIVE_LIMIT = `You already have ${MAX_ACTIVE_ADS} ads in review or live, the most one member can have at once. Delete one, or wait until one expires, to post another.`;
export const BANNED = 'This account cannot post ads.';

const cityLimit = (city: string, nextAt: string) =>
  `You posted an ad in ${city} in the last ${CITY_WINDOW_HOURS} hours. You can post another ad there from ${nextAt.slice(0, 16).replace('T', ' ')} UTC.`;

/** Where a refused form post is answered: the form it came from. */
type FormTarget = { page: 'post' } | { page: 'edit'; adId: number } | { page: 'account' };

export function postingRoutes(options: PostingOptions) {
  const { pages } = options;
  const ads = memberAdStore(options.db);
  const scan = options.scan ?? scanAdForPosting;
  const now = options.now ?? (() => new Date());
  const app = new Hono();

  const refuseHere = (c: Context, refusal: Refusal) =>
    answerRefusal(c, refusal, targetOf(c.req.path));
  app.use(async (c, next) => {
    await next();
    c.res.headers.set('Cache-Control', 'no-store');
  });
  app.use(originCheck(options.allowedOrigins, options.trust, refuseHere));
  app.use(
    bodyLimit({
      maxSize: POSTING_MAX_BODY_BYTES,
      onError: (c) =>
        refuseHere(
          c,
          new Refusal(
            413,
            `The request body is too large (${POSTING_MAX_BODY_BYTES / 1024} KB at most).`,
          ),
        ),
    }),
  );

  app.get('/cities', (c) => {
    const state = getState(c.req.query('state') ?? '');
    if (!state) return c.json({ error: 'There is no such state.' }, 404);
    return c.json({ state: state.name, cities: state.cities.map((city) => city.name) }, 200);
  });

  app.post('/', async (c) => {
    const target: FormTarget = { page: 'post' };
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return answerRefusal(c, submission, target);
    const values = keptValues(submission, AD_FORM_FIELDS);
    const member = pages.memberOf(c);
    if (!member) return signedOut(c, submission, postPath());
    if (!member.emailVerified)
      return answerRefusal(c, new Refusal(403, NOT_VERIFIED), target, values);
    const checked = checkAdForm(submission.fields, hasCity);
    if (!checked.ok) return answerProblems(c, checked.problems, target, values);
    const ad = checked.ad;
    const scanned = scan(ad);
    if (scanned.refusal)
      return answerProblems(
        c,
        { [scanned.refusal.field]: scanned.refusal.message },
        target,
        values,
      );
    const outcome = ads.post(member.accountId, ad, JSON.stringify(scanned.marks), now());
    if (!outcome.ok) {
      const refusal =
        outcome.refused === 'active-limit'
          ? new Refusal(409, ACTIVE_LIMIT)
          : outcome.refused === 'city-limit'
            ? new Refusal(
                429,
                cityLimit(ad.city, outcome.nextAt),
                undefined,
                Math.max(1, Math.ceil((Date.parse(outcome.nextAt) - now().getTime()) / 1000)),
              )
            : new Refusal(403, BANNED);
      return answerRefusal(c, refusal, target, values);
    }
    return submission.kind === 'form'
      ? c.redirect(postInReviewPath(), 303)
      : c.json({ id: outcome.id, redirectUrl: postInReviewPath() }, 201);
  });

  app.post('/:id/edit', async (c) => {
    const id = adIdOf(c.req.param('id'));
    const target: FormTarget = id === undefined ? { page: 'account' } : { page: 'edit', adId: id };
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return answerRefusal(c, submission, target);
    const values = keptValues(submission, AD_EDIT_FIELDS);
    const member = pages.memberOf(c);
    if (!member) return signedOut(c, submission, id === undefined ? accountPath() : editAdPath(id));
    const ad = id === undefined ? undefined : ads.findOwned(id, member.accountId);
    if (!ad) return notFound(c, submission);
    if (!member.emailVerified)
      return answerRefusal(c, new Refusal(403, NOT_VERIFIED), target, values);
    const checked = checkAdEdit(submission.fields);
    if (!checked.ok) return answerProblems(c, checked.problems, target, values);
    const scanned = scan({ state: ad.state, city: ad.city, ...checked.ad });
    if (scanned.refusal)
      return answerProblems(
        c,
        { [scanned.refusal.field]: scanned.refusal.message },
        target,
        values,
      );
    const outcome = ads.edit(
      ad.id,
      member.accountId,
      checked.ad,
      JSON.stringify(scanned.marks),
      now(),
    );
    if (!outcome.ok)
      return outcome.refused === 'not-found'
        ? notFound(c, submission)
        : answerRefusal(
            c,
            new Refusal(409, 'A moderator removed this ad, so it can no longer be edited.'),
            target,
            values,
          );
    const done = outcome.pending ? 'edit-in-review' : 'edited';
    return submission.kind === 'form'
      ? c.redirect(`${accountPath()}?done=${done}`, 303)
      : c.json(
          { id: ad.id, pending: outcome.pending, redirectUrl: `${accountPath()}?done=${done}` },
          200,
        );
  });

  app.post('/:id/delete', async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return answerRefusal(c, submission, { page: 'account' });
    const member = pages.memberOf(c);
    if (!member) return signedOut(c, submission, accountPath());
    const id = adIdOf(c.req.param('id'));
    const outcome = id === undefined ? undefined : ads.delete(id, member.accountId, now());
    if (!outcome?.ok) return notFound(c, submission);
    if (outcome.wasLive) publishSoon(options.publisher, `deleted ad ${outcome.ad.id}`);
    return submission.kind === 'form'
      ? c.redirect(`${accountPath()}?done=deleted`, 303)
      : c.json({ id: outcome.ad.id, status: 'deleted' }, 200);
  });

  app.post('/:id/renew', async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return answerRefusal(c, submission, { page: 'account' });
    const member = pages.memberOf(c);
    if (!member) return signedOut(c, submission, accountPath());
    const id = adIdOf(c.req.param('id'));
    const before = id === undefined ? undefined : ads.findOwned(id, member.accountId);
    if (!before) return notFound(c, submission);
    const outcome = ads.renew(before.id, member.accountId, now());
    if (!outcome.ok)
      return outcome.refused === 'not-found'
        ? notFound(c, submission)
        : answerRefusal(c, new Refusal(409, notRenewable(before, utcDay(now()))), {
            page: 'account',
          });
    publishSoon(options.publisher, `renewed ad ${outcome.ad.id}`);
    return submission.kind === 'form'
      ? c.redirect(`${accountPath()}?done=renewed`, 303)
      : c.json({ id: outcome.ad.id, expiresOn: outcome.ad.expiresOn }, 200);
  });

  app.on(['GET', 'PUT', 'PATCH', 'DELETE'], ['/', '/:id/edit', '/:id/delete', '/:id/renew'], (c) =>
    c.json({ error: 'Use POST for this endpoint.' }, 405),
  );

  return app;

  function signedOut(c: Context, submission: Submission, back: string) {
    return submission.kind === 'form'
      ? c.redirect(signinThenPath(back), 303)
      : c.json({ error: 'You are not signed in.' }, 401);
  }

  function notFound(c: Context, submission: Submission) {
    if (submission.kind === 'json') return c.json({ error: AD_NOT_FOUND }, 404);
    return accountPage(c, AD_NOT_FOUND, 404);
  }

  function answerProblems(
    c: Context,
    problems: AdFormProblems,
    target: FormTarget,
    values: Record<string, string>,
  ) {
    const entries = Object.entries(problems);
    const [field, message] = entries[0] ?? ['form', FIX_FIELDS];
    if (!isFormSubmission(c))
      return c.json(
        {
          error: message,
          ...(field !== 'form' ? { field } : {}),
          fields: Object.fromEntries(entries),
        },
        400,
      );
    const { form, ...fieldErrors } = problems;
    return formPage(c, target, { error: form ?? FIX_FIELDS, values, fieldErrors }, 400);
  }

  function answerRefusal(
    c: Context,
    refusal: Refusal,
    target: FormTarget,
    values: Record<string, string> = {},
  ) {
    c.header('Cache-Control', 'no-store');
    if (refusal.retryAfter) c.header('Retry-After', String(refusal.retryAfter));
    if (!isFormSubmission(c))
      return c.json(
        refusal.field ? { error: refusal.error, field: refusal.field } : { error: refusal.error },
        refusal.status,
      );
    return formPage(c, target, { error: refusal.error, values }, refusal.status);
  }

  function formPage(c: Context, target: FormTarget, form: FormFill, status: PageStatus) {
    if (target.page === 'post') return pages.render(c, 'post', { form }, status);
    if (target.page === 'account') return accountPage(c, form.error, status);
    const found = pages.find(editAdPath(target.adId));
    if (!found) throw new Error('The edit page (src/pages/edit-ad/) is missing');
    const member = pages.memberOf(c);
    const ad = member ? ads.findOwned(target.adId, member.accountId) : undefined;
    const memberAds = ad ? [memberAdView(ad, utcDay(now()))] : [];
    return pages.answer(c, found.page, found.params, { form, memberAds }, status);
  }

  /** The account page, with why an action on one of the ads was refused beside the ads. */
  function accountPage(c: Context, error: string | undefined, status: PageStatus) {
    const member = pages.memberOf(c);
    const today = utcDay(now());
    const memberAds = member
      ? ads.listOwned(member.accountId).map((ad) => memberAdView(ad, today))
      : [];
    const form = { values: {}, fieldErrors: { ads: error } };
    return pages.render(c, 'account', { memberAds, form }, status);
  }
}

type PageStatus = Parameters<OnRequestPages['answer']>[4];

/**
 * GET /account and /account/ads/{id}/edit: the on-request pages with the member's own ads; and
 * GET /messages/new, whose unknown ad is a 404.
 */
export function memberAdPages(options: Pick<PostingOptions, 'db' | 'pages' | 'now'>) {
  const { pages } = options;
  const ads = memberAdStore(options.db);
  const now = options.now ?? (() => new Date());
  const app = new Hono();
  app.get('/account', (c) => {
    const member = pages.memberOf(c);
    const today = utcDay(now());
    const memberAds = member
      ? ads.listOwned(member.accountId).map((ad) => memberAdView(ad, today))
      : [];
    return pages.render(c, 'account', { memberAds });
  });
  app.get('/account/ads/:id/edit', (c, next) => {
    const found = pages.find(c.req.path);
    if (!found) return next();
    const member = pages.memberOf(c);
    const id = adIdOf(c.req.param('id'));
    const ad = member && id !== undefined ? ads.findOwned(id, member.accountId) : undefined;
    const memberAds = ad ? [memberAdView(ad, utcDay(now()))] : [];
    return pages.answer(c, found.page, found.params, { memberAds }, member && !ad ? 404 : 200);
  });
  // Reply and Send Message lead here (replies are section 7): an unknown ad is a 404.
  app.get('/messages/new', (c, next) => {
    const found = pages.find(c.req.path);
    if (!found) return next();
    const id = adIdOf(c.req.query('ad') ?? '');
    const status = id !== undefined && findPublishedAd(id) ? 200 : 404;
    return pages.answer(c, found.page, found.params, {}, status);
  });
  return app;
}

/** A member ad id from the URL: digits only, and a safe integer. */
function adIdOf(param: string): number | undefined {
  if (!/^\d{1,15}$/.test(param)) return undefined;
  return Number(param);
}

function targetOf(path: string): FormTarget {
  const edit = /\/(\d{1,15})\/edit\/?$/.exec(path);
  if (edit) return { page: 'edit', adId: Number(edit[1]) };
  if (/\/(delete|renew)\/?$/.test(path)) return { page: 'account' };
  return { page: 'post' };
}

/** Why Renew does not apply to this ad today. */
function notRenewable(ad: MemberAdRow, today: string): string {
  if (ad.status !== 'live' || !ad.expiresOn)
    return 'Only a live ad, or one that expired in the last 30 days, can be renewed.';
  if (ad.expiresOn > today)
    return `This ad can be renewed from ${addDays(ad.expiresOn, -RENEW_BEFORE_DAYS)}, ${RENEW_BEFORE_DAYS} days before it expires.`;
  return `This ad expired more than ${RENEW_AFTER_DAYS} days ago and can no longer be renewed. Post it again as a new ad; it stays live for ${AD_LIVE_DAYS} days once approved.`;
}
