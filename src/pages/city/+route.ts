// https://vike.dev/route
// Matches /city/{state}/{city} and /city/{state}/{city}/page/{n}.
import { decodeSegment } from '../../../renderer/decode-segment.ts';

const CITY_PATH = /^\/city\/([^/]+)\/([^/]+)(?:\/page\/(\d+))?\/?$/;

export default function route(pageContext: { urlPathname: string }) {
  const match = CITY_PATH.exec(pageContext.urlPathname);
  if (!match) return false;
  return {
    routeParams: {
      stateName: decodeSegment(match[1] ?? ''),
      cityName: decodeSegment(match[2] ?? ''),
      page: match[3] ?? '1',
    },
  };
}
