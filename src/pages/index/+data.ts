// https://vike.dev/data
import { landingData } from './landingData.ts';

export type Data = ReturnType<typeof landingData>;

export const data = () => landingData();
