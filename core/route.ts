// A URL shape, written once as Vike-style patterns ('/city/@stateName/@cityName'), that both builds
// paths and matches them: core/paths.ts declares the site's routes with it, each page folder's
// +route.ts hands its route to Vike, and the prerenderer and the server match and build URLs with
// the same object. A `@name(a|b)` segment only matches one of the listed values, and a
// `@name(\d+)` segment only digits (so `/messages/@conversationId(\d+)` leaves `/messages/new` alone).
import { decodeSegment } from './decode-segment.ts';

export type RouteParams = Record<string, string>;

interface Segment {
  literal?: string;
  param?: string;
  /** The only values a `@name(a|b)` segment matches. */
  allowed?: readonly string[];
  /** A `@name(\d+)` segment: digits only. */
  digits?: true;
}

export interface Route<Params extends Partial<RouteParams>> {
  readonly patterns: readonly string[];
  /** The path of the most specific pattern whose parameters are all given, URL-encoded. */
  path(params: Params): string;
  /** The parameters, decoded, when the path has this shape (a trailing slash is allowed). */
  match(pathname: string): Params | undefined;
}

/** A Vike route function (https://vike.dev/route-function) that carries its route. */
export type VikeRouteFunction = ((pageContext: {
  urlPathname: string;
}) => { routeParams: RouteParams } | false) & { route: Route<Partial<RouteParams>> };

function parsePattern(pattern: string): Segment[] {
  return pattern
    .split('/')
    .filter(Boolean)
    .map((part) => {
      const param = /^@(\w+)(?:\(([^)]+)\))?$/.exec(part);
      if (!param) return { literal: part };
      if (param[2] === '\\d+') return { param: param[1]!, digits: true };
      return { param: param[1]!, ...(param[2] ? { allowed: param[2].split('|') } : {}) };
    });
}

export function defineRoute<Params extends Partial<RouteParams>>(
  ...patterns: [string, ...string[]]
): Route<Params> {
  // Most specific first: more segments, then more literal segments.
  const shapes = patterns
    .map((pattern) => ({ pattern, segments: parsePattern(pattern) }))
    .sort((a, b) => b.segments.length - a.segments.length);
  return {
    patterns,
    path(params) {
      const given = (name: string) => params[name] !== undefined && params[name] !== '';
      const shape = shapes.find(({ segments }) =>
        segments.every((segment) => !segment.param || given(segment.param)),
      );
      if (!shape) throw new Error(`No pattern of ${patterns.join(', ')} fits these parameters`);
      const parts = shape.segments.map((segment) =>
        segment.param ? encodeURIComponent(params[segment.param]!) : segment.literal!,
      );
      return `/${parts.join('/')}`;
    },
    match(pathname) {
      const parts = pathname.split('/').filter((part, index, all) => {
        // Leading slash, and one trailing slash, are not segments; empty inner segments are.
        return !(part === '' && (index === 0 || index === all.length - 1));
      });
      for (const { segments } of shapes) {
        if (segments.length !== parts.length) continue;
        const params: RouteParams = {};
        const fits = segments.every((segment, index) => {
          const raw = parts[index]!;
          if (segment.literal !== undefined) return raw === segment.literal;
          const value = decodeSegment(raw);
          if (value === '' || (segment.allowed && !segment.allowed.includes(value))) return false;
          if (segment.digits && !/^\d+$/.test(value)) return false;
          params[segment.param!] = value;
          return true;
        });
        if (fits) return params as Params;
      }
      return undefined;
    },
  };
}

/** The route as Vike's +route.ts default export. */
export function vikeRoute(route: Route<Partial<RouteParams>>): VikeRouteFunction {
  const matchForVike = (pageContext: { urlPathname: string }) => {
    const params = route.match(pageContext.urlPathname);
    return params ? { routeParams: params as RouteParams } : (false as const);
  };
  return Object.assign(matchForVike, { route });
}
