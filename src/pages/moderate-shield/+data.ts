// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { ModerateShieldView } from '../../../core/views/shield-review.ts';
import { moderateShieldData } from './moderateShieldData.ts';

export type Data = ReturnType<typeof moderateShieldData>;

export const data = (pageContext: DataContext<ModerateShieldView>) =>
  moderateShieldData(pageContext);
