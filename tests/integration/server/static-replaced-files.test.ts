// Publishing replaces a page by renaming a new file over it. The server must then send the new
// page, never a compressed copy of the old one kept in its cache, even when the new file has the
// old one's size and modification time; and a file replaced while it is being sent is sent whole,
// as the version that was opened.
import { renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { testAppOnSiteFiles } from '../../helpers/api.ts';

// Same length whatever the (one-letter) heading, and big enough to be compressed.
const page = (heading: string) =>
  `<!DOCTYPE html><html><body><h1>${heading}</h1>${'<p>filler text</p>'.repeat(200)}</body></html>`;

const t = testAppOnSiteFiles({ 'index.html': page('A') });

const gzipped = async () => {
  const answer = await t.app.request('http://localhost/', {
    headers: { 'Accept-Encoding': 'gzip' },
  });
  expect(answer.headers.get('Content-Encoding')).toBe('gzip');
  return gunzipSync(Buffer.from(await answer.arrayBuffer())).toString('utf8');
};

test('a page replaced by a file of the same size and time is served new, not from the cache', async () => {
  const file = join(t.siteDir, 'index.html');
  const time = new Date('2026-11-22T10:00:00Z');
  utimesSync(file, time, time);
  expect(await gzipped()).toContain('<h1>A</h1>');
  writeFileSync(`${file}.tmp`, page('B'));
  utimesSync(`${file}.tmp`, time, time);
  renameSync(`${file}.tmp`, file);
  expect(statSync(file).size).toBe(page('A').length);
  expect(statSync(file).mtimeMs).toBe(time.getTime());
  expect(await gzipped()).toContain('<h1>B</h1>');
});

test('a page replaced while its answer is on the way is sent whole, as it was opened', async () => {
  const file = join(t.siteDir, 'index.html');
  writeFileSync(file, page('C'));
  const answers = [];
  for (let round = 0; round < 200; round += 1) {
    answers.push(t.app.request('http://localhost/'));
    // The request runs as far as it goes without waiting on the disk; the file is then replaced.
    await new Promise((resolve) => setImmediate(resolve));
    writeFileSync(`${file}.tmp`, round % 2 ? page('C') : `${page('D')}<!-- longer -->`);
    renameSync(`${file}.tmp`, file);
  }
  for (const answer of await Promise.all(answers)) {
    const body = await answer.text();
    expect(body.length).toBe(Number(answer.headers.get('Content-Length')));
    expect(body).toMatch(/<\/html>(<!-- longer -->)?$/);
  }
});
