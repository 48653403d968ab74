// The rules a restriction applies, as numbered clauses of the terms page (content/pages/terms.md;
// docs/product.md section 6): every moderation reason, and every rule that restricts on
// its own, mapped to its clause in this one table, so a statement of reasons, a refusal and the
// transparency report name the same clause. The build gives the terms page the anchors these link
// to (`/terms#clause-4-1`: pipeline/compile/terms-clause-anchors.ts); a unit test checks that
// every clause named here is on the page.
import type { ModerationReason } from './moderation-reasons.ts';

/** A clause's number as the terms page numbers it: `4.1` (section 4, item 1) or `7`. */
export type ClauseNumber = `${number}` | `${number}.${number}`;

export interface TermsClause {
  number: ClauseNumber;
  /** What the clause forbids, in the words a member reads beside its number. */
  title: string;
}

/** The clause each moderation reason applies. */
export const REASON_CLAUSES: Record<ModerationReason, TermsClause> = {
  commercial: { number: '4.1', title: 'No commercial sexual services' },
  'under-18': { number: '4.2', title: 'Nothing involving anyone under 18' },
  explicit: { number: '4.3', title: 'Nothing explicit' },
  spam: { number: '4.5', title: 'No spam' },
  identity: { number: '4.6', title: 'No impersonation' },
  contact: { number: '4.7', title: 'No contact details, links or advertising' },
  scam: { number: '4.9', title: 'No scams or anything illegal' },
  'wrong-place': { number: '3', title: 'Ads in the city and category that fit them' },
  other: { number: '6', title: 'Moderation and removal' },
};

/** The clauses rules apply without a moderator. */
export const RULE_CLAUSES = {
  /** An ad hidden because several people reported it, or one as possibly under 18. */
  hiddenByReports: { number: '7', title: 'Reporting' },
  /** A message refused for a refused term (commercial sex). */
  refusedTerm: REASON_CLAUSES.commercial,
  /** A message refused for contact details. */
  contactDetails: REASON_CLAUSES.contact,
  /** A verification selfie refused (docs/product.md section 6): the account's information. */
  verificationRefused: { number: '2', title: 'Your account' },
} as const satisfies Record<string, TermsClause>;

/** The anchor of a clause on the terms page: `clause-4-1`. */
export const clauseAnchor = (clause: ClauseNumber | string) => `clause-${clause.replace('.', '-')}`;

/** The link to a clause: `/terms#clause-4-1`. */
export const clausePath = (clause: ClauseNumber | string) => `/terms#${clauseAnchor(clause)}`;

/** Every clause this table names, for the check that the terms page has each. */
export const NAMED_CLAUSES: readonly TermsClause[] = [
  ...Object.values(REASON_CLAUSES),
  ...Object.values(RULE_CLAUSES),
];

/** The clause of a stored number (a statement's), with its title when the table knows it. */
export function clauseOf(number: string): TermsClause {
  return (
    NAMED_CLAUSES.find((clause) => clause.number === number) ?? {
      number: number as ClauseNumber,
      title: 'The site rules',
    }
  );
}
