// A legal or about page: content/pages/{terms,privacy,about}.md.
import { z } from 'zod';
import { frontMatterDate, singleLine } from './fields.ts';

export const PAGE_SLUGS = ['terms', 'privacy', 'about'] as const;
export type PageSlug = (typeof PAGE_SLUGS)[number];

export const pageFrontMatterSchema = z.strictObject({
  /** Heading and page title. */
  title: singleLine(1, 90),
  /** Meta description, at most 160 characters. */
  description: singleLine(1, 160),
  /** Date shown as "Last updated", YYYY-MM-DD. Required on terms and privacy. */
  lastUpdated: frontMatterDate.optional(),
});

export type PageFrontMatter = z.infer<typeof pageFrontMatterSchema>;
