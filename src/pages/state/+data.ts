// https://vike.dev/data
import { stateData } from './stateData.ts';

export type Data = ReturnType<typeof stateData>;

export const data = (pageContext: { routeParams: Record<string, string> }) =>
  stateData(pageContext.routeParams.stateName ?? '');
