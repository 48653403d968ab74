// Where a form may send the browser after it succeeds (sign-in's `next`): only a path of this
// site, never another one (docs/product.md section 2: no redirect to a third party).
const BASE = 'http://localboard.invalid';

export function localPath(next: unknown): string | undefined {
  if (typeof next !== 'string' || next.length > 2000) return undefined;
  // `//host`, `/\\host` and control characters can make a browser leave the site.
  if (!next.startsWith('/') || /^\/[/\\]/.test(next) || /[\u0000-\u001f\\]/.test(next))
    return undefined;
  try {
    const url = new URL(next, BASE);
    return url.origin === BASE ? `${url.pathname}${url.search}` : undefined;
  } catch {
    return undefined;
  }
}
