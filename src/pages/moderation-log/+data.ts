// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { ModerationLogView } from '../../../core/views/moderation.ts';
import { moderationLogData } from './moderationLogData.ts';

export type Data = ReturnType<typeof moderationLogData>;

export const data = (pageContext: DataContext<ModerationLogView>) => moderationLogData(pageContext);
