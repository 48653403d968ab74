// https://vike.dev/data
import { adData } from './adData.ts';

export type Data = ReturnType<typeof adData>;

export const data = (pageContext: { routeParams: Record<string, string> }) =>
  adData(
    pageContext.routeParams.stateName ?? '',
    pageContext.routeParams.cityName ?? '',
    pageContext.routeParams.adId ?? '',
  );
