// The data of a moderators' page that decides one thing at a time (appeals, verifications):
// its shell, for moderators only, the server's read, the notice of the last decision
// (`?done=…`) and a refused form's message and values.
import { pageShell } from '../renderer/shell.ts';
import type { PageRequest } from './request.ts';

interface ModeratorPage {
  title: string;
  description: string;
  path: string;
  /** What the page says after each decision, by its `done` value. */
  doneNotices: Readonly<Record<string, string>>;
}

export function moderatorPageData<View>(
  request: PageRequest<View> | undefined,
  page: ModeratorPage,
) {
  const done = request?.query.done;
  return {
    ...pageShell({
      title: page.title,
      description: page.description,
      path: page.path,
      robots: 'noindex, nofollow',
    }),
    access: 'moderators' as const,
    /** Absent on the dev server, which has no database. */
    view: request?.read,
    notice: done ? page.doneNotices[done] : undefined,
    error: request?.form?.error,
    typed: request?.form?.values ?? {},
  };
}
