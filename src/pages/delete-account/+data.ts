// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import { deleteAccountData } from './deleteAccountData.ts';

export type Data = ReturnType<typeof deleteAccountData>;

export const data = (pageContext: DataContext) => deleteAccountData(pageContext);
