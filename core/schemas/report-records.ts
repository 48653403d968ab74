// What the store keeps about reports and the ads they hide (docs/product.md section 8) in the words
// the moderators' pages show them: shared by the store (store/parts/reports.ts,
// store/parts/hidden-ads.ts), which keeps the rows, and the report pages
// (core/views/reports.ts).

/** Which source an ad's id is from: a member's (the database) or an editor's (content/ads/). */
export type AdKind = 'member' | 'editor';

/** Why an ad is off the site while its reports wait (hidden_ads). */
export type HiddenWhy = 'reports' | 'under-18' | 'removed';

/** A message of a reported conversation, as it was when the report was sent. */
export interface ThreadLine {
  /** The reporter wrote it, or the member they reported. */
  from: 'reporter' | 'reported';
  at: string;
  body: string;
}
