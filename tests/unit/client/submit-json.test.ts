import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  BUSY_PATIENCE_MS,
  NETWORK_ERROR,
  sameSiteRedirect,
  STILL_WORKING,
  submitJson,
} from '../../../src/client/submit-json.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const answer = (status: number, body: string) =>
  vi.fn(
    async () => new Response(body, { status, headers: { 'Content-Type': 'application/json' } }),
  );

describe('submitJson', () => {
  test('a network failure gives the network text, never a redirect', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(
      await submitJson('/api/signup', {}, 'Signup failed. Please try again.', '/success'),
    ).toEqual({ ok: false, error: NETWORK_ERROR });
  });

  test("a refusal shows the server's error, or the fallback when it has none", async () => {
    vi.stubGlobal(
      'fetch',
      answer(
        409,
        JSON.stringify({ error: 'An account with this email already exists.', field: 'email' }),
      ),
    );
    expect(await submitJson('/api/signup', {}, 'fallback', '/success')).toEqual({
      ok: false,
      error: 'An account with this email already exists.',
      field: 'email',
    });
    vi.stubGlobal('fetch', answer(502, '<html>Bad gateway</html>'));
    expect(
      await submitJson('/api/signup', {}, 'Signup failed. Please try again.', '/success'),
    ).toEqual({ ok: false, error: 'Signup failed. Please try again.' });
  });

  test('success goes to the redirect URL, or the fallback when it is absent', async () => {
    vi.stubGlobal('fetch', answer(201, JSON.stringify({ redirectUrl: '/welcome' })));
    expect(await submitJson('/api/signup', {}, 'x', '/success')).toEqual({
      ok: true,
      redirectUrl: '/welcome',
    });
    vi.stubGlobal('fetch', answer(201, '{}'));
    expect(await submitJson('/api/signup', {}, 'x', '/success')).toEqual({
      ok: true,
      redirectUrl: '/success',
    });
  });

  test('never follows a redirect to another site', () => {
    for (const url of [
      'https://elsewhere.example/',
      '//elsewhere.example',
      '/\\elsewhere.example',
      'javascript:alert(1)',
    ]) {
      expect(sameSiteRedirect(url, '/success')).toBe('/success');
    }
    expect(sameSiteRedirect('/success?welcome=1', '/')).toBe('/success?welcome=1');
  });
});

const BUSY = (seconds: number) =>
  `The server is busy right now. Please try again in ${seconds} seconds.`;

/** A 503 of the busy hashing pool, saying when to come back. */
const busy = (seconds: number) =>
  new Response(JSON.stringify({ error: BUSY(seconds) }), {
    status: 503,
    headers: { 'Content-Type': 'application/json', 'Retry-After': String(seconds) },
  });
const created = () =>
  new Response(JSON.stringify({ redirectUrl: '/success' }), {
    status: 201,
    headers: { 'Content-Type': 'application/json' },
  });

/** fetch answering each call with the next of `answers` (the last one again once they run out). */
function answers(...responses: (() => Response)[]) {
  let call = 0;
  const fetch = vi.fn(async () => responses[Math.min(call++, responses.length - 1)]!());
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** Whether `promise` has settled, once everything due by now has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('submitJson with a busy server (503 and Retry-After)', () => {
  test('waits as long as Retry-After says, tries again, and says it is still working', async () => {
    vi.useFakeTimers();
    const fetch = answers(
      () => busy(3),
      () => busy(2),
      created,
    );
    const statuses: string[] = [];
    const result = submitJson('/api/signup', { email: 'a@example.com' }, 'fallback', '/', {
      onBusy: (status) => statuses.push(status),
      busyStatus: 'Lots of people are signing up right now: still working…',
    });
    expect(await settled(result)).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await result).toEqual({ ok: true, redirectUrl: '/success' });
    expect(fetch).toHaveBeenCalledTimes(3);
    // The same request each time.
    expect(new Set(fetch.mock.calls.map((call) => JSON.stringify(call)))).toHaveProperty('size', 1);
    expect(statuses).toEqual([
      'Lots of people are signing up right now: still working…',
      'Lots of people are signing up right now: still working…',
    ]);
  });

  test('says STILL_WORKING when the form gives no status of its own', async () => {
    vi.useFakeTimers();
    answers(() => busy(1), created);
    const statuses: string[] = [];
    const result = submitJson('/api/signin', {}, 'fallback', '/', {
      onBusy: (status) => statuses.push(status),
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(await result).toEqual({ ok: true, redirectUrl: '/success' });
    expect(statuses).toEqual([STILL_WORKING]);
  });

  test('gives up after about a minute in all and shows the last refusal', async () => {
    vi.useFakeTimers();
    const fetch = answers(() => busy(10));
    const result = submitJson('/api/signup', {}, 'fallback', '/');
    // Tries at 0, 10, …, 60 s; the next turn (70 s) is past the minute: no more waiting.
    await vi.advanceTimersByTimeAsync(BUSY_PATIENCE_MS);
    expect(await result).toEqual({ ok: false, error: BUSY(10), field: undefined });
    expect(fetch).toHaveBeenCalledTimes(7);
  });

  test('does not wait at all when the turn it is given is past the minute', async () => {
    vi.useFakeTimers();
    const fetch = answers(() => busy(90));
    expect(await submitJson('/api/signup', {}, 'fallback', '/')).toEqual({
      ok: false,
      error: BUSY(90),
      field: undefined,
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  test('stops waiting when the form goes away (the dialog closed)', async () => {
    vi.useFakeTimers();
    const fetch = answers(() => busy(5), created);
    const leaving = new AbortController();
    const result = submitJson('/api/signup', {}, 'fallback', '/', { signal: leaving.signal });
    expect(await settled(result)).toBe(false);
    leaving.abort();
    expect(await result).toEqual({ ok: false, error: BUSY(5), field: undefined });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  test('takes a Retry-After date too, and waits at least a second', async () => {
    vi.useFakeTimers({ now: new Date('2026-05-01T12:00:00Z') });
    const fetch = answers(
      () =>
        new Response('{}', {
          status: 503,
          headers: { 'Retry-After': 'Fri, 01 May 2026 12:00:04 GMT' },
        }),
      () => new Response('{}', { status: 503, headers: { 'Retry-After': '0' } }),
      created,
    );
    const result = submitJson('/api/signup', {}, 'fallback', '/');
    await vi.advanceTimersByTimeAsync(3999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toEqual({ ok: true, redirectUrl: '/success' });
  });

  test('shows at once a 503 without Retry-After (a proxy), a 429, and a network failure on a retry', async () => {
    vi.useFakeTimers();
    answers(() => new Response('<html>Service Unavailable</html>', { status: 503 }));
    expect(await submitJson('/api/signup', {}, 'fallback', '/')).toEqual({
      ok: false,
      error: 'fallback',
      field: undefined,
    });
    const tooMany = answers(
      () =>
        new Response(JSON.stringify({ error: 'Too many attempts.' }), {
          status: 429,
          headers: { 'Retry-After': '60' },
        }),
    );
    expect(await submitJson('/api/signup', {}, 'fallback', '/')).toEqual({
      ok: false,
      error: 'Too many attempts.',
      field: undefined,
    });
    expect(tooMany).toHaveBeenCalledTimes(1);
    let call = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        if (call++ === 0) return busy(1);
        throw new TypeError('Failed to fetch');
      }),
    );
    const result = submitJson('/api/signup', {}, 'fallback', '/');
    await vi.advanceTimersByTimeAsync(1000);
    expect(await result).toEqual({ ok: false, error: NETWORK_ERROR });
  });
});
