// The code that compiled what the compiled-content caches hold: results cached between builds are
// trusted only while it is unchanged. The build passes the stamp of the project's sources (the one
// that decides when Vite runs, scripts/build.mjs); run on its own (`npm run compile:content`) the
// compiler takes the same stamp itself, from the project folder it runs in.
import { filesStamp, PROJECT_SOURCES } from '../fingerprint.mjs';

export function compileCodeFingerprint(): string {
  return (process.env.LOCALBOARD_SOURCES ??= filesStamp(process.cwd(), PROJECT_SOURCES));
}
