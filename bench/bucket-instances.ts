// Instances with the site in a bucket, as separate machines run them (docs/product.md section 12):
// the bucket of the site and the photos, readable by anyone where server/operations/public-read.ts
// says, and an instance started from a folder of its own by the two commands of README's
// `npm start` with SITE_BUCKET set (`scripts/build.mjs --if-needed`, which writes no page and
// compiles no content there, then the server). The several-instance test
// (tests/e2e/bucket-instances.test.ts) and `npm run bench:live` (bench/approve-to-live.ts) share it.
import { CreateBucketCommand, PutBucketPolicyCommand, S3Client } from '@aws-sdk/client-s3';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { publicReadPolicies } from '../server/operations/public-read.ts';
import type { BucketLocation } from '../store/object-storage/bucket-url.ts';

const root = join(import.meta.dirname, '..');

export interface S3Address {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Makes `bucket` on `server`, with the policies that let anyone read the site and the photos. */
export async function createPublicBucket(
  server: S3Address,
  bucket: string,
  site: BucketLocation,
  photos: BucketLocation,
): Promise<void> {
  const client = new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    for (const [name, policy] of publicReadPolicies(site, photos))
      await client.send(new PutBucketPolicyCommand({ Bucket: name, Policy: policy }));
  } finally {
    client.destroy();
  }
}

/** The settings an instance reads to reach the S3 server (the SDK's own names). */
export const s3Settings = (server: S3Address): NodeJS.ProcessEnv => ({
  AWS_ENDPOINT_URL_S3: server.endpoint,
  AWS_REGION: server.region,
  AWS_ACCESS_KEY_ID: server.accessKeyId,
  AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
  S3_FORCE_PATH_STYLE: '1',
});

export interface BucketInstance {
  name: string;
  url: string;
  /** Its own folder: the build's output in `out/`, its compiled content, its outbox. */
  dir: string;
  process: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output: string[];
  startedAt: number;
}

/**
 * Starts an instance on 127.0.0.1:`port` from the folder `dir` (its build's output in `dir/out`,
 * its own SITE_DIR, COMPILED_CONTENT_DIR and MAIL_OUTBOX_DIR), with `env` (DATABASE_URL,
 * SITE_BUCKET, PHOTOS_BUCKET and the rest, the same for every instance of one deploy), by what
 * `npm start` runs: `node scripts/build.mjs --if-needed --out DIR && node DIR/server/serve.mjs`.
 */
export function startBucketInstance(
  name: string,
  dir: string,
  port: number,
  env: NodeJS.ProcessEnv,
): BucketInstance {
  const out = join(dir, 'out');
  const instanceEnv: NodeJS.ProcessEnv = {
    ...withoutTestMarkers(env),
    HOST: '127.0.0.1',
    PORT: String(port),
    SITE_DIR: join(out, 'site'),
    COMPILED_CONTENT_DIR: join(dir, 'compiled'),
    MAIL_OUTBOX_DIR: join(dir, 'outbox'),
    PATH: `${dirname(process.execPath)}:${env.PATH ?? ''}`,
  };
  const output: string[] = [];
  const startedAt = Date.now();
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      'node scripts/build.mjs --if-needed --out "$1" && exec node --enable-source-maps "$1/server/serve.mjs"',
      'start',
      out,
    ],
    // Its own process group, so that stopping it stops the build it may still be running.
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: instanceEnv, detached: true },
  );
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { name, url: `http://127.0.0.1:${port}`, dir, process: child, output, startedAt };
}

/** Whether the instance's process (or the build before it) is still running. */
export const running = (instance: BucketInstance) =>
  instance.process.exitCode === null && instance.process.signalCode === null;

/**
 * Stops the instance and what it started (SIGTERM to its process group, SIGKILL after `graceMs`:
 * a publish under way may finish first); resolves once it has exited.
 */
export function stopBucketInstance(instance: BucketInstance, graceMs = 5_000): Promise<void> {
  const child = instance.process;
  if (!running(instance)) return Promise.resolve();
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Gone already.
    }
  };
  return new Promise((resolve) => {
    const kill = setTimeout(() => signal('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    signal('SIGTERM');
  });
}

/** The environment without Vitest's markers (Vike stands aside when it sees them). */
function withoutTestMarkers(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept = { ...env };
  for (const key of Object.keys(kept))
    if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete kept[key];
  return kept;
}
