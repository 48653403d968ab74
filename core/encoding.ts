/** The compressions the site serves and stores precompressed copies in: brotli or gzip. */
export type Encoding = 'br' | 'gzip';
