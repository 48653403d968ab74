// The posting form (/post, and editing an ad at /account/ads/{id}/edit): the same field rules as
// editors' CSV ads (ad-fields.ts), worded for the person filling the form in. The browser, the
// no-JavaScript form post and the JSON API all go through `checkAdForm`, so they accept and refuse
// exactly the same ads. Values arrive as a form gives them: text (age too).
import { z } from 'zod';
import {
  AD_AGE_MAX,
  AD_AGE_MIN,
  AD_DESCRIPTION_MAX,
  AD_FIELD_NAMES,
  AD_TITLE_MAX,
  adFieldSchemas,
  type AdFieldName,
  type AdFieldWording,
} from './ad-fields.ts';
import { US_STATE_NAMES } from './us-states.ts';

export { AD_AGE_MAX, AD_AGE_MIN, AD_DESCRIPTION_MAX, AD_TITLE_MAX, type AdFieldName };

/** The form's fields, in the order they are shown. */
export const AD_FORM_FIELDS = AD_FIELD_NAMES;
/** What an edit may change: an ad's place is part of its address, so it stays. */
export const AD_EDIT_FIELDS = ['age', 'seeks', 'title', 'description'] as const;

const LABELS: Record<AdFieldName, string> = {
  state: 'State',
  city: 'City',
  age: 'Age',
  seeks: 'Looking for',
  title: 'Title',
  description: 'Description',
};

const REQUIRED: Record<AdFieldName, string> = {
  state: 'Choose your state.',
  city: 'Enter your city.',
  age: 'Enter your age.',
  seeks: 'Choose who you are and who you are looking for.',
  title: 'Give your ad a title.',
  description: 'Write a description.',
};

const count = (n: number) => n.toLocaleString('en-US');

const FORM_WORDING: AdFieldWording = {
  required: (field) => REQUIRED[field],
  notText: (field) => `${LABELS[field]} must be text.`,
  tooLong: (field, max, length) =>
    `${LABELS[field]} must be at most ${count(max)} characters (it has ${count(length)}).`,
  notOneLine: (field) => `${LABELS[field]} must be on one line.`,
  ageNotWholeNumber: () => 'Age must be a whole number, like 30.',
  ageTooLow: (min) => `You must be ${min} or over to post an ad.`,
  ageTooHigh: (max) => `Age must be ${max} or under.`,
  seeksUnknown: () => 'Choose one of the options in the list.',
};

export const NOT_A_STATE = 'Choose one of the 50 states from the list.';
export const unknownCity = (city: string, state: string) =>
  `We don't list a city called "${city}" in ${state}. Choose one of the suggested cities, or the nearest one.`;

const field = adFieldSchemas(FORM_WORDING);
const STATE_NAMES = new Set<string>(US_STATE_NAMES);

/** A JSON client may send the age as a number; the form sends text. */
const ageAsText = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
/** Browsers send a textarea's line breaks as CRLF; they count, and are kept, as one character. */
const unixLineBreaks = (value: unknown) =>
  typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : value;

const unexpectedKeys = {
  error: (issue: z.core.$ZodRawIssue) =>
    issue.code === 'unrecognized_keys' ? `Unexpected field: ${issue.keys.join(', ')}.` : undefined,
};

/** A new ad, as posted. */
export const adFormSchema = z.strictObject(
  {
    state: field.state.refine((state) => STATE_NAMES.has(state), { error: NOT_A_STATE }),
    city: field.city,
    age: z.preprocess(ageAsText, field.age),
    seeks: field.seeks,
    title: field.title,
    description: z.preprocess(unixLineBreaks, field.description),
  },
  unexpectedKeys,
);

/** An edit of an ad: everything but its place. */
export const adEditSchema = adFormSchema.omit({ state: true, city: true });

export type AdFormInput = z.infer<typeof adFormSchema>;
export type AdEditInput = z.infer<typeof adEditSchema>;

/** Each field's first problem (`form` for one about the request as a whole). */
export type AdFormProblems = Partial<Record<AdFieldName | 'photos' | 'form', string>>;

export type AdFormCheck<T> = { ok: true; ad: T } | { ok: false; problems: AdFormProblems };

/**
 * Checks a posted ad: the schema, then (when both are otherwise fine) whether the city is one we
 * list in that state. `hasCity` is the compiled content's on the server; the browser, which
 * knows only the cities it has loaded, may leave the last word to the server.
 */
export function checkAdForm(
  values: Readonly<Record<string, unknown>>,
  hasCity?: (state: string, city: string) => boolean,
): AdFormCheck<AdFormInput> {
  const parsed = adFormSchema.safeParse(values);
  const problems = parsed.success ? {} : problemsOf(parsed.error);
  if (hasCity && !problems.state && !problems.city) {
    const state = String(values.state).trim();
    const city = String(values.city).trim();
    if (!hasCity(state, city)) problems.city = unknownCity(city, state);
  }
  return parsed.success && Object.keys(problems).length === 0
    ? { ok: true, ad: parsed.data }
    : { ok: false, problems };
}

/** Checks an edit (no state or city: they stay as posted). */
export function checkAdEdit(values: Readonly<Record<string, unknown>>): AdFormCheck<AdEditInput> {
  const parsed = adEditSchema.safeParse(values);
  return parsed.success
    ? { ok: true, ad: parsed.data }
    : { ok: false, problems: problemsOf(parsed.error) };
}

function problemsOf(error: z.ZodError): AdFormProblems {
  const problems: AdFormProblems = {};
  for (const issue of error.issues) {
    const name = issue.path[0];
    const key = typeof name === 'string' && name in LABELS ? (name as AdFieldName) : 'form';
    problems[key] ??= issue.message;
  }
  return problems;
}

// The photo fields of the posting and edit forms (docs/product.md section 10): the forms are
// multipart; new files come in `photos`; photos already kept (the ad's, or uploads kept from a
// refused post) come back as repeated `photo` ids in display order, each with `photo_alt_{id}`
// and, on the edit page, `photo_remove_{id}` = "1". With JavaScript, `new_photo_alt` (one a new
// file, in order) and `photo_order` (`p{id}` / `f{index}` tokens) may come too.

/** The file input's name. */
export const PHOTO_FILES_FIELD = 'photos';
/** A kept photo's id, repeated in display order. */
export const KEPT_PHOTO_FIELD = 'photo';
export const photoAltField = (id: number) => `photo_alt_${id}`;
export const photoRemoveField = (id: number) => `photo_remove_${id}`;
export const NEW_PHOTO_ALT_FIELD = 'new_photo_alt';
export const PHOTO_ORDER_FIELD = 'photo_order';
/** The types the file input offers (the server reads the type from the bytes whatever it says). */
export const PHOTO_ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif';

/** Whether a posted field belongs to the photos (and not to the ad's text, which is strict). */
export const isPhotoFieldName = (name: string) =>
  name === PHOTO_FILES_FIELD ||
  name === KEPT_PHOTO_FIELD ||
  name === NEW_PHOTO_ALT_FIELD ||
  name === PHOTO_ORDER_FIELD ||
  /^photo_(alt|remove)_/.test(name);

/** The posted fields without the photo fields: what checkAdForm / checkAdEdit read. */
export const adTextFields = (fields: Readonly<Record<string, unknown>>) =>
  Object.fromEntries(Object.entries(fields).filter(([name]) => !isPhotoFieldName(name)));

/**
 * A photo as the form shows it (kept from a refused post, or the ad's own on the edit page): its
 * thumbnail through the server (the member's own photo), and what the member set for it.
 */
export interface FormPhoto {
  id: number;
  /** The member's alt text ('' for the default). */
  alt: string;
  /** The thumbnail: /api/photos/{id}/320 and its size. */
  previewUrl: string;
  width: number;
  height: number;
  /** The member ticked "Remove this photo" (a refused edit shows it ticked again). */
  remove?: boolean;
  /** Added to a live ad, waiting for a moderator. */
  pending?: boolean;
  /** A moderator removed it: the reason the member reads (no longer on the ad, not counted). */
  removedReason?: string;
}
