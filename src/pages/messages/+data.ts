// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import { inboxData } from './inboxData.ts';

export type Data = ReturnType<typeof inboxData>;

export const data = (pageContext: DataContext) => inboxData(pageContext);
