// The random tokens the server hands out (sessions, known browsers, emailed links) and the hash it
// keeps of each instead: a leaked database holds no working token. No HTTP here: the cookies that
// carry some of them are session-cookie.ts.
import { createHash, randomBytes } from 'node:crypto';

export const newSessionToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest();
