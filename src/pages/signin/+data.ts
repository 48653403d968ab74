// https://vike.dev/data
import { signinData } from './signinData.ts';

export type Data = ReturnType<typeof signinData>;

export const data = () => signinData();
