// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { ConversationPageView } from '../../../core/views/messages.ts';
import { conversationData } from './conversationData.ts';

export type Data = ReturnType<typeof conversationData>;

export const data = (pageContext: DataContext<ConversationPageView>) =>
  conversationData(pageContext);
