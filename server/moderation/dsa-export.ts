// The statements of reasons in the fields of the EU's DSA transparency database
// (core/schemas/dsa-statement.ts; docs/product.md section 6): what `npm run export:statements`
// writes, one JSON line a statement, so an operator who must file them can. No personal data: no
// email, name, ad text, moderator's note or words the scanner flagged; the facts are the kind of
// decision, its reason, the clause and the reports' reasons with their counts; `puid` is an HMAC
// of the statement's id under a key of the database's own (never the key of the member's link).
import { createHmac } from 'node:crypto';
import { DECISION_REASONS, type DecisionReason } from '../../core/schemas/transparency.ts';
import type { DsaStatement } from '../../core/schemas/dsa-statement.ts';
import { REPORT_REASONS } from '../../core/schemas/report-reasons.ts';
import { clauseOf, clausePath } from '../../core/schemas/terms-clauses.ts';
import type { StatementRow } from '../../store/parts/statements.ts';
import type { Store } from '../../store/store.ts';

/** The server secret the export's ids are keyed with (store/parts/server-secrets.ts). */
export const PUID_SECRET = 'dsa-puid';
/** Statements read from the store at a time. */
const PAGE = 500;

export interface DsaExportSite {
  /** The site's public address, for the link to the clause: `https://localboard.example`. */
  baseUrl: string;
  /** The key of the opaque ids (the store's PUID_SECRET). */
  puidKey: Buffer;
}

/** The DSA category of each reason; anything else is another breach of the terms. */
const CATEGORIES: Partial<Record<DecisionReason, DsaStatement['category']>> = {
  'under-18': 'STATEMENT_CATEGORY_PROTECTION_OF_MINORS',
  'under-18-report': 'STATEMENT_CATEGORY_PROTECTION_OF_MINORS',
  scam: 'STATEMENT_CATEGORY_SCAMS_AND_FRAUD',
  identity: 'STATEMENT_CATEGORY_SCAMS_AND_FRAUD',
};
const KEYWORDS: Partial<
  Record<DecisionReason, NonNullable<DsaStatement['category_specification']>>
> = {
  'under-18': ['KEYWORD_AGE_SPECIFIC_RESTRICTIONS_MINORS'],
  'under-18-report': ['KEYWORD_AGE_SPECIFIC_RESTRICTIONS_MINORS'],
  explicit: ['KEYWORD_ADULT_SEXUAL_MATERIAL'],
  identity: ['KEYWORD_IMPERSONATION_ACCOUNT_HIJACKING'],
};

/** The kinds of decision the export writes: a verification refused restricts no content. */
type ExportedKind = Exclude<StatementRow['kind'], 'verification-refused'>;

/** What each kind of decision restricted, in the database's terms. */
const RESTRICTIONS: Record<
  ExportedKind,
  Pick<DsaStatement, 'decision_visibility' | 'decision_account' | 'content_type'> & {
    content_type_other?: string;
    facts: string;
  }
> = {
  'ad-rejected': {
    decision_visibility: ['DECISION_VISIBILITY_CONTENT_REMOVED'],
    content_type: ['CONTENT_TYPE_TEXT'],
    facts: 'A personal ad was rejected before it was published.',
  },
  'edit-rejected': {
    decision_visibility: ['DECISION_VISIBILITY_CONTENT_REMOVED'],
    content_type: ['CONTENT_TYPE_TEXT'],
    facts: 'An edit of a published personal ad was rejected; the ad stayed as it was.',
  },
  'ad-removed': {
    decision_visibility: ['DECISION_VISIBILITY_CONTENT_REMOVED'],
    content_type: ['CONTENT_TYPE_TEXT'],
    facts: 'A published personal ad was removed from the site.',
  },
  'ad-hidden': {
    decision_visibility: ['DECISION_VISIBILITY_CONTENT_DISABLED'],
    content_type: ['CONTENT_TYPE_TEXT'],
    facts: 'A published personal ad was hidden until a moderator reviewed the reports about it.',
  },
  'photo-removed': {
    decision_visibility: ['DECISION_VISIBILITY_CONTENT_REMOVED'],
    content_type: ['CONTENT_TYPE_IMAGE'],
    facts: 'A photo of a personal ad was removed.',
  },
  'account-banned': {
    decision_account: 'DECISION_ACCOUNT_TERMINATED',
    content_type: ['CONTENT_TYPE_OTHER'],
    content_type_other: 'A member account and its ads',
    facts: 'A member account was closed and its ads removed.',
  },
};

const TRIGGER_FACTS: Record<StatementRow['trigger'], string> = {
  report: 'It was prompted by reports, which a moderator reviewed.',
  moderator: "It was prompted by a moderator's own review.",
  automatic: 'An automatic rule decided it after reports.',
};

/** One statement in the database's fields. */
export function dsaStatementOf(
  row: StatementRow & { kind: ExportedKind },
  site: DsaExportSite,
): DsaStatement {
  const reasonKey = (row.reasonKey in DECISION_REASONS ? row.reasonKey : 'other') as DecisionReason;
  const reason = DECISION_REASONS[reasonKey];
  const clause = clauseOf(row.clause);
  const { facts, ...restriction } = RESTRICTIONS[row.kind];
  const reports = (row.facts.reports ?? [])
    .filter(({ reason: label }) => Object.values<string>(REPORT_REASONS).includes(label))
    .map(({ reason: label, count }) => `${label} (${count})`);
  const keywords = KEYWORDS[reasonKey];
  return {
    ...restriction,
    account_type: 'ACCOUNT_TYPE_PRIVATE',
    ...(keywords ? { category_specification: keywords } : {}),
    decision_ground: 'DECISION_GROUND_INCOMPATIBLE_CONTENT',
    decision_ground_reference_url: `${site.baseUrl.replace(/\/+$/, '')}${clausePath(clause.number)}`,
    incompatible_content_ground: `Terms of use, clause ${clause.number}: ${clause.title}`,
    incompatible_content_explanation: `${reason}. The content breaks clause ${clause.number} of the terms (${clause.title}).`,
    category: CATEGORIES[reasonKey] ?? 'STATEMENT_CATEGORY_OTHER_VIOLATION_TC',
    content_date: (row.contentAt ?? row.decidedAt).slice(0, 10),
    application_date: row.decidedAt.slice(0, 10),
    // Until an appeal reverses it: no end date is known; a hide lifted or replaced ended then.
    ...(row.kind === 'account-banned'
      ? { end_date_account_restriction: null }
      : { end_date_visibility_restriction: row.liftedAt?.slice(0, 10) ?? null }),
    decision_facts: [
      facts,
      `Reason: ${reason}.`,
      TRIGGER_FACTS[row.trigger],
      ...(reports.length > 0 ? [`Reports: ${reports.join(', ')}.`] : []),
    ].join(' '),
    source_type: row.trigger === 'moderator' ? 'SOURCE_VOLUNTARY' : 'SOURCE_ARTICLE_16',
    automated_detection: row.automatedDetection ? 'Yes' : 'No',
    automated_decision: row.automatedDecision
      ? 'AUTOMATED_DECISION_FULLY'
      : 'AUTOMATED_DECISION_NOT_AUTOMATED',
    puid: createHmac('sha256', site.puidKey).update(`statement:${row.id}`).digest('base64url'),
  };
}

/**
 * Writes every statement decided since `since` (YYYY-MM-DD), oldest id first, one JSON line each,
 * through `write`; how many.
 */
export async function exportStatements(
  store: Pick<Store, 'statements' | 'secrets'>,
  since: string,
  baseUrl: string,
  write: (line: string) => void | Promise<void>,
): Promise<number> {
  const site = { baseUrl, puidKey: await store.secrets.get(PUID_SECRET) };
  let written = 0;
  for (let after = 0; ;) {
    const rows = await store.statements.decidedSince(since, after, PAGE);
    // A refused verification (docs/product.md section 6, "Verified members") takes down no
    // content and closes no account: it is no statement the DSA database collects.
    const exported = rows.filter(
      (row): row is StatementRow & { kind: ExportedKind } => row.kind !== 'verification-refused',
    );
    for (const row of exported) await write(`${JSON.stringify(dsaStatementOf(row, site))}\n`);
    written += exported.length;
    if (rows.length < PAGE) return written;
    after = rows.at(-1)!.id;
  }
}

export const EXPORT_USAGE =
  'Usage: npm run export:statements -- --since YYYY-MM-DD [--out FILE]\n' +
  'Writes the statements of reasons decided since that day as JSON lines in the fields of the ' +
  "EU's DSA transparency database (to FILE, or the standard output).";

/** The command's arguments; undefined when they are not understood. */
export function parseExportArgs(
  args: readonly string[],
): { since: string; out?: string } | undefined {
  const valueOf = (name: string) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
  };
  const since = valueOf('--since');
  const out = valueOf('--out');
  if (!since || !/^\d{4}-\d{2}-\d{2}$/.test(since) || Number.isNaN(Date.parse(since)))
    return undefined;
  if (args.includes('--out') && !out) return undefined;
  return out ? { since, out } : { since };
}
