// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { LinkState } from '../request.ts';
import { resetData } from './resetData.ts';

export type Data = ReturnType<typeof resetData>;

export const data = (pageContext: DataContext<LinkState>) => resetData(pageContext);
