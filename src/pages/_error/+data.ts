// https://vike.dev/data
import { errorPageData, type ErrorPageInput } from './errorPageData.ts';

export type Data = ReturnType<typeof errorPageData>;

export const data = (pageContext: ErrorPageInput) => errorPageData(pageContext);
