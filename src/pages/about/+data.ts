// https://vike.dev/data
import { aboutData } from './aboutData.ts';

export type Data = ReturnType<typeof aboutData>;

export const data = () => aboutData();
