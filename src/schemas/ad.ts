// An ad row: content/ads/*.csv, one ad a row. Cross-file rules (state and city exist, id unique,
// blocked terms, expiry) are checked by the content compiler, which has the whole picture.
import { z } from 'zod';
import { csvBoolean, csvInteger, isoDate, singleLine } from './fields.ts';
import { SEEKS_LABELS, type Seeks } from './seeks.ts';

export { SEEKS_LABELS, type Seeks } from './seeks.ts';
const SEEKS = Object.keys(SEEKS_LABELS) as [Seeks, ...Seeks[]];

export const AD_COLUMNS = [
  'id',
  'state',
  'city',
  'age',
  'seeks',
  'title',
  'description',
  'images',
  'featured',
  'postedAt',
  'expiresAt',
  'sample',
] as const;

export const AD_TITLE_MAX = 120;
export const AD_DESCRIPTION_MAX = 5000;

export const adRowSchema = z
  .object({
    /** Unique positive whole number; part of the ad's URL. */
    id: csvInteger('a positive whole number'),
    /** State name, exactly as its file in content/states/. */
    state: singleLine(1, 40),
    /** City name, exactly as its row in content/cities/{state}.csv. */
    city: singleLine(1, 80),
    /** The poster's own stated age: a whole number from 18 to 99. */
    age: csvInteger().pipe(
      z
        .number()
        .min(18, { error: (issue) => `must be 18 or over (got ${String(issue.input)})` })
        .max(99, { error: (issue) => `must be 99 or under (got ${String(issue.input)})` }),
    ),
    /** One of w4m, m4w, m4m, w4w, t4m, m4t, t4w, w4t, t4t. */
    seeks: z.enum(SEEKS, {
      error: (issue) => `must be one of ${SEEKS.join(', ')} (got '${String(issue.input)}')`,
    }),
    /** Headline, 1–120 characters, one line. */
    title: singleLine(1, AD_TITLE_MAX),
    /** Body text, 1–5,000 characters; line breaks are kept. */
    description: z
      .string()
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(AD_DESCRIPTION_MAX, {
        error: (issue) =>
          `must be at most ${AD_DESCRIPTION_MAX} characters (got ${String((issue.input as string).length)})`,
      }),
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
