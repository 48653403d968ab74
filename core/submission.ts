/** What a form or a page script sent, in one shape: its kind (a form post or JSON) and its fields. */
export type Submission = { kind: 'json' | 'form'; fields: Record<string, unknown> };
