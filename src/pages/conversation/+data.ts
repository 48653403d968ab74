// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import { conversationData } from './conversationData.ts';

export type Data = ReturnType<typeof conversationData>;

export const data = (pageContext: DataContext) => conversationData(pageContext);
