// Site settings and landing copy: content/site.md front matter.
import { z } from 'zod';
import { singleLine } from './fields.ts';

const card = z.strictObject({
  /** Card heading. */
  title: singleLine(1, 80),
  /** One or two sentences. */
  text: singleLine(1, 400),
});

const exactly = <T extends z.ZodType>(item: T, count: number) =>
  z.array(item).length(count, { error: `must list exactly ${count} items` });

export const siteSchema = z.strictObject({
  /** The brand shown in the logo, titles and footer. Default "Localboard". */
  brand: singleLine(1, 40).default('Localboard'),
  /** Absolute origin of the public site, no trailing slash; canonical URLs and the sitemap use it. */
  baseUrl: z
    .url({ error: 'must be an absolute URL such as https://example.org' })
    .transform((url) => url.replace(/\/+$/, '')),
  /** Address for privacy requests and anything else visitors write to the site about. */
  contactEmail: z.email({ error: 'must be an email address' }),
  /** Short line under the logo in the hero. */
  tagline: singleLine(1, 120),
  /** Meta description of the landing page. */
  description: singleLine(1, 160),
  /** The four cities on the landing page; each must exist in content/cities. */
  popularCities: exactly(z.strictObject({ state: singleLine(1, 40), city: singleLine(1, 80) }), 4),
  /** Landing hero heading and sub-heading. */
  hero: z.strictObject({ title: singleLine(1, 90), subtitle: singleLine(1, 300) }),
  /** "Why choose" section: three points. */
  whyChoose: exactly(card, 3),
  /** "How it works": three steps (browse, sign up and reply, meet safely). */
  howItWorks: exactly(card, 3),
  /** "What you will find": six feature cards. */
  features: exactly(card, 6),
  /** Frequently asked questions on the landing page: eight. */
  faq: exactly(z.strictObject({ question: singleLine(1, 200), answer: singleLine(1, 1000) }), 8),
  /** Closing call to action; the page adds the real counts of active ads and cities. */
  closing: z.strictObject({ title: singleLine(1, 90), text: singleLine(1, 300) }),
});

export type SiteSettings = z.infer<typeof siteSchema>;
export type Card = z.infer<typeof card>;
