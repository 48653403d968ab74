// Migration 9: photos on members' ads (docs/product.md section 10).
import type { Migration } from './migration.ts';
import { POSTGRES_TYPES, SQLITE_TYPES, type SqlTypes } from './schema-sql.ts';

/**
 * The text of migration 9 on each engine, byte for byte as it shipped (schema-sql.ts): `serial`,
 * the id of a table whose deleted ids are never handed out again.
 */
const photosSchema = (t: SqlTypes, serial: string) => `CREATE TABLE photos (
     id ${serial},
     account_id ${t.ref} NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
     ad_id ${t.ref} REFERENCES member_ads(id) ON DELETE CASCADE,
     width ${t.int} NOT NULL,
     height ${t.int} NOT NULL,
     phash ${t.text} NOT NULL,
     flag ${t.text},
     created_at ${t.text} NOT NULL,
     removed_at ${t.text},
     removed_reason ${t.text},
     removed_note ${t.text},
     removed_by ${t.ref}
   )${t.options};
   CREATE INDEX photos_by_account ON photos(account_id, created_at);
   CREATE INDEX photos_by_ad ON photos(ad_id);
   CREATE TABLE photo_variants (
     photo_id ${t.ref} NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
     width ${t.int} NOT NULL,
     height ${t.int} NOT NULL,
     key ${t.text} NOT NULL,
     size ${t.int} NOT NULL,
     PRIMARY KEY (photo_id, width)
   )${t.keyedOptions};
   CREATE INDEX photo_variants_by_key ON photo_variants(key);
   CREATE TABLE photo_blobs (
     key ${t.text} PRIMARY KEY,
     bytes ${t.bytes} NOT NULL,
     created_at ${t.text} NOT NULL
   )${t.options};
   CREATE TABLE blocked_photos (
     id ${serial},
     phash ${t.text} NOT NULL,
     reason ${t.text} NOT NULL,
     photo_id ${t.ref},
     ad_id ${t.ref},
     blocked_at ${t.text} NOT NULL
   )${t.options};
   ALTER TABLE member_ads ADD COLUMN photos ${t.text} NOT NULL DEFAULT '[]';
   ALTER TABLE member_ads ADD COLUMN pending_photos ${t.text};`;

export const PHOTOS: readonly Migration[] = [
  // Photos on members' ads (docs/product.md section 10).
  // - photos: one processed photo (never the uploaded file): whose, on which ad (none yet: an
  //   upload the member has not posted, swept after a day), its largest size, its perceptual hash
  //   (16 hex digits), why a moderator should look at it (`flag`), and a moderator's removal.
  //   AUTOINCREMENT, as for blocked_photos: a deleted photo's id is never given to another one
  //   (blocked hashes, links and logs name photos by id).
  // - photo_variants: its WebP sizes, each named by its bytes' digest (`key`); photo_blobs: those
  //   bytes when photos are stored in the database (store/photo-storage/photo-storage.ts).
  // - blocked_photos: the perceptual hashes of photos moderators removed, and why; a new upload
  //   close to one is refused or flagged (server/photos/known-photos.ts).
  // - member_ads.photos: the ad's photos in order with their alt texts (JSON `[{id, alt}]`), as
  //   published once it is live; pending_photos: a live ad's edit of them, awaiting a moderator.
  {
    name: 'photos',
    sqlite: photosSchema(SQLITE_TYPES, `${SQLITE_TYPES.ref} PRIMARY KEY AUTOINCREMENT`),
    postgres: photosSchema(POSTGRES_TYPES, POSTGRES_TYPES.id),
  },
];
