import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findS3ServerBinDir, s3ServerPrograms } from '../../../scripts/s3-server.mjs';

const dir = mkdtempSync(join(tmpdir(), 'localboard-s3-bin-'));
const whole = join(dir, 'whole');
const partial = join(dir, 'partial');
for (const folder of [whole, partial]) mkdirSync(folder);
for (const name of s3ServerPrograms) {
  writeFileSync(join(whole, name), '#!/bin/sh\n');
  chmodSync(join(whole, name), 0o755);
}
// Everything but radosgw, and a radosgw that is not executable.
for (const name of s3ServerPrograms.filter((each) => each !== 'radosgw')) {
  writeFileSync(join(partial, name), '#!/bin/sh\n');
  chmodSync(join(partial, name), 0o755);
}
writeFileSync(join(partial, 'radosgw'), 'not a program');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("finding the test S3 server's programs (radosgw, ceph-mon, ceph-osd …)", () => {
  it('takes the first usual folder that has them all', () => {
    expect(findS3ServerBinDir({}, [join(dir, 'missing'), partial, whole])).toBe(whole);
    expect(findS3ServerBinDir({}, [partial])).toBeUndefined();
  });

  it('uses S3_SERVER_BIN_DIR alone when it is set', () => {
    expect(findS3ServerBinDir({ S3_SERVER_BIN_DIR: whole }, [partial])).toBe(whole);
    expect(findS3ServerBinDir({ S3_SERVER_BIN_DIR: partial }, [whole])).toBeUndefined();
  });
});
