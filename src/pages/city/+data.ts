// https://vike.dev/data
import { cityData } from './cityData.ts';

export type Data = ReturnType<typeof cityData>;

export const data = (pageContext: { routeParams: Record<string, string> }) =>
  cityData(
    pageContext.routeParams.stateName ?? '',
    pageContext.routeParams.cityName ?? '',
    Number(pageContext.routeParams.page ?? '1'),
  );
