// An ad row: content/ads/*.csv, one ad a row. Cross-file rules (state and city exist, id unique,
// blocked terms, expiry) are checked by the content compiler, which has the whole picture.
import { z } from 'zod';
import { AD_FIELD_NAMES, adFieldSchemas, SEEKS_VALUES, type AdFieldWording } from './ad-fields.ts';
import { csvBoolean, csvInteger, isoDate } from './fields.ts';

export { SEEKS_LABELS, type Seeks } from './seeks.ts';
export { AD_DESCRIPTION_MAX, AD_TITLE_MAX } from './ad-fields.ts';

export const AD_COLUMNS = [
  'id',
  ...AD_FIELD_NAMES,
  'images',
  'featured',
  'postedAt',
  'expiresAt',
  'sample',
] as const;

/** Editors read `content/ads/x.csv:42: age: must be 18 or over (got 17)`. */
const EDITOR_WORDING: AdFieldWording = {
  required: () => 'must not be empty',
  notText: () => 'must be text',
  tooLong: (_field, max, length) => `must be at most ${max} characters (got ${length})`,
  notOneLine: () => 'must be on one line',
  ageNotWholeNumber: (input) => `must be a whole number (got '${input}')`,
  ageTooLow: (min, age) => `must be ${min} or over (got ${age})`,
  ageTooHigh: (max, age) => `must be ${max} or under (got ${age})`,
  seeksUnknown: (input) => `must be one of ${SEEKS_VALUES.join(', ')} (got '${String(input)}')`,
};

const field = adFieldSchemas(EDITOR_WORDING);

export const adRowSchema = z
  .object({
    /** Unique positive whole number; part of the ad's URL. */
    id: csvInteger('a positive whole number'),
    /** State name, exactly as its file in content/states/ (rules in ad-fields.ts, as the others below). */
    state: field.state,
    /** City name, exactly as its row in content/cities/{state}.csv. */
    city: field.city,
    /** The poster's own stated age: a whole number from 18 to 99. */
    age: field.age,
    /** One of w4m, m4w, m4m, w4w, t4m, m4t, t4w, w4t, t4t. */
    seeks: field.seeks,
    /** Headline, 1–120 characters, one line. */
    title: field.title,
    /** Body text, 1–5,000 characters; line breaks are kept. */
    description: field.description,
    /** Photo paths under public/, separated by `|`; empty for none (a neutral placeholder is shown). */
    images: z
      .string()
      .trim()
      .transform((cell) => (cell === '' ? [] : cell.split('|').map((path) => path.trim())))
      .pipe(
        z
          .array(
            z.string().regex(/^\/[\w\-./]+\.(jpe?g|png|webp|avif)$/i, {
              error: 'each image must be a path like /ads/1001-1.webp',
            }),
          )
          .max(8, { error: 'at most 8 images' }),
      ),
    /** `true` puts the ad at the top of its city's list. Default false. */
    featured: csvBoolean,
    /** Day the ad goes live, YYYY-MM-DD. */
    postedAt: isoDate,
    /** Day the ad stops showing, YYYY-MM-DD, after postedAt. Expired ads are not published. */
    expiresAt: isoDate,
    /** `true` for sample content; shown with a visible "Sample ad" badge. */
    sample: csvBoolean,
  })
  .refine((ad) => ad.expiresAt > ad.postedAt, {
    path: ['expiresAt'],
    error: (issue) => {
      const ad = issue.input as { postedAt: string; expiresAt: string };
      return `must be after postedAt (${ad.postedAt}; got ${ad.expiresAt})`;
    },
  });

export type AdRow = z.infer<typeof adRowSchema>;
