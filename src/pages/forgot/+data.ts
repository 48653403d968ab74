// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import { forgotData } from './forgotData.ts';

export type Data = ReturnType<typeof forgotData>;

export const data = (pageContext: DataContext) => forgotData(pageContext);
