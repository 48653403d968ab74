// Verified members (docs/product.md section 6, "Verified members"), in-process on a real database
// (SQLite, and PostgreSQL in its suite) with the real photo workers: a member asks for a challenge
// and sends a selfie as plain form posts; the selfie answers its member and moderators only
// (no-store; every moderator view logged), 404 to anyone else; the same picture re-encoded, or
// an ad photo, is refused at upload; a moderator approves with the checklist, ticking one photo
// (Photos verified), and the selfie's bytes are gone; a refusal has its statement of reasons, an
// appeal decided by another moderator reverses it; a refused selfie goes 30 days later unless an
// appeal is open, and at once with the account; a member withdraws; Download my data says what is
// kept; each decision is mailed to its member; and "only verified members" (saved with "Who may
// reach me") refuses an unverified sender's first message with words, storing nothing, while a
// verified sender's arrives.
import sharp from 'sharp';
import { beforeAll, describe, expect, test } from 'vitest';
import { deleteAccount } from '../../../server/accounts/delete-account.ts';
import type { AppPhotos } from '../../../server/photos/app-photos.ts';
import { sweepPhotos } from '../../../server/photos/sweeps.ts';
import { CHECKLIST_INCOMPLETE } from '../../../server/verification/decisions.ts';
import { SELFIE_SEEN_BEFORE } from '../../../server/verification/selfie.ts';
import { CODE_ALPHABET, CODE_LENGTH, POSES } from '../../../core/schemas/verification.ts';
import {
  accountPath,
  approveVerificationApiPath,
  moderateVerificationsPath,
  refuseVerificationApiPath,
  verificationPath,
} from '../../../core/paths.ts';
import { cookieHeader, ORIGIN } from '../../helpers/api.ts';
import { mailsOf } from '../../helpers/mail.ts';
import { textOf } from '../../helpers/html-text.ts';
import { insertLiveAd, startConversation, storedMessages } from '../../helpers/messages.ts';
import {
  appPhotosOf,
  keptPhotoId,
  putPhotosOnAd,
  testPhotoPool,
} from '../../helpers/moderation-photos.ts';
import { getPage, logRows, signUpModerator, type TestMember } from '../../helpers/moderation.ts';
import { testAppOnFixtureContent } from '../../helpers/pages.ts';
import { smallJpeg } from '../../helpers/photo-fixtures.ts';
import { makeMember, submit } from '../../helpers/posting.ts';
import { storedRow, storedRows } from '../../helpers/stored-rows.ts';

const pool = testPhotoPool();
const t = testAppOnFixtureContent({ photoProcessing: pool });
let photos: AppPhotos;
let moderator: TestMember;
let otherModerator: TestMember;
beforeAll(async () => {
  photos = appPhotosOf(t.store, pool);
  moderator = await signUpModerator(t.app, t.store);
  otherModerator = await signUpModerator(t.app, t.store);
});

/** A selfie: a picture of its own for each seed (the fixtures' scenes). */
const selfie = (seed: number) => smallJpeg(900 + seed, 600, 800);

/** The selfie form posted as a browser without JavaScript sends it (multipart). */
function sendSelfie(member: TestMember, bytes: Buffer, name = 'IMG_0001.jpg') {
  const body = new FormData();
  body.append('selfie', new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' }));
  return Promise.resolve(
    t.app.request(`${ORIGIN}/api/verification/selfie`, {
      method: 'POST',
      headers: { origin: ORIGIN, accept: 'text/html', ...cookieHeader(member.session) },
      body,
    }),
  );
}

/** The checklist, every item ticked, as the approval form posts it. */
const ALL_CHECKS = {
  'check-code': 'on',
  'check-pose': 'on',
  'check-one-person': 'on',
  'check-not-a-screen': 'on',
};

const askForCode = (member: TestMember) =>
  submit(t, '/api/verification/challenge', {}, member.session);

const verificationOf = (accountId: number) =>
  storedRow<{
    id: number;
    status: string;
    code: string | null;
    code_hash: string;
    pose: string;
    created_at: string;
    expires_at: string;
    selfie_key: string | null;
    selfie_phash: string | null;
    level: string | null;
    photo_ids: string;
    statement_id: number | null;
  }>(t, 'SELECT * FROM verifications WHERE account_id = ? ORDER BY id DESC', accountId);

const blobCount = async (key: string) =>
  Number(
    (await storedRow<{ n: number }>(t, 'SELECT count(*) AS n FROM photo_blobs WHERE key = ?', key))!
      .n,
  );

const selfieAs = (id: number, session?: string) =>
  t.app.request(`${ORIGIN}/api/verification/${id}/selfie`, {
    headers: session ? cookieHeader(session) : {},
  });

/** A member with a selfie in review: challenge asked, selfie sent; the verification's row. */
async function memberInReview(seed: number) {
  const member = await makeMember(t);
  expect((await askForCode(member)).status).toBe(303);
  expect((await sendSelfie(member, await selfie(seed))).status).toBe(303);
  return { member, row: (await verificationOf(member.accountId))! };
}

describe('the challenge and the selfie, without JavaScript', () => {
  test('a member asks for a code and a pose; asking again shows the same one', async () => {
    const member = await makeMember(t);
    const asked = await askForCode(member);
    expect(asked.status).toBe(303);
    expect(asked.headers.get('location')).toBe('/account/verification?done=challenge');
    const row = (await verificationOf(member.accountId))!;
    expect(row.status).toBe('open');
    expect(row.code).toMatch(new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`));
    expect(Object.keys(POSES)).toContain(row.pose);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(24 * 60 * 60 * 1000);

    const page = textOf(
      await (await getPage(t.app, '/account/verification?done=challenge', member.session)).text(),
    );
    expect(page).toContain(row.code!);
    expect(page).toContain(POSES[row.pose as keyof typeof POSES]);
    expect(page).toContain('Here is your code and pose');

    expect((await askForCode(member)).status).toBe(303);
    const rows = await storedRows(
      t,
      'SELECT id FROM verifications WHERE account_id = ?',
      member.accountId,
    );
    expect(rows).toHaveLength(1);
  });

  test('the upload form is a plain file input for the front camera', async () => {
    const member = await makeMember(t);
    await askForCode(member);
    const html = await (await getPage(t.app, verificationPath(), member.session)).text();
    expect(html).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);
    expect(html).toMatch(/<input[^>]*type="file"[^>]*accept="image\/\*"[^>]*capture="user"/);
  });

  test('the selfie is kept privately: its member and moderators see it (no-store), others get 404', async () => {
    const { member, row } = await memberInReview(1);
    expect(row.status).toBe('submitted');
    expect(row.selfie_key).not.toBeNull();
    expect(await blobCount(row.selfie_key!)).toBe(1);
    const waiting = textOf(await (await getPage(t.app, verificationPath(), member.session)).text());
    expect(waiting).toContain('Your selfie is waiting for a moderator');
    expect(waiting).toContain('We mail you when a moderator has decided.');

    const own = await selfieAs(row.id, member.session);
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('no-store');
    const bytes = Buffer.from(await own.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('webp');
    // Upright as sent (portrait), and no metadata kept.
    expect(meta.height).toBeGreaterThan(meta.width!);
    expect(meta.exif).toBeUndefined();

    const stranger = await makeMember(t);
    expect((await selfieAs(row.id, stranger.session)).status).toBe(404);
    expect((await selfieAs(row.id)).status).toBe(404);
    expect((await selfieAs(999_999_999, member.session)).status).toBe(404);

    const before = (await logRows(t.sql)).filter((log) => log.action === 'view-selfie').length;
    const seen = await selfieAs(row.id, moderator.session);
    expect(seen.status).toBe(200);
    expect(seen.headers.get('cache-control')).toBe('no-store');
    const views = (await logRows(t.sql)).filter((log) => log.action === 'view-selfie');
    expect(views).toHaveLength(before + 1);
    expect(views.at(-1)).toMatchObject({ account_email: member.email });
  });

  test('the same picture re-encoded is refused at upload, with a clear message', async () => {
    const first = await memberInReview(2);
    const reused = await sharp(await selfie(2))
      .png()
      .toBuffer();
    const again = await makeMember(t);
    await askForCode(again);
    const response = await sendSelfie(again, reused, 'copy.png');
    expect(response.status).toBe(400);
    expect(textOf(await response.text())).toContain(SELFIE_SEEN_BEFORE);
    expect((await verificationOf(again.accountId))!.status).toBe('open');
    expect(first.row.status).toBe('submitted');
  });

  test('a photo already on an ad is refused as a selfie', async () => {
    const member = await makeMember(t);
    const photoId = await keptPhotoId(t.store, photos, member.accountId, await selfie(3));
    const adId = await insertLiveAd(t, member);
    await putPhotosOnAd(t, adId, member.accountId, [photoId]);
    await askForCode(member);
    const response = await sendSelfie(member, await selfie(3));
    expect(response.status).toBe(400);
    expect(textOf(await response.text())).toContain(SELFIE_SEEN_BEFORE);
  });

  test('a selfie without an open code, or past three tries, is refused', async () => {
    const member = await makeMember(t);
    const none = await sendSelfie(member, await selfie(4));
    expect(none.status).toBe(409);
    expect(textOf(await none.text())).toContain('ask for a code first');
    await askForCode(member);
    const notAPhoto = Buffer.from('not a photo at all');
    for (let i = 0; i < 3; i += 1) expect((await sendSelfie(member, notAPhoto)).status).toBe(400);
    const fourth = await sendSelfie(member, await selfie(4));
    expect(fourth.status).toBe(409);
    expect(textOf(await fourth.text())).toContain('Ask for a new code');
  });
});

describe('the moderators’ review', () => {
  test('approving needs the whole checklist; then Photos verified on the ticked photo, selfie gone', async () => {
    const member = await makeMember(t);
    const adId = await insertLiveAd(t, member);
    const ticked = await keptPhotoId(t.store, photos, member.accountId, await smallJpeg(950));
    const other = await keptPhotoId(t.store, photos, member.accountId, await smallJpeg(951));
    await putPhotosOnAd(t, adId, member.accountId, [ticked, other]);
    await askForCode(member);
    expect((await sendSelfie(member, await selfie(5))).status).toBe(303);
    const row = (await verificationOf(member.accountId))!;

    const queue = textOf(
      await (await getPage(t.app, moderateVerificationsPath(), moderator.session)).text(),
    );
    expect(queue).toContain(`Verification ${row.id}: ${member.email}`);
    expect(queue).toContain(`Expected code: ${row.code}`);
    expect(queue).toContain(POSES[row.pose as keyof typeof POSES]);
    expect(queue).toContain(`Same person: photo ${ticked}`);
    // To anyone else, the queue is not there.
    expect((await getPage(t.app, moderateVerificationsPath(), member.session)).status).toBe(404);

    const path = approveVerificationApiPath(row.id);
    const partial = await submit(
      t,
      path,
      { 'check-code': 'on', [`photo-${ticked}`]: 'on' },
      moderator.session,
    );
    expect(partial.status).toBe(400);
    expect(textOf(await partial.text())).toContain(CHECKLIST_INCOMPLETE);

    const approved = await submit(
      t,
      path,
      { ...ALL_CHECKS, [`photo-${ticked}`]: 'on' },
      moderator.session,
    );
    expect(approved.status).toBe(303);
    const after = (await verificationOf(member.accountId))!;
    expect(after).toMatchObject({
      status: 'approved',
      level: 'photos',
      code: null,
      selfie_key: null,
    });
    expect(JSON.parse(after.photo_ids)).toEqual([ticked]);
    expect(after.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(after.selfie_phash).toMatch(/^[0-9a-f]{16}$/);
    expect(await blobCount(row.selfie_key!)).toBe(0);
    expect((await selfieAs(row.id, member.session)).status).toBe(404);
    expect((await selfieAs(row.id, moderator.session)).status).toBe(404);
    // A second decision finds it decided.
    expect(
      (await submit(t, refuseVerificationApiPath(row.id), { reason: 'code' }, moderator.session))
        .status,
    ).toBe(409);

    const account = textOf(await (await getPage(t.app, accountPath(), member.session)).text());
    expect(account).toContain('You are verified: Photos verified');
    // The member is mailed the decision, the level and what it covers; no moderator is named.
    const [mail, ...more] = await mailsOf(t, member.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('You are verified: Photos verified');
    expect(mail!.text).toContain('“Photos verified” on 1 photo of your ads');
    expect(mail!.text).toContain('A photo you add or replace later is not covered');
    expect(mail!.text).toContain(verificationPath());
    expect(mail!.text).not.toContain(moderator.email);

    const data = await (
      await t.app.request(`${ORIGIN}/api/account/data`, { headers: cookieHeader(member.session) })
    ).json();
    expect(data.verifications).toEqual([
      expect.objectContaining({
        status: 'approved',
        level: 'Photos verified',
        photoIds: [ticked],
        codeHash: after.code_hash,
        selfiePerceptualHash: after.selfie_phash,
        selfieKept: false,
      }),
    ]);
  });

  test('a refusal has its statement; another moderator reverses it on appeal', async () => {
    const { member, row } = await memberInReview(6);
    const refused = await submit(
      t,
      refuseVerificationApiPath(row.id),
      { reason: 'pose', note: 'Please look up and to your left.' },
      moderator.session,
    );
    expect(refused.status).toBe(303);
    const after = (await verificationOf(member.accountId))!;
    expect(after.status).toBe('refused');
    expect(after.selfie_key).not.toBeNull();
    const page = textOf(await (await getPage(t.app, verificationPath(), member.session)).text());
    expect(page).toContain('The pose or expression is not the one we asked for.');
    // Not a restriction the transparency report counts among its decisions.
    const tallies = await t.store.publishedAds.snapshot((snapshot) => snapshot.transparency());
    expect(tallies.decisions.filter((row) => row.kind === 'verification-refused')).toEqual([]);
    const decision = textOf(
      await (
        await getPage(t.app, `/account/decisions/${after.statement_id}`, member.session)
      ).text(),
    );
    expect(decision).toContain('Your verification selfie was not approved.');
    expect(decision).toContain('Please look up and to your left.');
    // The member is mailed the statement: the reason, the note, and how to appeal.
    const [mail, ...more] = await mailsOf(t, member.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Your verification was not approved');
    expect(mail!.text).toContain('The pose or expression is not the one we asked for.');
    expect(mail!.text).toContain('Please look up and to your left.');
    expect(mail!.text).toMatch(/appeal/i);
    expect(mail!.text).toContain(`/account/decisions/${after.statement_id}?key=`);
    expect(mail!.text).not.toContain(moderator.email);

    const appealed = await submit(
      t,
      `/api/decisions/${after.statement_id}/appeal`,
      { text: 'I did look up to my left, the photo is mirrored.' },
      member.session,
    );
    expect(appealed.status).toBe(303);
    // The moderator who refused cannot decide the appeal.
    const appealId = (await storedRow<{ id: number }>(
      t,
      'SELECT id FROM appeals WHERE statement_id = ?',
      after.statement_id,
    ))!.id;
    const own = await submit(
      t,
      `/api/moderate/appeals/${appealId}/decide`,
      { outcome: 'reversed' },
      moderator.session,
    );
    expect(own.status).toBe(403);
    const reversed = await submit(
      t,
      `/api/moderate/appeals/${appealId}/decide`,
      { outcome: 'reversed' },
      otherModerator.session,
    );
    expect(reversed.status).toBe(303);
    expect((await verificationOf(member.accountId))!).toMatchObject({
      status: 'approved',
      level: 'person',
    });
    // The appeal's outcome says what the reversal did: the member is verified, no ad is back.
    const outcome = (await mailsOf(t, member.email)).at(-1)!;
    expect(outcome.subject).toBe('Your appeal succeeded');
    expect(outcome.text).toContain('You are verified: “Real person”.');
    expect(outcome.text).not.toContain('An ad that was removed');
  });
});

describe('what is kept, and for how long', () => {
  test('a refused selfie goes 30 days later, unless its appeal is open', async () => {
    const plain = await memberInReview(7);
    const appealing = await memberInReview(8);
    for (const { row } of [plain, appealing])
      expect(
        (
          await submit(
            t,
            refuseVerificationApiPath(row.id),
            { reason: 'screen' },
            moderator.session,
          )
        ).status,
      ).toBe(303);
    const statement = (await verificationOf(appealing.member.accountId))!.statement_id;
    await submit(
      t,
      `/api/decisions/${statement}/appeal`,
      { text: 'It was no screen.' },
      appealing.member.session,
    );

    const day = 24 * 60 * 60 * 1000;
    await sweepPhotos(t.store, photos.storage, new Date(Date.now() + 29 * day));
    expect(await blobCount(plain.row.selfie_key!)).toBe(1);
    const sweep = await sweepPhotos(t.store, photos.storage, new Date(Date.now() + 31 * day));
    expect(sweep.selfies).toBeGreaterThanOrEqual(1);
    expect(await blobCount(plain.row.selfie_key!)).toBe(0);
    expect((await verificationOf(plain.member.accountId))!.selfie_key).toBeNull();
    expect(await blobCount(appealing.row.selfie_key!)).toBe(1);
  });

  test('deleting the account deletes its selfie at once', async () => {
    const { member, row } = await memberInReview(9);
    expect(await blobCount(row.selfie_key!)).toBe(1);
    expect((await deleteAccount(t.store, member.accountId, new Date(), photos.storage)).kind).toBe(
      'deleted',
    );
    expect(await blobCount(row.selfie_key!)).toBe(0);
    expect(
      await storedRows(t, 'SELECT id FROM verifications WHERE account_id = ?', member.accountId),
    ).toEqual([]);
  });

  test('a member withdraws their verification', async () => {
    const { member, row } = await memberInReview(10);
    const approved = await submit(
      t,
      approveVerificationApiPath(row.id),
      ALL_CHECKS,
      moderator.session,
    );
    expect(approved.status).toBe(303);
    expect((await verificationOf(member.accountId))!.level).toBe('person');
    const withdrawn = await submit(t, '/api/verification/withdraw', {}, member.session);
    expect(withdrawn.status).toBe(303);
    expect((await verificationOf(member.accountId))!.status).toBe('withdrawn');
    const again = await submit(t, '/api/verification/withdraw', {}, member.session);
    expect(again.status).toBe(409);
  });
});

describe('only verified members can start a conversation with me', () => {
  test('an unverified sender is told why and nothing is stored; a verified sender’s arrives', async () => {
    const poster = await makeMember(t);
    const adId = await insertLiveAd(t, poster, 'Museum mornings and long lunches');
    // "Who may reach me" saves it with the member's other settings, which stay as typed.
    const saved = await submit(
      t,
      '/api/account/reach',
      { reachForm: '1', verifiedOnly: 'on', hiddenWords: 'crypto' },
      poster.session,
    );
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/account?done=reach-saved#who-may-reach-me');
    expect(await t.store.reachSettings.of(poster.accountId)).toMatchObject({
      hiddenWords: ['crypto'],
    });
    expect(await t.store.verifications.verifiedFirstOnly(poster.accountId)).toBe(true);
    const data = await (
      await t.app.request(`${ORIGIN}/api/account/data`, { headers: cookieHeader(poster.session) })
    ).json();
    expect(data.whoMayReachMe).toMatchObject({ onlyVerifiedMembersMayWriteFirst: true });

    const stranger = await makeMember(t);
    const before = (await storedMessages(t)).length;
    const refused = await startConversation(t, stranger, adId, 'Hello! I love museums too.');
    expect(refused.status).toBe(403);
    const text = textOf(await refused.text());
    expect(text).toContain('accepts first messages only from verified members');
    expect(text).toContain('get verified');
    expect((await storedMessages(t)).length).toBe(before);
    const json = await startConversation(t, stranger, adId, 'Hello! I love museums too.', 'json');
    expect(json.status).toBe(403);
    expect((await json.json()).error).toContain(
      'accepts first messages only from verified members',
    );

    const { member: verified, row } = await memberInReview(11);
    await submit(t, approveVerificationApiPath(row.id), ALL_CHECKS, moderator.session);
    const sent = await startConversation(
      t,
      verified,
      adId,
      'Hello! Which museum do you like best?',
    );
    expect(sent.status).toBe(303);
    expect((await storedMessages(t)).length).toBe(before + 1);

    // Unticked, the setting is off again.
    await submit(t, '/api/account/reach', { reachForm: '1' }, poster.session);
    expect(
      (await startConversation(t, stranger, adId, 'Hello again, a museum fan here.')).status,
    ).toBe(303);
  });
});
