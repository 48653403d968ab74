// The request path as names on disk: a segment that names this folder or the one above, even
// percent-encoded, is never a file of the site.
import { describe, expect, it } from 'vitest';
import { pathSegments } from '../../../../server/http/static-site.ts';

describe('pathSegments', () => {
  it('names the files of a path', () => {
    expect(pathSegments('/california/los-angeles/')).toEqual(['california', 'los-angeles']);
  });

  it.each(['/%2e/index.html', '/%2e%2e/secret.txt', '/a/%2E', '/a%2fb', '/%00'])(
    'refuses %s',
    (path) => {
      expect(pathSegments(path)).toBeUndefined();
    },
  );
});
