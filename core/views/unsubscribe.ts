// What the server hands /unsubscribe/{token} about the saved search its link is for
// (src/pages/request.ts). Types only, in the kernel: the server builds it, the page shows it.

export type UnsubscribeView =
  /** `confirm`: the link works, and its button deletes the saved search; `done`: it just did. */
  | { state: 'confirm' | 'done'; label: string; searchUrl: string }
  /** No saved search has this link: unknown, already used, or not a link of ours at all. */
  | { state: 'gone' };
