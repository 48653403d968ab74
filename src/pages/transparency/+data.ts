// https://vike.dev/data
import { transparencyData } from './transparencyData.ts';

export type Data = ReturnType<typeof transparencyData>;

export const data = () => transparencyData();
