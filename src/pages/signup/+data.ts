// https://vike.dev/data
import { signupData } from './signupData.ts';

export type Data = ReturnType<typeof signupData>;

export const data = () => signupData();
