// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import { signinData } from './signinData.ts';

export type Data = ReturnType<typeof signinData>;

export const data = (pageContext: DataContext) => signinData(pageContext);
