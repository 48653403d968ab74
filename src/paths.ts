// URL shapes of the public site (product.md section 3): names are the full names, URL-encoded.
// Pages, the content compiler, the prerenderer and the server all build paths here.

const segment = (name: string) => encodeURIComponent(name);

export const homePath = () => '/';
export const statePath = (state: string) => `/state/${segment(state)}`;
export const cityPath = (state: string, city: string, page = 1) =>
  `/city/${segment(state)}/${segment(city)}${page > 1 ? `/page/${page}` : ''}`;
export const adPath = (state: string, city: string, adId: number) =>
  `/city/${segment(state)}/${segment(city)}/ad/${adId}`;
export const aboutPath = () => '/about';
export const guidePath = (slug: string) => `/about/${segment(slug)}`;
export const legalPath = (slug: 'terms' | 'privacy') => `/${slug}`;
export const signupPath = () => '/signup';
export const signinPath = () => '/signin';
export const successPath = () => '/success';

/** Ads shown on one page of a city's list. */
export const ADS_PER_PAGE = 30;

/**
 * Where a page's HTML is stored in the static output: decoded names, so that any static host
 * (which decodes the request path) finds `/city/South%20Dakota/De%20Smet` at
 * `city/South Dakota/De Smet/index.html`.
 */
export function outputFileForPath(urlPath: string): string {
  const parts = urlPath.split('/').filter(Boolean).map(decodeURIComponent);
  return [...parts, 'index.html'].join('/');
}

/**
 * The not-found screens in the static output. The server answers 404 with the specific one;
 * a static host serves 404.html (see the README for mapping the others on nginx).
 */
export const NOT_FOUND_FILES = {
  page: '404.html',
  state: '_not-found/state.html',
  city: '_not-found/city.html',
  ad: '_not-found/ad.html',
} as const;
