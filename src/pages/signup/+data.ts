// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import { signupData } from './signupData.ts';

export type Data = ReturnType<typeof signupData>;

export const data = (pageContext: DataContext) => signupData(pageContext);
