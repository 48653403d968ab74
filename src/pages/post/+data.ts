// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import { postData } from './postData.ts';

export type Data = ReturnType<typeof postData>;

export const data = (pageContext: DataContext) => postData(pageContext);
