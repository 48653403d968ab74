// Where sign-in may send the browser afterwards: a path of this site, never another site.
import { describe, expect, test } from 'vitest';
import { localPath } from '../../core/local-path.ts';

describe('localPath', () => {
  test.each([
    ['/account', '/account'],
    ['/account?sent=1', '/account?sent=1'],
    ['/city/New%20York/New%20York%20City', '/city/New%20York/New%20York%20City'],
    ['/a/../account', '/account'],
  ])('keeps %s as %s', (next, path) => {
    expect(localPath(next)).toBe(path);
  });

  test.each([
    'https://elsewhere.example/',
    '//elsewhere.example/',
    '/\\elsewhere.example',
    '\\\\elsewhere.example',
    '/\telsewhere',
    'account',
    'javascript:alert(1)',
    '',
    `/${'a'.repeat(2001)}`,
    42,
    undefined,
    ['/account'],
  ])('refuses %j', (next) => {
    expect(localPath(next)).toBeUndefined();
  });
});
