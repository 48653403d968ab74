// What the account page's "Who may reach me" form shows (docs/product.md section 7): the member's
// settings as the form's fields hold them (server/messages/reach.ts reads them). Types only, in
// the kernel: the server builds it, the page shows it.

export interface ReachSettingsView {
  /** The youngest age accepted, or '' for none. */
  minAge: string;
  maxAge: string;
  /** One a line. */
  hiddenWords: string;
  /** Only verified members may write first. */
  verifiedOnly: boolean;
}
