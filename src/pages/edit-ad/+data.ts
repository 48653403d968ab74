// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { MemberAdView } from '../../../core/schemas/member-ad-view.ts';
import { editAdData } from './editAdData.ts';

export type Data = ReturnType<typeof editAdData>;

export const data = (pageContext: DataContext<MemberAdView>) => editAdData(pageContext);
