// An unreachable database at start-up (docs/product.md section 12): the server says so in one line
// and exits with code 1, before anything else, never with a stack; so does a wrong photo storage
// setting. The server's own start
// (server/index.ts) in a process of its own, as `npm start` runs it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const tsx = createRequire(join(root, 'package.json')).resolve('tsx/cli');

function start(env: NodeJS.ProcessEnv) {
  const started = spawnSync(process.execPath, [tsx, 'server/index.ts'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PORT: '0', ...env },
    timeout: 30_000,
  });
  return { code: started.status, stdout: started.stdout, stderr: started.stderr };
}

describe('the server at start-up', () => {
  it('exits with one line when PostgreSQL at DATABASE_URL does not answer', () => {
    // Nothing listens on port 1.
    const { code, stdout, stderr } = start({
      DATABASE_URL: 'postgres://localboard:secret@127.0.0.1:1/localboard',
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'PostgreSQL at postgres://localboard:***@127.0.0.1:1/localboard cannot be used: connect ECONNREFUSED 127.0.0.1:1\n',
    );
  });

  it('exits with one line when DATABASE_URL is not a PostgreSQL URL', () => {
    const { code, stderr } = start({ DATABASE_URL: 'mysql://127.0.0.1/localboard' });
    expect(code).toBe(1);
    expect(stderr).toBe('DATABASE_URL must start with postgres:// (got mysql:)\n');
  });

  it('exits with one line when a photo storage setting is wrong (PHOTOS_BUCKET)', () => {
    const wrong = start({ PHOTOS_BUCKET: 'localboard-photos' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      'PHOTOS_BUCKET: not an s3:// address, got "localboard-photos" (expected s3://bucket or s3://bucket/prefix)\n',
    );
    const both = start({ PHOTOS_BUCKET: 's3://localboard-photos', PHOTOS_DIR: '/srv/photos' });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('PHOTOS_BUCKET and PHOTOS_DIR are both set');
  });
});
