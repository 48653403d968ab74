// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { VerificationView } from '../../../core/views/verification.ts';
import { verificationData } from './verificationData.ts';

export type Data = ReturnType<typeof verificationData>;

export const data = (pageContext: DataContext<VerificationView>) => verificationData(pageContext);
