// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { ModerationReportsView } from '../../../core/views/reports.ts';
import { moderateReportsData } from './moderateReportsData.ts';

export type Data = ReturnType<typeof moderateReportsData>;

export const data = (pageContext: DataContext<ModerationReportsView>) =>
  moderateReportsData(pageContext);
