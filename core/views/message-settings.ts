// What the account page's "Messages" form shows (docs/product.md section 7): the member's settings
// as its fields hold them (server/messages/message-settings.ts reads them). Types only, in the
// kernel: the server builds it, the page shows it.
import type { RequestMails } from '../schemas/message-settings.ts';

export interface MessageSettingsView {
  requestMails: RequestMails;
  readReceipts: boolean;
}
