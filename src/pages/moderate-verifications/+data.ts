// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { ModerateVerificationsView } from '../../../core/views/moderate-verifications.ts';
import { moderateVerificationsData } from './moderateVerificationsData.ts';

export type Data = ReturnType<typeof moderateVerificationsData>;

export const data = (pageContext: DataContext<ModerateVerificationsView>) =>
  moderateVerificationsData(pageContext);
