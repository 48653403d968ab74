// Global set-up of the S3 suite (vitest.config.ts, project `s3`): one throwaway S3 server
// (Ceph's radosgw: scripts/s3-server.mjs) for the whole run, its endpoint and keys provided to the
// tests; every test file makes buckets of its own in it (tests/helpers/s3-server.ts).
import type { TestProject } from 'vitest/node';
import { ensureS3Server, startThrowawayS3Server } from '../../scripts/s3-server.mjs';
import type { S3ServerAddress } from './s3-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    s3Server: S3ServerAddress;
  }
}

export default async function setup(project: TestProject) {
  const found = ensureS3Server();
  if (!found.binDir) throw new Error(found.problem);
  const server = await startThrowawayS3Server(found.binDir, { log: console.log });
  const { endpoint, region, accessKeyId, secretAccessKey } = server;
  project.provide('s3Server', { endpoint, region, accessKeyId, secretAccessKey });
  return async () => {
    console.log(
      `S3 server (radosgw): started in ${(server.startedInMs / 1000).toFixed(1)} s, ${Math.round(server.residentBytes() / 1e6)} MB resident at the end.`,
    );
    await server.stop();
  };
}
