import { afterEach, describe, expect, test, vi } from 'vitest';
import { NETWORK_ERROR, sameSiteRedirect, submitJson } from '../../../src/client/submit-json.ts';

afterEach(() => vi.unstubAllGlobals());

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
