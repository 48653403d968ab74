// A state file: content/states/{State Name}.md. Front matter holds the flags of the one state
// template (docs/product.md section 3); the Markdown body is the state's guide.
import { z } from 'zod';
import { singleLine } from './fields.ts';
import { US_STATE_NAMES } from './us-states.ts';

export const HEADER_MENUS = ['dropdown', 'none'] as const;
export const FOOTER_BUTTONS = ['join', 'post'] as const;
/** Whether a state's law asks members there to prove their age (docs/product.md, "Age assurance"). */
export const AGE_ASSURANCE = ['none', 'required'] as const;
export const ROBOTS_DIRECTIVES = [
  'index, follow',
  'noindex, follow',
  'index, nofollow',
  'noindex, nofollow',
] as const;

const stateFlagsSchema = z.strictObject({
  /** Full state name, exactly as displayed and in URLs; must match the file name. */
  name: z.enum(US_STATE_NAMES, {
    error: (issue) => `must be one of the 50 US state names (got '${String(issue.input)}')`,
  }),
  /** Two-letter USPS code, e.g. NH. */
  code: z.string().regex(/^[A-Z]{2}$/, { error: 'must be a two-letter code in capitals, e.g. NH' }),
  /** Header: `dropdown` (menu with Home and Join Free) or `none` (centred logo only). Default dropdown. */
  headerMenu: z
    .enum(HEADER_MENUS, {
      error: (issue) => `must be one of: ${HEADER_MENUS.join(', ')} (got '${String(issue.input)}')`,
    })
    .default('dropdown'),
  /** Footer call to action: `join` (Join Free) or `post` (Post Ad). Default join. */
  footerButton: z
    .enum(FOOTER_BUTTONS, {
      error: (issue) =>
        `must be one of: ${FOOTER_BUTTONS.join(', ')} (got '${String(issue.input)}')`,
    })
    .default('join'),
  /** Show the brand before the footer line ("Localboard - Personal ads in …"). Default true. */
  brandPrefix: z.boolean({ error: 'must be true or false' }).default(true),
  /** Robots directive for the state page. Default `index, follow`. */
  robots: z
    .enum(ROBOTS_DIRECTIVES, {
      error: (issue) =>
        `must be one of: ${ROBOTS_DIRECTIVES.join(' | ')} (got '${String(issue.input)}')`,
    })
    .default('index, follow'),
  /** Overrides the page title (default "Personals in {state} - {brand}"); at most 70 characters. */
  seoTitle: singleLine(1, 70).optional(),
  /** Overrides the meta description; at most 160 characters. */
  seoDescription: singleLine(1, 160).optional(),
  /**
   * `required`: members whose state this is, and anyone posting or writing first about an ad here,
   * prove they are 18 or over before posting or sending a first message; `none` (the default):
   * nothing changes. With `required`, ageAssuranceLaw and ageAssuranceReason are required too.
   */
  ageAssurance: z
    .enum(AGE_ASSURANCE, {
      error: (issue) =>
        `must be one of: ${AGE_ASSURANCE.join(', ')} (got '${String(issue.input)}')`,
    })
    .default('none'),
  /** The law's name as the state page shows it, e.g. "Mississippi HB 1126"; at most 100 characters. */
  ageAssuranceLaw: singleLine(1, 100).optional(),
  /** One line on what the law asks, shown on the state page; at most 240 characters. */
  ageAssuranceReason: singleLine(1, 240).optional(),
});

/** What the state page shows with `ageAssurance: required`, and why an editor writes it. */
const AGE_ASSURANCE_TEXTS = {
  ageAssuranceLaw: "the law's name, shown on the state page",
  ageAssuranceReason: 'one line on what the law asks, shown on the state page',
} as const;

export const stateFrontMatterSchema = stateFlagsSchema.superRefine((state, context) => {
  for (const key of ['ageAssuranceLaw', 'ageAssuranceReason'] as const) {
    if (state.ageAssurance === 'required' && state[key] === undefined)
      context.addIssue({
        code: 'custom',
        path: ['ageAssurance'],
        message: `required needs ${key} too (${AGE_ASSURANCE_TEXTS[key]})`,
      });
    if (state.ageAssurance === 'none' && state[key] !== undefined)
      context.addIssue({
        code: 'custom',
        path: [key],
        message: 'is only for a state with ageAssurance: required; remove it or set the flag',
      });
  }
});

export type StateFrontMatter = z.infer<typeof stateFrontMatterSchema>;
export type HeaderMenu = StateFrontMatter['headerMenu'];
export type FooterButton = StateFrontMatter['footerButton'];
export type AgeAssurance = StateFrontMatter['ageAssurance'];
export type RobotsDirective = (typeof ROBOTS_DIRECTIVES)[number];
