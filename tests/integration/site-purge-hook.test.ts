// The CDN purge hook (server/publishing/site-bucket/purge-hook.ts) against a real HTTP server on
// 127.0.0.1 standing in for the CDN's purge API: URLs in batches, no more requests in a minute
// than allowed (on a fake clock: the minute is the point, not the machine's speed), a takedown
// in the very next request, a refused purge tried again; and the command form.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, expect, test } from 'vitest';
import { purgeHook, purgeHookFromEnv } from '../../server/publishing/site-bucket/purge-hook.ts';
import { purgeEndpointForFile } from '../helpers/purge-endpoint.ts';

interface Received {
  at: number;
  authorization: string | undefined;
  body: { files: string[] };
}

let received: Received[] = [];
/** Statuses to answer, in turn (then 200). */
let answers: number[] = [];
let now = 0;
let slept: number[] = [];
/** Called at each sleep of the hook, with the time it asked for. */
let duringSleep: (() => void) | undefined;
const clock = {
  now: () => now,
  sleep: async (ms: number) => {
    slept.push(ms);
    duringSleep?.();
    now += ms;
  },
};

const cdn = purgeEndpointForFile('/zones/abc/purge_cache', ({ authorization, files }) => {
  received.push({ at: now, authorization, body: { files } });
  return answers.shift();
});

beforeEach(() => {
  received = [];
  answers = [];
  now = 1_000_000;
  slept = [];
  duringSleep = undefined;
});

const pages = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => `https://example.test/city/A/B/ad/${from + index}`);

test('URLs go 100 a request, 5 requests a minute, a takedown in the next request', async () => {
  const log: string[] = [];
  const hook = purgeHook({
    target: {
      kind: 'http',
      url: cdn.url,
      body: '{"files":{urls}}',
      authorization: 'Bearer token',
    },
    clock,
    log: (line) => log.push(line),
  });
  const takedown = ["https://example.test/city/Idaho/Coeur%20d'Alene/ad/100000007"];
  // 750 URLs: 8 requests. The sixth must wait for the minute; meanwhile a moderator takes an
  // ad down.
  duringSleep = () => {
    if (slept.length === 1) hook.purge(takedown, { urgent: true });
  };
  hook.purge(pages(750));
  await hook.idle();
  expect(received.map((each) => each.body.files.length)).toEqual([
    100, 100, 100, 100, 100, 100, 100, 51,
  ]);
  expect(received.every((each) => each.authorization === 'Bearer token')).toBe(true);
  // Never more than five in any minute.
  for (const [index, request] of received.entries()) {
    const inMinute = received.filter(
      (other) => other.at <= request.at && request.at - other.at < 60_000,
    );
    expect(inMinute.length, `request ${index}`).toBeLessThanOrEqual(5);
  }
  expect(received[5]!.at - received[0]!.at).toBe(60_000);
  // The takedown is first in the first request after it.
  expect(received[5]!.body.files[0]).toBe(takedown[0]);
  // Every URL purged once.
  const all = received.flatMap((each) => each.body.files);
  expect(new Set(all).size).toBe(751);
  expect(all.length).toBe(751);
  expect(log).toEqual([]);
});

test('a refused purge is tried again, and given up after three attempts with a line', async () => {
  const log: string[] = [];
  const hook = purgeHook({
    target: { kind: 'http', url: cdn.url, body: '{"files":{urls}}' },
    clock,
    log: (line) => log.push(line),
  });
  answers = [500, 200];
  hook.purge(pages(3));
  await hook.idle();
  expect(received.map((each) => each.body.files)).toEqual([pages(3), pages(3)]);
  expect(log).toEqual([`The CDN purge of 3 URLs failed (${cdn.url} answered 500); trying again.`]);
  answers = [503, 503, 503];
  received = [];
  hook.purge(pages(2, 10));
  await hook.idle();
  expect(received).toHaveLength(3);
  expect(log.at(-1)).toBe(
    `The CDN purge of 2 URLs failed (${cdn.url} answered 503); given up after 3 attempts.`,
  );
});

test('the command form gets the URLs on its standard input, one a line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'localboard-purge-'));
  try {
    const file = join(dir, 'purged.txt');
    const hook = purgeHookFromEnv({
      CDN_PURGE_COMMAND: `cat >> '${file}'`,
      CDN_PURGE_BATCH: '2',
    })!;
    hook.purge(['https://example.test/', 'https://example.test/city/New%20Mexico/Espa%C3%B1ola']);
    hook.purge(['https://example.test/city/Vermont/Plus%2BTown']);
    await hook.idle();
    expect(readFileSync(file, 'utf8')).toBe(
      'https://example.test/\nhttps://example.test/city/New%20Mexico/Espa%C3%B1ola\n' +
        'https://example.test/city/Vermont/Plus%2BTown\n',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the settings: none is no hook; a bad number stops with its name', () => {
  expect(purgeHookFromEnv({})).toBeUndefined();
  expect(() => purgeHookFromEnv({ CDN_PURGE_URL: cdn.url, CDN_PURGE_PER_MINUTE: '0' })).toThrow(
    'CDN_PURGE_PER_MINUTE: expected a whole number of 1 or more, got 0',
  );
});
