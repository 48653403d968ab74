// https://vike.dev/route
// Matches /terms and /privacy.
export default function route(pageContext: { urlPathname: string }) {
  const match = /^\/(terms|privacy)\/?$/.exec(pageContext.urlPathname);
  return match ? { routeParams: { slug: match[1] ?? '' } } : false;
}
