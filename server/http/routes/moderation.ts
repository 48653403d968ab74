// Moderation (docs/product.md section 6), for moderators only: the actions, as API endpoints that
// take JSON or a plain form post (the queue and the log are read beside their pages:
// server/http/page-reads/moderate.ts, server/http/page-reads/moderation-log.ts):
//
//   POST /api/moderate/ads/{id}/approve   {revision}                 an ad in review, or an edit
//   POST /api/moderate/ads/{id}/reject    {revision, reason, note?}  the same, refused
//   POST /api/moderate/ads/{id}/remove    {revision, reason, note?}  a live ad off the site
//   POST /api/moderate/accounts/{id}/ban  {reason, note?}            the account and all its ads
//   POST /api/moderate/photos/{id}/remove {reason, note?}            one photo of an ad
//   POST /api/moderate/repeated-messages/{id}/dismiss                the announcement of the same
//                                                  first message from several new accounts goes
//   POST /api/moderate/photos/{id}/reveal                            "Show photo": a blurred photo,
//                                                  seen by this moderator from now on
//   POST /api/moderate/photo-settings     {blurAll}                  "Show all photos blurred"
//   POST /api/moderate/shield-decisions/{id}/mistaken  {before?}     a refusal or warning of the
//                                                  scam shield marked mistaken (/moderate/shield)
//
// To anyone but a moderator every one of them is an unknown API path (404, the API's own answer),
// like the pages, which are the site's not-found screen to them. `revision` is the ad's revision
// as the queue showed it: an ad that changed since, or that another moderator handled first, is
// left alone and the moderator is told (409). A form post answers with a redirect to the queue and
// a notice; a refused one with the queue page and the message.
import { Hono } from 'hono';
import type { z } from 'zod';
import {
  approveAdSchema,
  banAccountSchema,
  rejectAdSchema,
} from '../../../core/schemas/moderation.ts';
import {
  apiRoutes,
  moderatePath,
  moderateShieldPath,
  moderateVerificationsPath,
  routes,
} from '../../../core/paths.ts';
import { idOf } from '../../../core/ids.ts';
import type { AppContext, AppEnv, Member } from '../app-env.ts';
import { noSuchAccount } from '../../moderation/accounts.ts';
import {
  approveAdAction,
  banAccountAction,
  rejectAdAction,
  removeAdAction,
  removePhotoAction,
  type AdAction,
  type ModerationDeps,
} from '../../moderation/actions.ts';
import { noSuchAd } from '../../moderation/ads.ts';
import type { NamedId } from '../../../core/ids.ts';
import { routeId } from '../route-id.ts';
import { noSuchPhoto } from '../../moderation/photos.ts';
import { dismissRepeatedMessage, REPEATED_FLAG_GONE } from '../../moderation/scam-records.ts';
import { chooseBlurAll, revealPhoto } from '../../moderation/photo-shield.ts';
import { markShieldDecisionMistaken, NO_SUCH_DECISION } from '../../moderation/shield-review.ts';
import { Refusal } from '../../../core/refusal.ts';
import { type FormDone, type FormEndpoint } from '../forms/form-endpoint.ts';
import { parseFields } from '../../../core/refusal.ts';
import { textOf } from '../forms/submission.ts';

export interface ModerationOptions extends ModerationDeps {
  form: FormEndpoint;
}

export function moderationRoutes(options: ModerationOptions) {
  const { form } = options;
  const app = new Hono<AppEnv>();
  const onQueue = { page: { route: routes.moderate }, for: 'moderators' } as const;

  /**
   * A queue form about the row its route's id names (an ad, an account, a photo): the id is
   * checked first (`unknown` refuses one that names nothing), then the fields, then `act` runs.
   */
  const onNamed = <Input>(
    route: string,
    named: {
      keep: string;
      unknown: (raw: string | undefined) => Refusal;
      schema: z.ZodType<Input>;
    },
    act: (member: Member, id: NamedId, input: Input) => Promise<FormDone>,
  ) =>
    app.post(
      route,
      ...form.action({ ...onQueue, keep: kept(named.keep) }, async ({ c, member, fields }) =>
        act(member, routeId(c, named.unknown), parseFields(named.schema, fields)),
      ),
    );

  /** An ad of the queue approved, rejected or removed: the same shape, each its fields and action. */
  const adDecision = <Input>(route: string, schema: z.ZodType<Input>, action: AdAction<Input>) =>
    onNamed(route, { keep: 'adId', unknown: noSuchAd, schema }, async (member, ad, input) => {
      const { done, outcome } = await action(options, member, ad, input);
      return { redirect: queueAfter(done, { ad: ad.id }), json: outcome };
    });
  adDecision(apiRoutes.approveAd, approveAdSchema, approveAdAction);
  adDecision(apiRoutes.rejectAd, rejectAdSchema, rejectAdAction);
  adDecision(apiRoutes.removeAd, rejectAdSchema, removeAdAction);

  const banForm = { keep: 'ban', unknown: noSuchAccount, schema: banAccountSchema };
  onNamed(apiRoutes.banAccount, banForm, async (member, account, input) => {
    const banned = await banAccountAction(options, member, account, input);
    const removed = banned.removedAds.length;
    return { redirect: queueAfter('banned', { account: account.id, removed }), json: banned };
  });

  const photoForm = { keep: 'photoId', unknown: noSuchPhoto, schema: removePhotoSchema };
  onNamed(apiRoutes.removePhoto, photoForm, async (member, photo, input) => {
    const removed = await removePhotoAction(options, member, photo, input);
    return { redirect: queueAfterPhoto(photo.id, removed.adId), json: removed };
  });

  app.post(
    apiRoutes.dismissRepeatedMessage,
    ...form.action(onQueue, async ({ c, member }) => {
      const flag = routeId(c, noSuchFlag);
      await dismissRepeatedMessage(options.store, member.accountId, flag.id, options.now());
      return { redirect: queueAfter('repeated-dismissed', {}), json: { dismissed: flag.id } };
    }),
  );

  app.post(
    apiRoutes.revealPhoto,
    ...form.action(onQueue, async ({ c, member, fields }) => {
      const photo = routeId(c, noSuchPhoto);
      const revealed = await revealPhoto(options.store, member.accountId, photo, options.now());
      // Back to the page the photo was shown on: the verifications' review, or the ads' queue.
      const page = fields.from === 'verifications' ? moderateVerificationsPath() : moderatePath();
      return { redirect: `${page}#photo-${photo.id}`, json: revealed };
    }),
  );

  app.post(
    apiRoutes.photoSettings,
    ...form.action(onQueue, async ({ member, fields }) => {
      const blurAll = await chooseBlurAll(options.store, member.accountId, fields, options.now());
      return {
        redirect: queueAfter(blurAll ? 'blur-all-on' : 'blur-all-off', {}),
        json: { blurAll },
      };
    }),
  );

  const onShieldPage = { page: { route: routes.moderateShield }, for: 'moderators' } as const;
  app.post(
    apiRoutes.markShieldDecisionMistaken,
    ...form.action(onShieldPage, async ({ c, member, fields }) => {
      const decision = routeId(c, noSuchDecision);
      const at = options.now();
      await markShieldDecisionMistaken(options.store, member.accountId, decision.id, at);
      // Back to the page the decision was on, at it.
      const page = moderateShieldPath(idOf(fields.before));
      const done = `${page}${page.includes('?') ? '&' : '?'}done=marked#decision-${decision.id}`;
      return { redirect: done, json: { marked: decision.id } };
    }),
  );

  return app;
}

const noSuchFlag = () => new Refusal('not-found', REPEATED_FLAG_GONE);
const noSuchDecision = () => new Refusal('not-found', NO_SUCH_DECISION);

/** Removing a photo takes what a ban takes: a reason from the list, and a note. */
const removePhotoSchema = banAccountSchema;

/** The queue after an action: the notice it shows (`?done=…&ad=…`: noticeOf), and where. */
function queueAfter(done: string, about: Record<string, number>, anchor?: string) {
  const query = Object.entries({ done, ...about }).map(([name, value]) => `${name}=${value}`);
  return `${moderatePath()}?${query.join('&')}${anchor ? `#${anchor}` : ''}`;
}

/** The queue after a photo's removal: at its ad, when it was on one. */
const queueAfterPhoto = (photoId: number, adId: number | null) =>
  adId
    ? queueAfter('photo-removed', { photo: photoId, ad: adId }, `ad-${adId}`)
    : queueAfter('photo-removed', { photo: photoId });

/**
 * What the queue puts back into a refused form: which ad, account or photo (`target`, the id as
 * the path named it), the reason and the note.
 */
const kept =
  (target: string) =>
  (fields: Record<string, unknown>, c: AppContext): Record<string, string> => ({
    [target]: c.req.param('id') ?? '',
    reason: textOf(fields.reason),
    note: textOf(fields.note).slice(0, 2000),
  });
