// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { SearchView } from './search-view.ts';
import { searchData } from './searchData.ts';

export type Data = ReturnType<typeof searchData>;

export const data = (pageContext: DataContext<SearchView>) => searchData(pageContext);
