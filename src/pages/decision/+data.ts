// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { DecisionView } from './decision-view.ts';
import { decisionData } from './decisionData.ts';

export type Data = ReturnType<typeof decisionData>;

export const data = (pageContext: DataContext<DecisionView>) => decisionData(pageContext);
