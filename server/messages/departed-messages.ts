// A member who leaves (docs/product.md section 7, issue 54): when an account is deleted, its
// messages stay in each conversation whose other side is still a member, for DEPARTED_KEPT_DAYS,
// so that the member it wrote to can still read them and report the conversation (reports copy
// the thread, as always). The conversation is closed, and its page says, in words, that this
// member has left and until when their messages are kept. Then the hourly sweep deletes them, as
// the account's deletion would have (server/index.ts). A legitimate interest, limited in time:
// the privacy page and the delete-account page say so. A banned account is not deleted: its
// messages stay as they are, its conversations closed and reportable.
import type { Store } from '../../store/store.ts';

/** How long a deleted account's messages stay for the other side. */
export const DEPARTED_KEPT_DAYS = 30;

/** Until when the messages of an account deleted `now` are kept. */
export const keptUntil = (now: Date) =>
  new Date(now.getTime() + DEPARTED_KEPT_DAYS * 24 * 60 * 60 * 1000).toISOString();

/** The sweep: deletes the departed members' messages whose days are over; how many. */
export const forgetDepartedMessages = (store: Store, now: Date) =>
  store.conversations.deleteKeptBefore(now.toISOString());
