// The scam shield's labelled corpora (docs/product.md section 7): first messages and ad texts that
// editors keep in content/shield/, each with its label, its family and the public reporting (or
// the ordinary case) it was written from. The trainer (`npm run train:shield`), the content
// checker, the benchmark and the tests read them through this one schema.
import { z } from 'zod';

/** The scam families a corpus line may name, as the public reporting groups the lures. */
export const CORPUS_SCAM_FAMILIES = [
  'off-site',
  'verification-lure',
  'code-theft',
  'gift-cards-payment-apps',
  'crypto',
  'advance-fee',
  'military-abroad',
  'content-sales',
  'sugar-fee',
  'sob-story',
] as const;

/** The ordinary kinds a corpus line may name: everyday writing and the hard cases. */
export const CORPUS_ORDINARY_FAMILIES = [
  'everyday',
  'declines-app',
  'money-everyday',
  'travel',
  'service',
  'codes-in-passing',
  'badge',
  'illness',
  'safety',
] as const;

export type CorpusScamFamily = (typeof CORPUS_SCAM_FAMILIES)[number];
export type CorpusOrdinaryFamily = (typeof CORPUS_ORDINARY_FAMILIES)[number];

const text = (max: number) =>
  z.string().trim().min(1, 'is empty').max(max, `is longer than ${max} characters`);

const labelled = z.discriminatedUnion('label', [
  z.object({
    /** scam: a lure as victims report it. */
    label: z.literal('scam'),
    /** Which lure, by the public reporting's grouping. */
    family: z.enum(CORPUS_SCAM_FAMILIES, {
      error: () => `is not a scam family: one of ${CORPUS_SCAM_FAMILIES.join(', ')}`,
    }),
  }),
  z.object({
    /** ordinary: what a member writes, hard cases included. */
    label: z.literal('ordinary'),
    /** Which kind of ordinary message, so the benchmark can say which ones it hinders. */
    family: z.enum(CORPUS_ORDINARY_FAMILIES, {
      error: () => `is not an ordinary kind: one of ${CORPUS_ORDINARY_FAMILIES.join(', ')}`,
    }),
  }),
]);

/** Where the line's pattern comes from: a public report, or the ordinary case it shows. */
const source = text(300);

/** One first message of content/shield/first-messages*.csv. */
export const corpusMessageSchema = z.intersection(
  labelled,
  z.object({
    source,
    /** The message as a member would send it (the message form's limit). */
    text: text(2000),
  }),
);

/** One ad of content/shield/ads*.csv: its title and its description. */
export const corpusAdSchema = z.intersection(
  labelled,
  z.object({ source, title: text(120), description: text(5000) }),
);

export type CorpusMessage = z.infer<typeof corpusMessageSchema>;
export type CorpusAd = z.infer<typeof corpusAdSchema>;

/** The columns of each corpus file, in order. */
export const CORPUS_MESSAGE_COLUMNS = ['label', 'family', 'source', 'text'] as const;
export const CORPUS_AD_COLUMNS = ['label', 'family', 'source', 'title', 'description'] as const;

/** The label a line carries, with the line it stands on in its file. */
export type CorpusLine<Row> = Row & { line: number };
