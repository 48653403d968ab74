// A guide: content/guides/{slug}.md, listed on /about and shown at /about/{slug}.
import { z } from 'zod';
import { singleLine } from './fields.ts';

export const guideFrontMatterSchema = z.strictObject({
  /** URL part, lower-case words joined by hyphens; must match the file name. */
  slug: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { error: 'must be lower-case words joined by hyphens' }),
  /** Title shown as the heading and on the guide's card. */
  title: singleLine(1, 90),
  /** One sentence shown on the guide's card and as the meta description. */
  summary: singleLine(1, 200),
  /** Position on /about, 1 first; unique. */
  order: z.number({ error: 'must be a number' }).int({ error: 'must be a whole number' }).min(1),
});

export type GuideFrontMatter = z.infer<typeof guideFrontMatterSchema>;
