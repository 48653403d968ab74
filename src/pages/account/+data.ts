// https://vike.dev/data
import type { DataContext } from '../registry.ts';
import type { AccountView } from '../../../core/views/account.ts';
import { accountData } from './accountData.ts';

export type Data = ReturnType<typeof accountData>;

export const data = (pageContext: DataContext<AccountView>) => accountData(pageContext);
