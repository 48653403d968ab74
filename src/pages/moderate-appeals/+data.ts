// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { ModerateAppealsView } from '../../../core/views/moderate-appeals.ts';
import { moderateAppealsData } from './moderateAppealsData.ts';

export type Data = ReturnType<typeof moderateAppealsData>;

export const data = (pageContext: DataContext<ModerateAppealsView>) =>
  moderateAppealsData(pageContext);
