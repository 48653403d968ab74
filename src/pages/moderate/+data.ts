// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { ModerationQueueView } from '../../../core/views/moderation.ts';
import { moderateData } from './moderateData.ts';

export type Data = ReturnType<typeof moderateData>;

export const data = (pageContext: DataContext<ModerationQueueView>) => moderateData(pageContext);
