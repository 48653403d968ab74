// https://vike.dev/data
import { successData } from './successData.ts';

export type Data = ReturnType<typeof successData>;

export const data = () => successData();
