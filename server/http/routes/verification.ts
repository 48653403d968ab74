// Verified members (docs/product.md section 6, "Verified members"), as endpoints that take a plain
// form post (the pages work without JavaScript) or JSON:
//
//   POST /api/verification/challenge          a code and a pose to answer (or the open one)
//   POST /api/verification/selfie             multipart: `selfie`, the photo showing the code
//   GET  /api/verification/{id}/selfie        its bytes: to its member and moderators (no-store)
//   POST /api/verification/withdraw           the member's verification withdrawn
//   POST /api/moderate/verifications/{id}/approve  {check-{item}, photo-{id}}  moderators only
//   POST /api/moderate/verifications/{id}/refuse   {reason, note?}      moderators only
//
// The work is server/verification/'s; here the posts are read and answered.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  apiRoutes,
  moderateVerificationsPath,
  routes,
  verificationPath,
} from '../../../core/paths.ts';
import { MAX_PHOTO_BYTES } from '../../../core/schemas/photos.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import { readBody, type FormBody, type FormEndpoint } from '../forms/form-endpoint.ts';
import { isFormSubmission, mediaTypeOf } from '../forms/submission.ts';
import { noSuchEndpoint, usePost } from '../forms/unknown-endpoint.ts';
import { routeId } from '../route-id.ts';
import type { AppPhotos } from '../../photos/app-photos.ts';
import { readUpload, type UploadedFile } from '../../photos/read-upload.ts';
import type { Publisher } from '../../publishing/publisher.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { MailSite } from '../../mail/messages.ts';
import { Refusal } from '../../../core/refusal.ts';
import type { Store } from '../../../store/store.ts';
import { askForChallenge } from '../../verification/challenge.ts';
import {
  approveVerification,
  refusalSchema,
  refuseVerification,
  verificationNotFound,
  withdrawVerification,
} from '../../verification/decisions.ts';
import { SELFIE_FIELD, sendSelfie } from '../../verification/selfie.ts';
import { selfieFor } from '../../verification/selfie-access.ts';

export interface VerificationRouteOptions {
  store: Store;
  form: FormEndpoint;
  photos: AppPhotos;
  publisher?: Publisher;
  mailer: Mailer;
  mailSite: () => MailSite;
  /** The clock (createApp's). */
  now: () => Date;
}

/** One selfie and the form's few fields. */
const SELFIE_MAX_BODY_BYTES = MAX_PHOTO_BYTES + 64 * 1024;

const TOO_LARGE = `The selfie is too large: at most ${MAX_PHOTO_BYTES / 1024 / 1024} MB.`;

export function verificationRoutes(options: VerificationRouteOptions) {
  const { store, form, photos, mailer, mailSite, now } = options;
  const deps = {
    store,
    photos,
    publisher: options.publisher,
    mailer,
    mailSite,
    now,
  };
  const app = new Hono<AppEnv>();
  const onPage = { page: { route: routes.verification }, for: 'members' } as const;
  const onQueue = { page: { route: routes.moderateVerifications }, for: 'moderators' } as const;
  const done = (what: string) => `${verificationPath()}?done=${what}`;

  app.post(
    apiRoutes.verificationChallenge,
    ...form.action(onPage, async ({ member }) => {
      await askForChallenge(store, member.accountId, now());
      return { redirect: done('challenge') };
    }),
  );

  app.post(
    apiRoutes.verificationSelfie,
    ...form.action(
      {
        ...onPage,
        limit: bodyLimit({
          maxSize: SELFIE_MAX_BODY_BYTES,
          onError: () => {
            throw new Refusal('too-large', TOO_LARGE, { field: SELFIE_FIELD });
          },
        }),
        read: readSelfiePost,
      },
      async ({ member, body }) => {
        const id = await sendSelfie(store, photos, member.accountId, body.selfie, now());
        return { redirect: done('sent'), json: { id, redirectUrl: done('sent') }, status: 201 };
      },
    ),
  );

  app.get(apiRoutes.selfie, async (c) => {
    const { id } = routeId(c, noSuchEndpoint);
    const bytes = await selfieFor(store, photos, await c.var.member(), id, now());
    if (!bytes) throw noSuchEndpoint();
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': 'image/webp',
      'Content-Length': String(bytes.length),
      'X-Content-Type-Options': 'nosniff',
    });
  });

  app.post(
    apiRoutes.verificationWithdraw,
    ...form.action(onPage, async ({ member }) => {
      await withdrawVerification(deps, member);
      return { redirect: done('withdrawn') };
    }),
  );

  app.post(
    apiRoutes.approveVerification,
    ...form.action(onQueue, async ({ c, member, fields }) => {
      await approveVerification(deps, member, routeId(c, verificationNotFound).id, fields);
      return { redirect: `${moderateVerificationsPath()}?done=approved` };
    }),
  );

  app.post(
    apiRoutes.refuseVerification,
    ...form.action(
      { ...onQueue, schema: refusalSchema, keep: keepDecision },
      async ({ c, member, input }) => {
        await refuseVerification(deps, member, routeId(c, verificationNotFound).id, input);
        return { redirect: `${moderateVerificationsPath()}?done=refused` };
      },
    ),
  );

  app.on(
    ['PUT', 'PATCH', 'DELETE'],
    [apiRoutes.verificationChallenge, apiRoutes.verificationSelfie, apiRoutes.verificationWithdraw],
    usePost,
  );
  return app;
}

/** The refusal's verification and note come back on the queue beside it. */
const keepDecision = (fields: FormBody['fields'], c: AppContext) => ({
  verificationId: (c.req.param('id') ?? '').slice(0, 20),
  note: typeof fields.note === 'string' ? fields.note.slice(0, 500) : '',
});

/** A selfie post as read: multipart streamed to a temporary file; anything else has no selfie. */
type SelfieBody = FormBody & { selfie?: UploadedFile };

async function readSelfiePost(c: AppContext): Promise<SelfieBody> {
  if (mediaTypeOf(c) !== 'multipart/form-data') return readBody(c);
  const upload = await readUpload(c.req.raw, { maxFiles: 1, maxFileBytes: MAX_PHOTO_BYTES });
  return {
    kind: isFormSubmission(c) ? 'form' : 'json',
    fields: upload.fields,
    selfie: upload.files.find((file) => file.field === SELFIE_FIELD && !file.tooMany),
    dispose: upload.dispose,
  };
}
