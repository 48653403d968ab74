// A statement of reasons as the EU's DSA transparency database accepts it through its API
// (https://transparency.dsa.ec.europa.eu/page/api-documentation): the field names, the allowed
// values, the lengths and which fields are required, and when, as the database's own validation
// rules state them (github.com/digital-services-act/transparency-database:
// app/Http/Requests/StatementStoreRequest.php and app/Models/Statement.php). The export
// (`npm run export:statements`, server/moderation/dsa-export.ts) writes these, and its test checks
// every line against this schema. Only the values the export can need are listed for the long
// lists (categories, keywords); a value not listed is refused here even if the database knows it.
import { z } from 'zod';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** `date_format:Y-m-d` between two days, both included. */
const day = (from: string, to: string) =>
  z
    .string()
    .regex(DATE, 'a date as YYYY-MM-DD')
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), 'a real date')
    .refine((value) => value >= from && value <= to, `a date from ${from} to ${to}`);

export const DECISION_VISIBILITIES = [
  'DECISION_VISIBILITY_CONTENT_REMOVED',
  'DECISION_VISIBILITY_CONTENT_DISABLED',
  'DECISION_VISIBILITY_CONTENT_DEMOTED',
  'DECISION_VISIBILITY_CONTENT_AGE_RESTRICTED',
  'DECISION_VISIBILITY_CONTENT_INTERACTION_RESTRICTED',
  'DECISION_VISIBILITY_CONTENT_LABELLED',
  'DECISION_VISIBILITY_OTHER',
] as const;
export const DECISION_MONETARIES = [
  'DECISION_MONETARY_SUSPENSION',
  'DECISION_MONETARY_TERMINATION',
  'DECISION_MONETARY_OTHER',
] as const;
export const DECISION_PROVISIONS = [
  'DECISION_PROVISION_PARTIAL_SUSPENSION',
  'DECISION_PROVISION_TOTAL_SUSPENSION',
  'DECISION_PROVISION_PARTIAL_TERMINATION',
  'DECISION_PROVISION_TOTAL_TERMINATION',
] as const;
export const DECISION_ACCOUNTS = [
  'DECISION_ACCOUNT_SUSPENDED',
  'DECISION_ACCOUNT_TERMINATED',
] as const;
export const ACCOUNT_TYPES = ['ACCOUNT_TYPE_BUSINESS', 'ACCOUNT_TYPE_PRIVATE'] as const;
export const DECISION_GROUNDS = [
  'DECISION_GROUND_ILLEGAL_CONTENT',
  'DECISION_GROUND_INCOMPATIBLE_CONTENT',
] as const;
export const CONTENT_TYPES = [
  'CONTENT_TYPE_APP',
  'CONTENT_TYPE_AUDIO',
  'CONTENT_TYPE_IMAGE',
  'CONTENT_TYPE_PRODUCT',
  'CONTENT_TYPE_SYNTHETIC_MEDIA',
  'CONTENT_TYPE_TEXT',
  'CONTENT_TYPE_VIDEO',
  'CONTENT_TYPE_OTHER',
] as const;
export const STATEMENT_CATEGORIES = [
  'STATEMENT_CATEGORY_ANIMAL_WELFARE',
  'STATEMENT_CATEGORY_CONSUMER_INFORMATION',
  'STATEMENT_CATEGORY_CYBER_VIOLENCE',
  'STATEMENT_CATEGORY_CYBER_VIOLENCE_AGAINST_WOMEN',
  'STATEMENT_CATEGORY_DATA_PROTECTION_AND_PRIVACY_VIOLATIONS',
  'STATEMENT_CATEGORY_ILLEGAL_OR_HARMFUL_SPEECH',
  'STATEMENT_CATEGORY_INTELLECTUAL_PROPERTY_INFRINGEMENTS',
  'STATEMENT_CATEGORY_NEGATIVE_EFFECTS_ON_CIVIC_DISCOURSE_OR_ELECTIONS',
  'STATEMENT_CATEGORY_NOT_SPECIFIED_NOTICE',
  'STATEMENT_CATEGORY_OTHER_VIOLATION_TC',
  'STATEMENT_CATEGORY_PROTECTION_OF_MINORS',
  'STATEMENT_CATEGORY_RISK_FOR_PUBLIC_SECURITY',
  'STATEMENT_CATEGORY_SCAMS_AND_FRAUD',
  'STATEMENT_CATEGORY_SELF_HARM',
  'STATEMENT_CATEGORY_UNSAFE_AND_PROHIBITED_PRODUCTS',
  'STATEMENT_CATEGORY_VIOLENCE',
] as const;
/** The keywords (category_specification) the export uses; the database lists many more. */
export const CATEGORY_KEYWORDS = [
  'KEYWORD_ADULT_SEXUAL_MATERIAL',
  'KEYWORD_AGE_SPECIFIC_RESTRICTIONS_MINORS',
  'KEYWORD_IMPERSONATION_ACCOUNT_HIJACKING',
] as const;
export const SOURCE_TYPES = [
  'SOURCE_ARTICLE_16',
  'SOURCE_TRUSTED_FLAGGER',
  'SOURCE_TYPE_OTHER_NOTIFICATION',
  'SOURCE_VOLUNTARY',
] as const;
/** automated_detection and incompatible_content_illegal take the words, not keys. */
export const YES_NO = ['Yes', 'No'] as const;
export const AUTOMATED_DECISIONS = [
  'AUTOMATED_DECISION_FULLY',
  'AUTOMATED_DECISION_PARTIALLY',
  'AUTOMATED_DECISION_NOT_AUTOMATED',
] as const;

const endDate = day('0000-01-01', '2038-01-01').nullable().optional();

export const dsaStatementSchema = z
  .object({
    /** What was done to the content (at least one of the four decision_* fields). */
    decision_visibility: z.array(z.enum(DECISION_VISIBILITIES)).nullable().optional(),
    decision_visibility_other: z.string().max(500).optional(),
    decision_monetary: z.enum(DECISION_MONETARIES).nullable().optional(),
    decision_monetary_other: z.string().max(500).optional(),
    decision_provision: z.enum(DECISION_PROVISIONS).nullable().optional(),
    decision_account: z.enum(DECISION_ACCOUNTS).nullable().optional(),
    account_type: z.enum(ACCOUNT_TYPES).nullable().optional(),
    category_specification: z.array(z.enum(CATEGORY_KEYWORDS)).nullable().optional(),
    category_specification_other: z.string().max(500).optional(),
    decision_ground: z.enum(DECISION_GROUNDS),
    /** The terms (or law) relied on: a URL of at most 500 characters. */
    decision_ground_reference_url: z.url().max(500).nullable().optional(),
    illegal_content_legal_ground: z.string().min(1).max(500).optional(),
    illegal_content_explanation: z.string().min(1).max(2000).optional(),
    incompatible_content_ground: z.string().min(1).max(500).optional(),
    incompatible_content_explanation: z.string().min(1).max(2000).optional(),
    incompatible_content_illegal: z.enum(YES_NO).optional(),
    content_type: z.array(z.enum(CONTENT_TYPES)).min(1),
    content_type_other: z.string().max(500).optional(),
    category: z.enum(STATEMENT_CATEGORIES),
    category_addition: z.array(z.enum(STATEMENT_CATEGORIES)).optional(),
    /** EEA country codes; none for a site that serves the US only. */
    territorial_scope: z
      .array(z.string().regex(/^[A-Z]{2}$/))
      .nullable()
      .optional(),
    /** ISO 639-1, upper case (`EN`). */
    content_language: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .nullable()
      .optional(),
    content_date: day('2000-01-01', '2038-01-01'),
    application_date: day('2020-01-01', '2038-01-01'),
    end_date_account_restriction: endDate,
    end_date_monetary_restriction: endDate,
    end_date_service_restriction: endDate,
    end_date_visibility_restriction: endDate,
    decision_facts: z.string().min(1).max(5000),
    source_type: z.enum(SOURCE_TYPES),
    source_identity: z.string().max(500).optional(),
    automated_detection: z.enum(YES_NO),
    automated_decision: z.enum(AUTOMATED_DECISIONS),
    /** The platform's unique id of the statement. */
    puid: z
      .string()
      .min(1)
      .max(500)
      .regex(/^[a-zA-Z0-9_-]+$/),
  })
  .strict()
  .superRefine((statement, context) => {
    const need = (field: string, message: string) =>
      context.addIssue({ code: 'custom', path: [field], message });
    const decisions = [
      statement.decision_visibility?.length ? statement.decision_visibility : null,
      statement.decision_monetary,
      statement.decision_provision,
      statement.decision_account,
    ];
    if (decisions.every((decision) => decision == null))
      need('decision_visibility', 'one of the decision_* fields is required');
    if (statement.decision_visibility?.includes('DECISION_VISIBILITY_OTHER')) {
      if (!statement.decision_visibility_other)
        need('decision_visibility_other', 'required with DECISION_VISIBILITY_OTHER');
    } else if (statement.decision_visibility_other !== undefined)
      need('decision_visibility_other', 'only with DECISION_VISIBILITY_OTHER');
    if (statement.decision_monetary === 'DECISION_MONETARY_OTHER') {
      if (!statement.decision_monetary_other)
        need('decision_monetary_other', 'required with DECISION_MONETARY_OTHER');
    } else if (statement.decision_monetary_other !== undefined)
      need('decision_monetary_other', 'only with DECISION_MONETARY_OTHER');
    if (statement.content_type.includes('CONTENT_TYPE_OTHER')) {
      if (!statement.content_type_other)
        need('content_type_other', 'required with CONTENT_TYPE_OTHER');
    } else if (statement.content_type_other !== undefined)
      need('content_type_other', 'only with CONTENT_TYPE_OTHER');
    const illegal = statement.decision_ground === 'DECISION_GROUND_ILLEGAL_CONTENT';
    for (const field of ['illegal_content_legal_ground', 'illegal_content_explanation'] as const)
      if (illegal !== (statement[field] !== undefined))
        need(field, illegal ? 'required for illegal content' : 'only for illegal content');
    for (const field of [
      'incompatible_content_ground',
      'incompatible_content_explanation',
    ] as const)
      if (!illegal !== (statement[field] !== undefined))
        need(
          field,
          illegal ? 'only for incompatible content' : 'required for incompatible content',
        );
    if (illegal && statement.incompatible_content_illegal !== undefined)
      need('incompatible_content_illegal', 'only for incompatible content');
    if (statement.source_type === 'SOURCE_VOLUNTARY' && statement.source_identity !== undefined)
      need('source_identity', 'not with SOURCE_VOLUNTARY');
  });

export type DsaStatement = z.infer<typeof dsaStatementSchema>;
