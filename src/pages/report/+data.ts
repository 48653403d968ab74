// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { ReportTarget } from '../../../core/views/reports.ts';
import { reportData } from './reportData.ts';

export type Data = ReturnType<typeof reportData>;

export const data = (pageContext: DataContext<ReportTarget>) => reportData(pageContext);
