// What every kind of photo storage answers (photo-storage.ts: database, folder, bucket).
export interface PhotoStorage {
  readonly kind: 'database' | 'folder' | 'bucket';
  /** For logs. */
  readonly describe: string;
  /** Keeps the bytes of `key` (a key already kept stays as it is). */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes of `key`, or undefined when they are not kept (deleted meanwhile). */
  get(key: string): Promise<Buffer | undefined>;
  /** Deletes the bytes of these keys, unless a photo's size uses one again (the store is asked). */
  delete(keys: readonly string[]): Promise<void>;
  /**
   * Deletes bytes kept before `before` that no photo's size uses (left by an upload whose row
   * never came, or a deletion that stopped half-way); answers how many.
   */
  deleteOrphans(before: Date): Promise<number>;
  /**
   * Only a storage that serves published photos itself (a bucket): the build makes the sizes of
   * published photos public there rather than files of the site, and hides them again when no
   * published ad shows them (pipeline/compile/published-photos.ts).
   */
  readonly publicPhotos?: PublicPhotos;
}

export interface PublicPhotos {
  /** Makes `key` public; false when the storage has no bytes for it. */
  publish(key: string): Promise<boolean>;
  /** Takes `keys` out of public reach; answers how many were public. */
  hide(keys: readonly string[]): Promise<number>;
  /** The bytes of `key` if it is public, else undefined (pending, hidden, deleted). */
  readPublic(key: string): Promise<Buffer | undefined>;
}
