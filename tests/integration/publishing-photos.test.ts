// Publishing members' photos (docs/product.md section 10): approved ads with photos, kept as the
// posting route keeps them (keepUploadedPhoto: processed in the pool, bytes in the photo storage),
// go through the real build (`npm run build`, reading the test's database read-only) into a
// temporary site: every size is a file of the site, the pages show them (srcset, sizes, width and
// height, alt), the server sends them cached for a year, and a photo no ad shows any more leaves
// at the next publish. A photo a moderator removes leaves the site at the next publish, and once an
// appeal reverses the removal its file is served again with the same bytes (issue 30). With both
// storages: the database (photo_blobs) and a folder (PHOTOS_DIR).
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/http/app.ts';
import { decideAppeal, fileAppeal } from '../../server/moderation/appeals.ts';
import { makeModerator } from '../../server/moderation/moderator-command.ts';
import { removePhoto } from '../../server/moderation/photos.ts';
import { keepUploadedPhoto } from '../../server/photos/keep-photo.ts';
import { openPhotoStorage, type PhotoStorage } from '../../store/photo-storage/photo-storage.ts';
import { createPhotoPool, type PhotoPool } from '../../server/photos/processing-pool.ts';
import { adPath, cityPath, outputFileForPath } from '../../core/paths.ts';
import { photoFilePath, type AdPhotoRef, type PhotoVariant } from '../../core/schemas/photos.ts';
import { makeContentFixture, writeFixtureFile } from '../helpers/content-fixture.ts';
import { testMailer } from '../helpers/mail.ts';
import { insertMemberAd, setMemberAdStatus } from '../helpers/member-ads.ts';
import { smallJpeg } from '../helpers/photo-fixtures.ts';
import { openTestStore, type TestStore } from '../helpers/test-store.ts';
import { buildSite, childBuildEnv, databaseArgs } from '../helpers/vite-output.ts';
import { accountInStore } from '../helpers/store-accounts.ts';
import { photoBytesLost } from '../helpers/stored-rows.ts';

const BUILD_DATE = '2026-11-22';
const EDITOR_AD = 9001;
let fixture: ReturnType<typeof makeContentFixture>;
let work: string;
let pool: PhotoPool;

/** A site built from one database, and its photo storage. */
interface Site {
  t: TestStore;
  storage: PhotoStorage;
  outDir: string;
  /** PHOTOS_DIR, when the photos are kept in a folder. */
  photosDir?: string;
}
let site: Site;

const siteFile = (s: Site, path: string) => join(s.outDir, 'site', path);
const page = (s: Site, path: string) => readFileSync(siteFile(s, outputFileForPath(path)), 'utf8');

/** `npm run build` of `s`, as the publisher runs it; its output (warnings included). */
function build(s: Site): string {
  const env = childBuildEnv();
  delete env.PHOTOS_DIR;
  delete env.DATABASE_URL;
  if (s.photosDir) env.PHOTOS_DIR = s.photosDir;
  const built = buildSite({
    date: BUILD_DATE,
    content: fixture.dir,
    out: s.outDir,
    cache: join(s.outDir, '..', 'cache'),
    database: databaseArgs(s.t.env),
    env,
  });
  return `${built.stdout}\n${built.stderr}`;
}

async function openSite(name: string, photosDir?: string): Promise<Site> {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const t = await openTestStore(dir);
  const storage = openPhotoStorage(t.store, photosDir ? { folder: photosDir } : {});
  return { t, storage, outDir: join(dir, 'out'), photosDir };
}

let uploads = 0;
/** A photo kept as the posting route keeps an upload; its sizes. */
async function keepPhoto(s: Site, accountId: number, bytes: Buffer) {
  const path = join(work, `upload-${(uploads += 1)}.jpg`);
  writeFileSync(path, bytes);
  const file = { field: 'photos', name: 'photo.jpg', path, size: bytes.length };
  const kept = await keepUploadedPhoto(
    s.t.store,
    { pool, storage: s.storage },
    accountId,
    { ...file, tooLarge: false, tooMany: false },
    new Date(),
  );
  rmSync(path);
  if (!kept.ok) throw new Error(kept.problem);
  return kept.id;
}

async function revisionOf(s: Site, id: number): Promise<number> {
  return (await s.t.store.memberAds.find(id))!.revision;
}

/** A live ad in San Jose with these photos (bytes and alt texts), as approved; its id and photos' ids. */
async function adWithPhotos(s: Site, title: string, photos: { bytes: Buffer; alt: string }[]) {
  const id = await insertMemberAd(s.t, { state: 'California', city: 'San Jose', title });
  const { accountId } = (await s.t.store.memberAds.find(id))!;
  const refs: AdPhotoRef[] = [];
  for (const photo of photos)
    refs.push({ id: await keepPhoto(s, accountId, photo.bytes), alt: photo.alt });
  await s.t.store.photos.attach(
    refs.map((ref) => ref.id),
    id,
    accountId,
  );
  expect(
    await s.t.store.memberAds.setPhotos(
      id,
      await revisionOf(s, id),
      refs,
      null,
      new Date().toISOString(),
    ),
  ).toBe(true);
  return { id, photoIds: refs.map((ref) => ref.id) };
}

async function variantsOf(s: Site, photoId: number): Promise<PhotoVariant[]> {
  return (await s.t.store.photos.find(photoId))!.variants;
}

/** The img tags of an HTML page, each as its attributes (names in lower case: React writes srcSet). */
function imgs(html: string): Record<string, string>[] {
  return [...html.matchAll(/<img\b([^>]*)>/g)].map((match) =>
    Object.fromEntries(
      [...match[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((attribute) => [
        attribute[1]!.toLowerCase(),
        attribute[2]!.replaceAll('&amp;', '&').replaceAll('&quot;', '"'),
      ]),
    ),
  );
}

const srcsetOf = (variants: PhotoVariant[]) =>
  variants.map((variant) => `${photoFilePath(variant.key)} ${variant.width}w`).join(', ');

beforeAll(async () => {
  fixture = makeContentFixture();
  // An editor's ad with CSV images: shown as before, beside members' photos.
  writeFixtureFile(
    fixture.dir,
    'ads/editor-images.csv',
    'id,state,city,age,seeks,title,description,images,featured,postedAt,expiresAt,sample\n' +
      `${EDITOR_AD},Nevada,Las Vegas,33,w4m,Sunset hikes and tacos,A plain sample ad.,/ads/9001-1.webp|/ads/9001-2.jpg,false,2026-11-01,2027-05-01,true\n`,
  );
  work = mkdtempSync(join(tmpdir(), 'localboard-publishing-photos-'));
  pool = createPhotoPool({ processes: 1 });
  site = await openSite('database');
  // The site as `npm run build` makes it (Vite's output and the build's steps included).
  build(site);
}, 300_000);

afterAll(async () => {
  await pool?.close();
  await site?.t.store.close();
  fixture?.cleanup();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('publishing photos (photos kept in the database)', () => {
  test("an approved ad's photos are files of the site, on its page and its card; one taken off leaves at the next publish", async () => {
    const landscape = await smallJpeg(11, 1600, 1200);
    const portrait = await smallJpeg(12, 600, 900);
    const title = 'Tide pools at low tide';
    const { id, photoIds } = await adWithPhotos(site, title, [
      { bytes: landscape, alt: '' },
      { bytes: portrait, alt: 'Sunset at the pier' },
    ]);
    const [first, second] = [
      await variantsOf(site, photoIds[0]!),
      await variantsOf(site, photoIds[1]!),
    ];
    expect(first.map((variant) => variant.width)).toEqual([320, 640, 1280]);
    expect(second.map((variant) => variant.width)).toEqual([320, 600]);
    build(site);

    // Every size is a file of the site, the bytes the storage keeps.
    for (const variant of [...first, ...second]) {
      const file = siteFile(site, photoFilePath(variant.key));
      expect(readFileSync(file).equals((await site.storage.get(variant.key))!)).toBe(true);
    }

    // The ad page: every photo, sizes in srcset, width and height, alt; the first at once.
    const adHtml = page(site, adPath('California', 'San Jose', id));
    const shown = imgs(adHtml).filter((img) => img.src?.startsWith('/photos/'));
    expect(shown[0]).toMatchObject({
      src: photoFilePath(first[2]!.key),
      srcset: srcsetOf(first),
      sizes: '240px',
      width: '1280',
      height: '960',
      alt: `Photo 1 of 2: ${title}`,
      loading: 'eager',
    });
    expect(shown[1]).toMatchObject({
      srcset: srcsetOf(second),
      width: '600',
      height: '900',
      alt: 'Sunset at the pier',
      loading: 'lazy',
    });
    // View Photos: a link to the first photo, large in the viewer (no JavaScript needed).
    expect(adHtml).toMatch(
      /<a [^>]*href="#photo-1"[^>]*data-member-action="view-photos"[^>]*>View Photos</,
    );
    expect(adHtml).toContain('id="photo-2"');
    expect(adHtml).toMatch(/<strong>Photo 2 of 2<\/strong><span>Sunset at the pier<\/span>/);
    // Beside the default alt text, the title alone.
    expect(adHtml).toContain(`<strong>Photo 1 of 2</strong><span>${title}</span>`);
    expect(adHtml).not.toContain('aria-label="No photo"');

    // The card on the city page: the first photo only, its small sizes, lazy.
    const cityHtml = page(site, cityPath('California', 'San Jose'));
    const card = imgs(cityHtml).filter((img) => img.src?.startsWith('/photos/'));
    expect(card).toEqual([
      {
        src: photoFilePath(first[1]!.key),
        srcset: srcsetOf(first.slice(0, 2)),
        sizes: '(min-width: 640px) 120px, 88px',
        alt: `Photo 1 of 2: ${title}`,
        width: '1280',
        height: '960',
        loading: 'lazy',
        decoding: 'async',
      },
    ]);

    // The server sends them as files that never change.
    const app = createApp({
      siteDir: join(site.outDir, 'site'),
      store: site.t.store,
      mailer: testMailer(join(work, 'outbox')),
      photoProcessing: pool,
      log: false,
    });
    const answer = await app.request(`http://localhost${photoFilePath(first[1]!.key)}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/webp');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(
      Buffer.from(await answer.arrayBuffer()).equals((await site.storage.get(first[1]!.key))!),
    ).toBe(true);

    // The member takes the second photo off: its files leave the site at the next publish.
    await site.t.store.memberAds.setPhotos(
      id,
      await revisionOf(site, id),
      [{ id: photoIds[0]!, alt: '' }],
      null,
      new Date().toISOString(),
    );
    build(site);
    for (const variant of second)
      expect(existsSync(siteFile(site, photoFilePath(variant.key)))).toBe(false);
    for (const variant of first)
      expect(existsSync(siteFile(site, photoFilePath(variant.key)))).toBe(true);
    const after = page(site, adPath('California', 'San Jose', id));
    expect(after).toContain(`alt="Photo 1 of 1: ${title}"`);
    expect(after).not.toContain(second[0]!.key);
    expect(after).not.toContain('id="photo-2"');

    // The ad deleted: all of its photos leave.
    await setMemberAdStatus(site.t, id, 'deleted');
    build(site);
    for (const variant of first)
      expect(existsSync(siteFile(site, photoFilePath(variant.key)))).toBe(false);
  }, 180_000);

  test('a photo whose bytes are gone is left out with a warning; the ad is published without it', async () => {
    const title = 'Farmers market on Saturday';
    const { id, photoIds } = await adWithPhotos(site, title, [
      { bytes: await smallJpeg(21), alt: '' },
      { bytes: await smallJpeg(22), alt: '' },
    ]);
    const gone = await variantsOf(site, photoIds[0]!);
    await photoBytesLost(
      site.t,
      gone.map((variant) => variant.key),
    );
    const output = build(site);
    expect(output).toContain(`Warning: member ad ${id} (database): photo ${photoIds[0]} left out`);
    const adHtml = page(site, adPath('California', 'San Jose', id));
    expect(adHtml).not.toContain(gone[0]!.key);
    // The other photo, now the only one.
    expect(adHtml).toContain(`alt="Photo 1 of 1: ${title}"`);
    const kept = await variantsOf(site, photoIds[1]!);
    expect(existsSync(siteFile(site, photoFilePath(kept[0]!.key)))).toBe(true);
    await setMemberAdStatus(site.t, id, 'deleted');
  }, 120_000);

  test('a photo a moderator removes leaves the site; reversed on appeal, its file answers 200 again with the same bytes', async () => {
    const title = 'Lighthouse walk at dawn';
    const { id, photoIds } = await adWithPhotos(site, title, [
      { bytes: await smallJpeg(31), alt: 'The lighthouse' },
      { bytes: await smallJpeg(32), alt: 'The path' },
    ]);
    build(site);
    const removedId = photoIds[0]!;
    const [variant] = await variantsOf(site, removedId);
    const url = `http://localhost${photoFilePath(variant!.key)}`;
    const app = createApp({
      siteDir: join(site.outDir, 'site'),
      store: site.t.store,
      mailer: testMailer(join(work, 'outbox')),
      log: false,
    });
    const before = await app.request(url);
    expect(before.status).toBe(200);
    const bytes = Buffer.from(await before.arrayBuffer());

    // Two moderators: one removes, the other decides the appeal.
    const moderator = async (n: number) => {
      const email = `appeal-moderator-${n}@example.com`;
      const id = await accountInStore(site.t.store, email, {
        verified: false,
        dateOfBirth: '1980-01-01',
      });
      // Made a moderator by the operator's command (npm run moderator -- add).
      expect((await makeModerator(site.t.store, email)).code).toBe(0);
      return { accountId: id, email };
    };
    const [remover, decider] = [await moderator(1), await moderator(2)];
    const removal = await removePhoto(
      site.t.store,
      remover,
      removedId,
      'spam',
      undefined,
      new Date(),
    );
    expect(removal.kind).toBe('done');
    build(site);
    expect((await app.request(url)).status).toBe(404);
    expect(page(site, adPath('California', 'San Jose', id))).toContain(`alt="The path"`);

    const { statementId } = removal as { statementId: number };
    const accountId = (await site.t.store.photos.find(removedId))!.accountId;
    await fileAppeal(
      site.t.store,
      { accountId },
      statementId,
      { text: 'It is my own photo.' },
      new Date(),
    );
    const appealId = (await site.t.store.statements.find(statementId))!.appeal!.id;
    const deps = {
      store: site.t.store,
      mailer: testMailer(join(work, 'outbox')),
      mailSite: () => ({ brand: 'Localboard', baseUrl: 'http://localhost' }),
      now: () => new Date(),
    };
    await decideAppeal(deps, decider, appealId, { outcome: 'reversed', reply: '' });
    build(site);
    const after = await app.request(url);
    expect(after.status).toBe(200);
    expect(Buffer.from(await after.arrayBuffer()).equals(bytes)).toBe(true);
    const adHtml = page(site, adPath('California', 'San Jose', id));
    // Back first, as it was.
    expect(imgs(adHtml)[0]).toMatchObject({ alt: 'The lighthouse' });
    await setMemberAdStatus(site.t, id, 'deleted');
  }, 240_000);

  test("an editor's CSV images still show: on the card, on the page, and in View Photos", async () => {
    const adHtml = page(site, adPath('Nevada', 'Las Vegas', EDITOR_AD));
    const pictures = imgs(adHtml).filter((img) => img.src?.startsWith('/ads/'));
    expect(pictures.map((img) => [img.src, img.alt, img.srcset])).toEqual([
      ['/ads/9001-1.webp', 'Photo 1 of 2: Sunset hikes and tacos', undefined],
      ['/ads/9001-2.jpg', 'Photo 2 of 2: Sunset hikes and tacos', undefined],
      // The viewer's, large.
      ['/ads/9001-1.webp', 'Photo 1 of 2: Sunset hikes and tacos', undefined],
      ['/ads/9001-2.jpg', 'Photo 2 of 2: Sunset hikes and tacos', undefined],
    ]);
    expect(adHtml).toMatch(/href="#photo-1"[^>]*data-member-action="view-photos"/);
    const card = imgs(page(site, cityPath('Nevada', 'Las Vegas'))).filter((img) =>
      img.src?.startsWith('/ads/9001'),
    );
    expect(card).toEqual([expect.objectContaining({ src: '/ads/9001-1.webp', width: '120' })]);
  });
});

describe('publishing photos (photos kept in a folder: PHOTOS_DIR)', () => {
  test('the build reads the folder the server writes, and removes what no ad shows', async () => {
    const photosDir = join(work, 'photo-folder');
    const folderSite = await openSite('folder', photosDir);
    try {
      // The same build's output, another database (Vite's output is not built again).
      cpSync(site.outDir, folderSite.outDir, { recursive: true });
      const { id, photoIds } = await adWithPhotos(folderSite, 'Kayaks on the bay', [
        { bytes: await smallJpeg(31), alt: 'Two kayaks' },
      ]);
      const variants = await variantsOf(folderSite, photoIds[0]!);
      expect(
        existsSync(join(photosDir, variants[0]!.key.slice(0, 2), `${variants[0]!.key}.webp`)),
      ).toBe(true);
      build(folderSite);
      for (const variant of variants)
        expect(
          readFileSync(siteFile(folderSite, photoFilePath(variant.key))).equals(
            (await folderSite.storage.get(variant.key))!,
          ),
        ).toBe(true);
      expect(page(folderSite, adPath('California', 'San Jose', id))).toContain('alt="Two kayaks"');

      await setMemberAdStatus(folderSite.t, id, 'deleted');
      build(folderSite);
      for (const variant of variants)
        expect(existsSync(siteFile(folderSite, photoFilePath(variant.key)))).toBe(false);
    } finally {
      await folderSite.t.store.close();
    }
  }, 180_000);
});
