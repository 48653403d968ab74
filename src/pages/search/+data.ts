// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import { searchData } from './searchData.ts';

export type Data = ReturnType<typeof searchData>;

export const data = (pageContext: DataContext) => searchData(pageContext);
