// A row's id as it comes in from outside (a URL's path or query, a form's field): digits only,
// at most 15 of them (a safe integer), or nothing. The one parser: ads, photos, accounts,
// conversations, reports and saved searches are all numbered so.
export const ID_DIGITS = /^\d{1,15}$/;

/** The id a text names, or undefined for anything else (empty, signed, spaced, too long). */
export const idOf = (text: unknown): number | undefined =>
  typeof text === 'string' && ID_DIGITS.test(text) ? Number(text) : undefined;
