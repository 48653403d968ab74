// Posting and the member's own ads (docs/product.md section 6), as API endpoints that take a plain form
// post (pages without JavaScript) or JSON, and the account pages that show the ads:
//
// - POST /api/ads: a new ad, checked with the posting form's schema (the CSV ads' field rules),
//   the place (the city must be one we list), the policy scanner and the limits (3 ads in review
//   or live; 1 new ad a city in 24 hours), then stored in review → /post/in-review.
// - POST /api/ads/{id}/edit, /delete, /renew: the member's own ad only; any other id is "not
//   found", whether or not it exists. Delete and renew ask the publisher, without waiting. An
//   expired ad is renewed before it is edited (409 saying so). Renew from the edit page
//   (`then=edit`) leads back to it.
// - GET /api/ads/cities?state=…: the state's cities, for the form's suggestions.
// - GET /account and /account/ads/{id}/edit: the on-request pages, given the member's ads.
//
// Refusals come back as the form's page (fields kept, each message beside its field) for a form
// post, and as `{ error, field? }` for JSON. This sub-app has its own body limit: a 5,000-character
// description is up to 15 KB of UTF-8, and three times that once a form percent-encodes it.
import { Hono } from 'hono';
import { getState, hasCity } from '../../src/content/index.ts';
import { accountPath, editAdPath, postInReviewPath, routes } from '../../src/paths.ts';
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
import { renewBeforeEditing } from '../../src/schemas/member-ad-view.ts';
import type { AppEnv } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import {
  addDays,
  canRenew,
  isExpired,
  memberAdStore,
  utcDay,
  type MemberAdRow,
} from '../db/member-ads.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { FIX_FIELDS, NOT_SIGNED_IN, Refusal, type AnswerRefusal } from '../forms/refusal.ts';
import { keptValues, readSubmission } from '../forms/submission.ts';
import { pageSource } from '../pages.ts';
import { memberAdView } from '../posting/ad-view.ts';
import { scanAdForPosting, type AdScanner } from '../posting/policy.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';

/** Largest request body the posting endpoints read (see the top of this file). */
export const POSTING_MAX_BODY_BYTES = 64 * 1024;

export interface PostingOptions {
  db: Db;
  refuse: AnswerRefusal;
  form: FormEndpoint;
  /** Asked to publish when a live ad is deleted or an ad is renewed; none in the API's tests. */
  publisher?: Publisher;
  /** The policy scanner (server/posting/policy.ts). */
  scan?: AdScanner;
  /** The clock (tests move it). */
  now?: () => Date;
}

export const NOT_VERIFIED =
  'Verify your email address before posting: open the link we emailed you, or ask for a new one on your account page.';
export const AD_NOT_FOUND = "We couldn't find that ad among yours.";
export const ACTIVE_LIMIT = `You already have ${MAX_ACTIVE_ADS} ads in review or live, the most one member can have at once. Delete one, or wait until one expires, to post another.`;
export const BANNED = 'This account cannot post ads.';

const cityLimit = (city: string, nextAt: string) =>
  `You posted an ad in ${city} in the last ${CITY_WINDOW_HOURS} hours. You can post another ad there from ${nextAt.slice(0, 16).replace('T', ' ')} UTC.`;

/**
 * The member's own ads, on /account and on /account/ads/{id}/edit (another member's id, or an
 * unknown one, is the edit page's "not found", 404). (/messages/new is server/routes/messages.ts.)
 */
export function memberAdPageSources(options: Pick<PostingOptions, 'db' | 'now'>) {
  const ads = memberAdStore(options.db);
  const now = options.now ?? (() => new Date());
  return [
    pageSource({
      route: routes.account,
      for: 'members',
      read: (_c, { member }) => {
        const today = utcDay(now());
        return { memberAds: ads.listOwned(member.accountId).map((ad) => memberAdView(ad, today)) };
      },
    }),
    pageSource({
      route: routes.editAd,
      for: 'members',
      read: (_c, { member, params }) => {
        const id = adIdOf(params.adId);
        const ad = id === undefined ? undefined : ads.findOwned(id, member.accountId);
        return ad
          ? { memberAds: [memberAdView(ad, utcDay(now()))] }
          : { memberAds: [], status: 404 };
      },
    }),
  ];
}

export function postingRoutes(options: PostingOptions) {
  const { refuse, form } = options;
  const ads = memberAdStore(options.db);
  const scan = options.scan ?? scanAdForPosting;
  const now = options.now ?? (() => new Date());
  const app = new Hono<AppEnv>();
  const endpoint = (page: Parameters<FormEndpoint>[0]) => form(page, POSTING_MAX_BODY_BYTES);
  const accountPage = { route: routes.account };
  const editPage = endpoint((c) => ({
    route: routes.editAd,
    params: { adId: c.req.param('id') ?? '' },
  }));

  app.get('/cities', (c) => {
    const state = getState(c.req.query('state') ?? '');
    if (!state) return c.json({ error: 'There is no such state.' }, 404);
    return c.json({ state: state.name, cities: state.cities.map((city) => city.name) }, 200);
  });

  app.post('/', ...endpoint({ route: routes.post }), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const values = keptValues(submission, AD_FORM_FIELDS);
    const member = await c.var.member();
    if (!member) return refuse(c, new Refusal(401, NOT_SIGNED_IN));
    if (!member.emailVerified) return refuse(c, new Refusal(403, NOT_VERIFIED), values);
    const checked = checkAdForm(submission.fields, hasCity);
    if (!checked.ok) return refuse(c, problems(checked.problems), values);
    const ad = checked.ad;
    const scanned = scan(ad);
    if (scanned.refusal)
      return refuse(c, problems({ [scanned.refusal.field]: scanned.refusal.message }), values);
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
      return refuse(c, refusal, values);
    }
    return submission.kind === 'form'
      ? c.redirect(postInReviewPath(), 303)
      : c.json({ id: outcome.id, redirectUrl: postInReviewPath() }, 201);
  });

  app.post('/:id/edit', ...editPage, async (c) => {
    const id = adIdOf(c.req.param('id'));
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const values = keptValues(submission, AD_EDIT_FIELDS);
    const member = await c.var.member();
    if (!member) return refuse(c, new Refusal(401, NOT_SIGNED_IN));
    const ad = id === undefined ? undefined : ads.findOwned(id, member.accountId);
    if (!ad) return refuse(c, new Refusal(404, AD_NOT_FOUND));
    if (!member.emailVerified) return refuse(c, new Refusal(403, NOT_VERIFIED), values);
    // Before the fields: whatever was typed, the answer is to renew first.
    const today = utcDay(now());
    if (isExpired(ad, today)) return refuse(c, expiredRefusal(ad, today), values);
    const checked = checkAdEdit(submission.fields);
    if (!checked.ok) return refuse(c, problems(checked.problems), values);
    const scanned = scan({ state: ad.state, city: ad.city, ...checked.ad });
    if (scanned.refusal)
      return refuse(c, problems({ [scanned.refusal.field]: scanned.refusal.message }), values);
    const outcome = ads.edit(
      ad.id,
      member.accountId,
      checked.ad,
      JSON.stringify(scanned.marks),
      now(),
    );
    if (!outcome.ok)
      return outcome.refused === 'not-found'
        ? refuse(c, new Refusal(404, AD_NOT_FOUND))
        : outcome.refused === 'expired'
          ? refuse(c, expiredRefusal(ad, utcDay(now())), values)
          : refuse(
              c,
              new Refusal(409, 'A moderator removed this ad, so it can no longer be edited.'),
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

  app.post('/:id/delete', ...endpoint(accountPage), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const member = await c.var.member();
    if (!member) return refuse(c, new Refusal(401, NOT_SIGNED_IN));
    const id = adIdOf(c.req.param('id'));
    const onAds = aboutAd(c.req.param('id'));
    const outcome = id === undefined ? undefined : ads.delete(id, member.accountId, now());
    if (!outcome?.ok) return refuse(c, new Refusal(404, AD_NOT_FOUND), onAds);
    if (outcome.wasLive) publishSoon(options.publisher, `deleted ad ${outcome.ad.id}`);
    return submission.kind === 'form'
      ? c.redirect(`${accountPath()}?done=deleted`, 303)
      : c.json({ id: outcome.ad.id, status: 'deleted' }, 200);
  });

  app.post('/:id/renew', ...endpoint(accountPage), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const member = await c.var.member();
    if (!member) return refuse(c, new Refusal(401, NOT_SIGNED_IN));
    const id = adIdOf(c.req.param('id'));
    const onAds = aboutAd(c.req.param('id'));
    const before = id === undefined ? undefined : ads.findOwned(id, member.accountId);
    if (!before) return refuse(c, new Refusal(404, AD_NOT_FOUND), onAds);
    const outcome = ads.renew(before.id, member.accountId, now());
    if (!outcome.ok)
      return refuse(
        c,
        outcome.refused === 'not-found'
          ? new Refusal(404, AD_NOT_FOUND)
          : new Refusal(409, notRenewable(before, utcDay(now()))),
        onAds,
      );
    publishSoon(options.publisher, `renewed ad ${outcome.ad.id}`);
    // Renewed from the edit page of the expired ad: back there, where the form now is.
    const back = submission.fields.then === 'edit' ? editAdPath(outcome.ad.id) : accountPath();
    return submission.kind === 'form'
      ? c.redirect(`${back}?done=renewed`, 303)
      : c.json({ id: outcome.ad.id, expiresOn: outcome.ad.expiresOn }, 200);
  });

  app.on(['GET', 'PUT', 'PATCH', 'DELETE'], ['/', '/:id/edit', '/:id/delete', '/:id/renew'], (c) =>
    c.json({ error: 'Use POST for this endpoint.' }, 405),
  );

  return app;
}

/** Several fields refused at once: each message beside its field (`form`: about the whole form). */
function problems(found: AdFormProblems): Refusal {
  const [field, message] = Object.entries(found)[0] ?? ['form', FIX_FIELDS];
  return new Refusal(
    400,
    message!,
    field === 'form' ? undefined : field,
    undefined,
    found as Record<string, string>,
  );
}

/** The form of one of the account page's ads: its refusal is shown beside the ads. */
const aboutAd = (param: string) => ({ adId: param.slice(0, 20) });

/** A member ad id from the URL: digits only, and a safe integer. */
function adIdOf(param: string): number | undefined {
  if (!/^\d{1,15}$/.test(param)) return undefined;
  return Number(param);
}

/** An expired ad's edit, refused: renew it first (or post it again, past the renewal window). */
const expiredRefusal = (ad: MemberAdRow, today: string) =>
  new Refusal(
    409,
    renewBeforeEditing({ expiresOn: ad.expiresOn ?? undefined, renewable: canRenew(ad, today) }),
  );

/** Why Renew does not apply to this ad today. */
function notRenewable(ad: MemberAdRow, today: string): string {
  if (ad.status !== 'live' || !ad.expiresOn)
    return 'Only a live ad, or one that expired in the last 30 days, can be renewed.';
  if (ad.expiresOn > today)
    return `This ad can be renewed from ${addDays(ad.expiresOn, -RENEW_BEFORE_DAYS)}, ${RENEW_BEFORE_DAYS} days before it expires.`;
  return `This ad expired more than ${RENEW_AFTER_DAYS} days ago and can no longer be renewed. Post it again as a new ad; it stays live for ${AD_LIVE_DAYS} days once approved.`;
}
