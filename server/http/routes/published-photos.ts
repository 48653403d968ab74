// Published photos kept in a bucket (PHOTOS_BUCKET; docs/product.md section 10), for a server with
// no CDN or web server in front serving /photos/ from the bucket itself (README "Photos in a
// bucket"): GET /photos/{ab}/{key}.webp answers the public object's bytes, cached for a year as the
// site's photo files are. A size that is not public (pending, hidden, deleted) goes on to the
// static site, whose answer is its 404: never the private part.
import { Hono } from 'hono';
import { publishedPhotoRoute } from '../../../src/paths.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import { PUBLISHED_CACHE_CONTROL } from '../../photos/photo-bucket.ts';
import type { PublicPhotos } from '../../photos/photo-storage.ts';

export function publishedPhotoRoutes(publicPhotos: PublicPhotos) {
  const app = new Hono<AppEnv>();
  app.get(publishedPhotoRoute, async (c, next) => {
    const bytes = await publicBytesAt(publicPhotos, c.req.param('shelf'), c.req.param('file'));
    return bytes ? publishedWebp(c, bytes) : next();
  });
  return app;
}

/** The public bytes of `{shelf}/{file}`: only a size's own path (its key's first two digits). */
function publicBytesAt(publicPhotos: PublicPhotos, shelf: string, file: string) {
  const key = file.slice(0, -'.webp'.length);
  return key.startsWith(shelf) ? publicPhotos.readPublic(key) : Promise.resolve(undefined);
}

/** A published size, as the site's photo files are sent: cached for a year. */
const publishedWebp = (c: AppContext, bytes: Buffer) =>
  c.body(new Uint8Array(bytes), 200, {
    'Content-Type': 'image/webp',
    'Content-Length': String(bytes.length),
    'Cache-Control': PUBLISHED_CACHE_CONTROL,
    'X-Content-Type-Options': 'nosniff',
  });
