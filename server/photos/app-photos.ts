// What the routes are given for photos: the processing pool and the storage of their bytes.
import type { PhotoStorage } from './photo-storage.ts';
import type { PhotoPool } from './processing-pool.ts';

export interface AppPhotos {
  pool: PhotoPool;
  storage: PhotoStorage;
}
