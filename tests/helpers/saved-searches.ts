// Saved searches in tests: a member saves a search as the form on /search does (no JavaScript),
// and `npm run alerts -- send` is given the fixture's database, index and a public base URL.
import { expect } from 'vitest';
import { cookieHeader, postForm } from './api.ts';
import type { TestMember } from './posting.ts';
import type { SearchFixture } from './search-fixture.ts';

/** The member saves the search of `query` (a /search query string); it must be accepted. */
export async function saveSearchAs(
  fixture: SearchFixture,
  member: TestMember,
  query: string,
): Promise<void> {
  const saved = await postForm(
    fixture.app,
    `/api/saved-searches?${query}`,
    { query },
    cookieHeader(member.session),
  );
  expect(saved.status).toBe(303);
}

/** The environment `npm run alerts -- send` runs in beside the fixture's app. */
export const alertsEnv = (
  fixture: SearchFixture,
  settings: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv => ({
  ...process.env,
  ...fixture.env,
  COMPILED_CONTENT_DIR: fixture.compiledDir,
  PUBLIC_BASE_URL: 'https://localboard.example',
  ...settings,
});
