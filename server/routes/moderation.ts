// Moderation (docs/product.md section 6), for moderators only: the actions, as API endpoints that
// take JSON or a plain form post (the queue and the log are read beside their pages:
// src/pages/moderate/server-read.ts, src/pages/moderation-log/server-read.ts):
//
//   POST /api/moderate/ads/{id}/approve   {revision}                 an ad in review, or an edit
//   POST /api/moderate/ads/{id}/reject    {revision, reason, note?}  the same, refused
//   POST /api/moderate/ads/{id}/remove    {revision, reason, note?}  a live ad off the site
//   POST /api/moderate/accounts/{id}/ban  {reason, note?}            the account and all its ads
//   POST /api/moderate/photos/{id}/remove {reason, note?}            one photo of an ad
//
// To anyone but a moderator every one of them is an unknown API path (404, the API's own answer),
// like the pages, which are the site's not-found screen to them. `revision` is the ad's revision
// as the queue showed it: an ad that changed since, or that another moderator handled first, is
// left alone and the moderator is told (409). A form post answers with a redirect to the queue and
// a notice; a refused one with the queue page and the message.
import { Hono, type MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import {
  approveAdSchema,
  banAccountSchema,
  rejectAdSchema,
  type RejectAdInput,
} from '../../src/schemas/moderation.ts';
import { MODERATION_REASONS } from '../../src/schemas/moderation-reasons.ts';
import { firstProblem } from '../../src/schemas/signup.ts';
import { moderatePath, routes } from '../../src/paths.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import { adApprovedMail, adRejectedMail, adRemovedMail } from '../mail/moderation-messages.ts';
import { banAccount, banRefusal, noSuchAccount } from '../moderation/accounts.ts';
import {
  adConflictRefusal,
  approveAd,
  noSuchAd,
  rejectAd,
  removeAd,
  type AdConflict,
  type Moderator,
} from '../moderation/ads.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { Refusal } from '../refusal.ts';
import { type AnswerRefusal } from '../forms/refusal.ts';
import { readSubmission, textOf, type Submission } from '../forms/submission.ts';
import { unknownEndpoint } from '../forms/unknown-endpoint.ts';
import type { Store } from '../store/store.ts';
import type { AppPhotos } from '../photos/app-photos.ts';
import {
  noSuchPhoto,
  photoRemovalRefusal,
  reasonLabelOf,
  removePhoto,
} from '../moderation/photos.ts';
import { photoRemovedMail } from '../mail/moderation-messages.ts';

export interface ModerationOptions {
  store: Store;
  mailer: Mailer;
  mailSite: () => MailSite;
  /** Asked to publish when the site changes (approve, remove, a ban that removed live ads). */
  publisher?: Publisher;
  refuse: AnswerRefusal;
  form: FormEndpoint;
  /** Photo processing and storage (server/photos/). */
  photos?: AppPhotos;
}

const digits = (text: string | undefined) =>
  text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;

/**
 * Lets moderators through; anyone else gets the answer of an unknown API path, before anything
 * else (the origin check included) could tell the path apart from one.
 */
export const moderatorsOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const member = await c.var.member();
  if (member?.role !== 'moderator') return unknownEndpoint(c);
  await next();
};

/** The API: the actions. */
export function moderationRoutes(options: ModerationOptions) {
  const { store } = options;
  const app = new Hono<AppEnv>();
  // Every moderation form is on the queue page.
  app.use('/moderate/ads/*', moderatorsOnly, ...options.form({ route: routes.moderate }));
  app.use('/moderate/accounts/*', moderatorsOnly, ...options.form({ route: routes.moderate }));
  app.use('/moderate/photos/*', moderatorsOnly, ...options.form({ route: routes.moderate }));

  /** Deletes the bytes of photo sizes a decision deleted; a failure leaves orphans to sweep. */
  const deletePhotoBytes = async (keys: readonly string[]) => {
    if (keys.length === 0 || !options.photos) return;
    try {
      await options.photos.storage.delete(keys);
    } catch (error) {
      console.error(`Deleting photo bytes failed: ${(error as Error).message}`);
    }
  };

  /** The signed-in moderator (moderatorsOnly let only them through). */
  const moderatorOf = async (c: AppContext): Promise<Moderator> => {
    const member = (await c.var.member())!;
    return { accountId: member.accountId, email: member.email };
  };

  app.post('/moderate/ads/:id/approve', (c) =>
    adAction(c, approveAdSchema, async (adId, moderator, input) => {
      const result = await approveAd(store, moderator, adId, input.revision);
      if (result.kind !== 'done') return result;
      await deletePhotoBytes(result.unusedKeys);
      const { ad, edit } = result;
      options.mailer.send(
        adApprovedMail(options.mailSite(), ad.accountEmail, ad, ad.expiresOn ?? '', edit),
      );
      publishSoon(options.publisher, `${edit ? 'approved the edit of' : 'approved'} ad ${adId}`);
      return { done: edit ? 'approved-edit' : 'approved', json: { adId, status: 'live', edit } };
    }),
  );

  app.post('/moderate/ads/:id/reject', (c) =>
    adAction(c, rejectAdSchema, async (adId, moderator, input) => {
      const why = reasonOf(input);
      const result = await rejectAd(store, moderator, adId, input.revision, why);
      if (result.kind !== 'done') return result;
      await deletePhotoBytes(result.unusedKeys);
      const { ad, edit } = result;
      options.mailer.send(adRejectedMail(options.mailSite(), ad.accountEmail, ad, why, edit));
      return {
        done: edit ? 'rejected-edit' : 'rejected',
        json: { adId, status: edit ? 'live' : 'rejected', edit },
      };
    }),
  );

  app.post('/moderate/ads/:id/remove', (c) =>
    adAction(c, rejectAdSchema, async (adId, moderator, input) => {
      const why = reasonOf(input);
      const result = await removeAd(store, moderator, adId, input.revision, why);
      if (result.kind !== 'done') return result;
      await deletePhotoBytes(result.unusedKeys);
      options.mailer.send(
        adRemovedMail(options.mailSite(), result.ad.accountEmail, result.ad, why),
      );
      publishSoon(options.publisher, `removed ad ${adId}`);
      return { done: 'removed', json: { adId, status: 'removed' } };
    }),
  );

  app.post('/moderate/accounts/:id/ban', async (c) => {
    const moderator = await moderatorOf(c);
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return options.refuse(c, submission);
    const values = keptValues(submission, { ban: c.req.param('id') });
    try {
      const accountId = digits(c.req.param('id'));
      if (accountId === undefined) throw noSuchAccount(c.req.param('id'));
      const input = parse(banAccountSchema, submission);
      const result = await banAccount(store, moderator, accountId, reasonOf(input));
      if (result.kind !== 'done') throw banRefusal(result, c.req.param('id'));
      await deletePhotoBytes(result.unusedKeys);
      if (result.removedLive.length > 0)
        publishSoon(
          options.publisher,
          `banned account ${accountId}: removed ads ${result.removedLive.join(', ')}`,
        );
      const removedAds = [...result.removedLive, ...result.removedInReview].sort((a, b) => a - b);
      return submission.kind === 'form'
        ? c.redirect(
            `${moderatePath()}?done=banned&account=${accountId}&removed=${removedAds.length}`,
            303,
          )
        : c.json({ accountId, banned: true, removedAds }, 200);
    } catch (error) {
      if (error instanceof Refusal) return options.refuse(c, error, values);
      throw error;
    }
  });

  app.post('/moderate/photos/:id/remove', async (c) => {
    const moderator = await moderatorOf(c);
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return options.refuse(c, submission);
    const rawId = c.req.param('id');
    const values = keptValues(submission, { photoId: rawId });
    try {
      const photoId = digits(rawId);
      if (photoId === undefined) throw noSuchPhoto(rawId);
      const input = parse(removePhotoSchema, submission);
      const result = await removePhoto(store, moderator, photoId, input.reason, input.note);
      if (result.kind !== 'done') throw photoRemovalRefusal(result, rawId);
      await deletePhotoBytes(result.unusedKeys);
      const { ad } = result;
      if (ad) {
        options.mailer.send(
          photoRemovedMail(options.mailSite(), ad.accountEmail, ad, {
            reason: reasonLabelOf(input.reason),
            ...(input.note ? { note: input.note } : {}),
          }),
        );
        if (ad.status === 'live')
          publishSoon(options.publisher, `removed photo ${photoId} of ad ${ad.id}`);
      }
      const adId = ad?.id ?? null;
      return submission.kind === 'form'
        ? c.redirect(
            `${moderatePath()}?done=photo-removed&photo=${photoId}${adId ? `&ad=${adId}` : ''}${adId ? `#ad-${adId}` : ''}`,
            303,
          )
        : c.json({ photoId, adId, removed: true, reason: input.reason }, 200);
    } catch (error) {
      if (error instanceof Refusal) return options.refuse(c, error, values);
      throw error;
    }
  });

  return app;

  /** Reads, checks and runs one action on an ad; answers as a form post or as JSON. */
  async function adAction<Input>(
    c: AppContext,
    schema: z.ZodType<Input>,
    act: (
      adId: number,
      moderator: Moderator,
      input: Input,
    ) => Promise<{ done: string; json: Record<string, unknown> } | AdConflict>,
  ) {
    const moderator = await moderatorOf(c);
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return options.refuse(c, submission);
    const rawId = c.req.param('id') ?? '';
    const values = keptValues(submission, { adId: rawId });
    try {
      const adId = digits(rawId);
      if (adId === undefined) throw noSuchAd(rawId);
      const input = parse(schema, submission);
      const outcome = await act(adId, moderator, input);
      if ('kind' in outcome) throw adConflictRefusal(outcome, rawId);
      return submission.kind === 'form'
        ? c.redirect(`${moderatePath()}?done=${outcome.done}&ad=${adId}`, 303)
        : c.json(outcome.json, 200);
    } catch (error) {
      if (error instanceof Refusal) return options.refuse(c, error, values);
      throw error;
    }
  }
}

function parse<Input>(schema: z.ZodType<Input>, submission: Submission): Input {
  const parsed = schema.safeParse(submission.fields);
  if (parsed.success) return parsed.data;
  const problem = firstProblem(parsed.error);
  throw new Refusal('invalid', problem.message, { field: problem.field });
}

/** Removing a photo takes what a ban takes: a reason from the list, and a note. */
const removePhotoSchema = banAccountSchema;

const reasonOf = (input: Pick<RejectAdInput, 'reason' | 'note'>) => ({
  reason: MODERATION_REASONS[input.reason],
  ...(input.note ? { note: input.note } : {}),
});

/** What the queue puts back into the refused form: which ad or account, the reason and note. */
function keptValues(submission: Submission, target: Record<string, string>) {
  const text = (name: string) => textOf(submission.fields[name]);
  return { ...target, reason: text('reason'), note: text('note').slice(0, 2000) };
}
