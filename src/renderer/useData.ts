// Pages read their data hook's result with useData<Data>(), rendered into a React context.
import { createContext, useContext } from 'react';

export const DataContext = createContext<unknown>(undefined);

export function useData<Data>(): Data {
  return useContext(DataContext) as Data;
}
