// https://vike.dev/data
import { guideData } from './guideData.ts';

export type Data = ReturnType<typeof guideData>;

export const data = (pageContext: { routeParams: Record<string, string> }) =>
  guideData(pageContext.routeParams.slug ?? '');
