// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import { moderateReportsData } from './moderateReportsData.ts';

export type Data = ReturnType<typeof moderateReportsData>;

export const data = (pageContext: DataContext) => moderateReportsData(pageContext);
