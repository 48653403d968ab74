// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { LinkState } from '../request.ts';
import { verifyData } from './verifyData.ts';

export type Data = ReturnType<typeof verifyData>;

export const data = (pageContext: DataContext<LinkState>) => verifyData(pageContext);
