// What the server reads for a page rendered on request: server/http/page-reads/{page folder}.ts
// exports `read = pageRead<View>({ for, onRequestWhen?, read })`, typed by the page folder's own
// view type (the type its +data.ts reads from `request.read`). server/http/pages.ts finds them by
// file name (import.meta.glob), so a read belongs to exactly one page folder, and the page folder
// stays web only. What a read needs from the server comes through one object,
// PageReadDeps, given to the page server once by createApp. Apart from server/http/pages.ts so that the
// reads, which it loads, never import it back.
import type { SearchIndex } from '../../search/search-index.ts';
import type { AppContext, Member } from './app-env.ts';
import type { EmailLinks } from '../accounts/email-links.ts';
import type { Pusher } from '../push/pusher.ts';
import type { Store } from '../../store/store.ts';
import type { FormFill } from '../../core/views/form-fill.ts';
import type { RouteParams } from '../../core/route.ts';

export type RefusalStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 429 | 503;

export type PageStatus = 200 | RefusalStatus;

/** Whom a page's read is for: it runs only for them (anyone; a signed-in member; a moderator). */
export type Audience = 'anyone' | 'members' | 'moderators';

/** What the server lends every page read, built once in createApp. */
export interface PageReadDeps {
  store: Store;
  /** The index /search reads (search/search-index.ts). */
  search: SearchIndex;
  /** What an emailed link's token is now (server/accounts/email-links.ts). */
  links: Pick<EmailLinks, 'stateOf'>;
  /** The clock. */
  now: () => Date;
  /** A photo whose explicit score is at or over it is likely explicit (server/photos/app-photos.ts). */
  explicitThreshold: number;
  /** Web Push's settings: whether the account page offers notifications (server/push/). */
  pusher: Pick<Pusher, 'settings'>;
}

/** The request a page is read for. */
export interface PageReadRequest<For extends Audience> {
  c: AppContext;
  /** Always there for a read for members or moderators. */
  member: For extends 'anyone' ? Member | undefined : Member;
  /** The page's route parameters (its folder's +route.ts). */
  params: Partial<RouteParams>;
  /** A refused form of this page, shown again: what was typed says what the form was about. */
  form?: FormFill;
}

/** A read's result: the page's view (its +data.ts's `request.read`), and its status when not 200. */
export interface PageReading<View> {
  view?: View;
  status?: PageStatus;
}

interface PageReadDeclaration<View, For extends Audience> {
  for: For;
  /** A prerendered page is rendered on request, instead of served as its file, when this holds. */
  onRequestWhen?: (query: Readonly<Record<string, string>>) => boolean;
  /** What the page needs from the server; a Response (a redirect) answers instead of the page. */
  read?: (
    request: PageReadRequest<For>,
    deps: PageReadDeps,
  ) => Promise<PageReading<View> | Response> | PageReading<View> | Response;
}

/** A page's server read, as server/http/pages.ts runs it. */
export type PageRead = PageReadDeclaration<unknown, Audience>;

/** Declares a page's server read: `View` is the folder's own view type; `for` types the member. */
export function pageRead<View>(declaration: PageReadDeclaration<View, 'anyone'>): PageRead;
export function pageRead<View>(
  declaration: PageReadDeclaration<View, 'members' | 'moderators'>,
): PageRead;
export function pageRead<View>(declaration: PageReadDeclaration<View, Audience>): PageRead {
  return declaration as PageRead;
}
