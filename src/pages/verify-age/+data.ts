// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { VerifyAgeView } from '../../../core/views/age-assurance.ts';
import { verifyAgeData } from './verifyAgeData.ts';

export type Data = ReturnType<typeof verifyAgeData>;

export const data = (pageContext: DataContext<VerifyAgeView>) => verifyAgeData(pageContext);
