// The fields an ad is written with (state, city, age, seeks, title, description), each rule
// defined once. Two schemas are built from them: the CSV row of editors' ads (ad.ts) and the
// posting form of members' ads (ad-form.ts), so the build, the server and the browser accept and
// refuse exactly the same ads. Only the wording differs: editors read `file:line: field: reason`,
// members read a sentence beside the field they typed in.
import { z } from 'zod';
import { SEEKS_LABELS, type Seeks } from './seeks.ts';

import {
  AD_AGE_MAX,
  AD_AGE_MIN,
  AD_CITY_MAX,
  AD_DESCRIPTION_MAX,
  AD_STATE_MAX,
  AD_TITLE_MAX,
} from './ad-limits.ts';

export { AD_AGE_MAX, AD_AGE_MIN, AD_CITY_MAX, AD_DESCRIPTION_MAX, AD_STATE_MAX, AD_TITLE_MAX };

/** The nine values of `seeks`, in the order forms list them. */
export const SEEKS_VALUES = Object.keys(SEEKS_LABELS) as [Seeks, ...Seeks[]];

/** An ad's own fields, in the order the posting form shows them and a CSV row has them. */
export const AD_FIELD_NAMES = ['state', 'city', 'age', 'seeks', 'title', 'description'] as const;

export type AdFieldName = (typeof AD_FIELD_NAMES)[number];

/** How each rule's failure is told to the people who read it. */
export interface AdFieldWording {
  /** Missing or empty. */
  required(field: AdFieldName): string;
  /** Not a string (a JSON number or list where text belongs). */
  notText(field: AdFieldName): string;
  tooLong(field: AdFieldName, max: number, length: number): string;
  notOneLine(field: AdFieldName): string;
  ageNotWholeNumber(input: string): string;
  ageTooLow(min: number, age: number): string;
  ageTooHigh(max: number, age: number): string;
  seeksUnknown(input: unknown): string;
}

/** The six field schemas, worded for their readers. Each takes text, as CSV cells and forms give it. */
export function adFieldSchemas(wording: AdFieldWording) {
  const text = (field: AdFieldName) =>
    z
      .string({
        error: (issue) =>
          issue.input === undefined || issue.input === null
            ? wording.required(field)
            : wording.notText(field),
      })
      .trim();
  const limited = (field: AdFieldName, max: number) =>
    text(field)
      .min(1, { error: wording.required(field) })
      .max(max, {
        error: (issue) => wording.tooLong(field, max, (issue.input as string).length),
      });
  const oneLine = (field: AdFieldName, max: number) =>
    limited(field, max).refine((value) => !/[\r\n]/.test(value), {
      error: wording.notOneLine(field),
    });
  return {
    /** State name, exactly as its file in content/states/ (one of the 50). */
    state: oneLine('state', AD_STATE_MAX),
    /** City name, exactly as its row in content/cities/{state}.csv. */
    city: oneLine('city', AD_CITY_MAX),
    /** The poster's own stated age: a whole number from 18 to 99. */
    age: text('age')
      .regex(/^\d+$/, {
        error: (issue) =>
          issue.input === ''
            ? wording.required('age')
            : wording.ageNotWholeNumber(String(issue.input)),
      })
      .transform(Number)
      .pipe(
        z
          .number()
          .min(AD_AGE_MIN, {
            error: (issue) => wording.ageTooLow(AD_AGE_MIN, issue.input as number),
          })
          .max(AD_AGE_MAX, {
            error: (issue) => wording.ageTooHigh(AD_AGE_MAX, issue.input as number),
          }),
      ),
    /** One of w4m, m4w, m4m, w4w, t4m, m4t, t4w, w4t, t4t. */
    seeks: z.enum(SEEKS_VALUES, {
      error: (issue) =>
        issue.input === undefined || issue.input === ''
          ? wording.required('seeks')
          : wording.seeksUnknown(issue.input),
    }),
    /** Headline, 1–120 characters, one line. */
    title: oneLine('title', AD_TITLE_MAX),
    /** Body text, 1–5,000 characters; line breaks are kept. */
    description: limited('description', AD_DESCRIPTION_MAX),
  };
}
