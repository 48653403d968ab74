// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import { inReviewData } from './inReviewData.ts';

export type Data = ReturnType<typeof inReviewData>;

export const data = (pageContext: DataContext) => inReviewData(pageContext);
