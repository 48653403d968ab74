// What every page's data carries besides its own content: head metadata and the page chrome
// (header, footer). Each page type builds these from content in its data hook.
import type { FooterButton, HeaderMenu, RobotsDirective } from '../../core/schemas/state.ts';

export interface HeadMeta {
  title: string;
  description: string;
  /** Absolute canonical URL. */
  canonicalUrl: string;
  robots: RobotsDirective;
  ogType: 'website' | 'article';
  /** The page's Atom feed, announced in the head: its title and site-relative URL. */
  feed?: { title: string; href: string };
}

export interface PageChrome {
  brand: string;
  /** Footer line place: a state, a city, or "the United States". */
  place: string;
  headerMenu: HeaderMenu;
  footerButton: FooterButton;
  brandPrefix: boolean;
}

export interface PageShell {
  head: HeadMeta;
  chrome: PageChrome;
  /**
   * `members`: the server renders the page only for a signed-in member and sends anyone else to
   * sign in first (server/http/pages.ts). Such a page is never prerendered.
   * `moderators`: rendered only for a signed-in moderator; anyone else gets the not-found screen,
   * as if the page did not exist.
   */
  access?: 'members' | 'moderators';
}

/** Where the footer names no particular state or city. */
export const NATIONWIDE = 'the United States';
