// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { InboxView } from '../../../core/views/messages.ts';
import { inboxData } from './inboxData.ts';

export type Data = ReturnType<typeof inboxData>;

export const data = (pageContext: DataContext<InboxView>) => inboxData(pageContext);
