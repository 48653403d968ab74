// The database holds password hashes and dates of birth: its file, and the -wal and -shm files
// SQLite keeps beside it, are readable by the server's user only (600), whatever the umask.
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, postJson, signupBody, type TestApp } from '../../helpers/api.ts';
import { signupApiPath } from '../../../core/paths.ts';

let testApp: TestApp;
let umaskBefore: number;
beforeAll(async () => {
  // The most permissive umask: only the server's own choice of mode protects the files.
  umaskBefore = process.umask(0);
  testApp = await makeTestApp();
});
afterAll(() => {
  testApp.remove();
  process.umask(umaskBefore);
});

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('a new database file', () => {
  it('is created with mode 600, and so are its -wal and -shm files', async () => {
    expect((await postJson(testApp.app, signupApiPath(), signupBody())).status).toBe(201);
    expect(modeOf(testApp.dbPath)).toBe('600');
    expect(modeOf(`${testApp.dbPath}-wal`)).toBe('600');
    expect(modeOf(`${testApp.dbPath}-shm`)).toBe('600');
  });
});
