// Members' photos through the server (docs/product.md section 10), before they are published:
// - GET /api/photos/{id}/{width}: one size of a photo, to its member (the posting form's previews,
//   the edit page, Download my data) and to moderators (the queue shows photos under review
//   large, and a removed photo kept for its appeal). Anyone else, and any photo a moderator
//   removed (to anyone but moderators), is the unknown endpoint's 404: an id says nothing about
//   whether it exists. Published photos are static files of the site instead
//   (/photos/…, cached forever).
// - GET /api/photos/{id}/blurred: the blurred rendering of a photo the moderation queue keeps out
//   of sight until the moderator chooses to see it (server/photos/blurred-photo.ts), to moderators.
import { Hono } from 'hono';
import { apiRoutes } from '../../../core/paths.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import { noSuchEndpoint } from '../forms/unknown-endpoint.ts';
import { routeId } from '../route-id.ts';
import type { AppPhotos } from '../../photos/app-photos.ts';
import { blurredPhotoFor } from '../../photos/blurred-photo.ts';
import { photoBytesFor } from '../../photos/photo-for-viewer.ts';
import type { Store } from '../../../store/store.ts';

export interface PhotoRouteOptions {
  store: Store;
  photos: AppPhotos;
}

export function photoRoutes(options: PhotoRouteOptions) {
  const { store, photos } = options;
  const app = new Hono<AppEnv>();

  app.get(apiRoutes.photoSize, async (c) => {
    const [{ id }, width] = [routeId(c, noSuchEndpoint), routeId(c, noSuchEndpoint, 'width')];
    const bytes = await photoBytesFor(store, photos, await c.var.member(), id, width.id);
    if (!bytes) throw noSuchEndpoint();
    return webp(c, bytes);
  });

  app.get(apiRoutes.blurredPhoto, async (c) => {
    const { id } = routeId(c, noSuchEndpoint);
    const bytes = await blurredPhotoFor(store, photos, await c.var.member(), id);
    if (!bytes) throw noSuchEndpoint();
    return webp(c, bytes);
  });

  return app;
}

/** A WebP picture, as it is. */
const webp = (c: AppContext, bytes: Buffer) =>
  c.body(new Uint8Array(bytes), 200, {
    'Content-Type': 'image/webp',
    'Content-Length': String(bytes.length),
    'X-Content-Type-Options': 'nosniff',
  });
