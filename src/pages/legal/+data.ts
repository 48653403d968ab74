// https://vike.dev/data
import { legalData } from './legalData.ts';

export type Data = ReturnType<typeof legalData>;

export const data = (pageContext: { routeParams: Record<string, string> }) =>
  legalData(pageContext.routeParams.slug ?? '');
