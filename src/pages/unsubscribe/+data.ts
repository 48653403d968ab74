// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { UnsubscribeView } from '../../../core/views/unsubscribe.ts';
import { unsubscribeData } from './unsubscribeData.ts';

export type Data = ReturnType<typeof unsubscribeData>;

export const data = (pageContext: DataContext<UnsubscribeView>) => unsubscribeData(pageContext);
