// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { NewMessageView } from '../../../core/views/messages.ts';
import { newMessageData } from './newMessageData.ts';

export type Data = ReturnType<typeof newMessageData>;

export const data = (pageContext: DataContext<NewMessageView>) => newMessageData(pageContext);
