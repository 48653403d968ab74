// What age assurance shows (docs/product.md section 6, "Age assurance"): a member's kept check, as
// the member, the check page and the moderators read it, in the same words everywhere. Types and
// sentences only: the server builds the views, the pages show them.
import { formatDate } from '../format.ts';

/** How an age was checked, in words. */
export const AGE_CHECK_METHODS = { 'digital-licence': 'digital licence' } as const;

/** A member's kept check: nothing of the licence but its issuing state. */
export interface AgeCheckView {
  method: keyof typeof AGE_CHECK_METHODS;
  outcome: 'passed' | 'failed';
  checkedAt: string;
  issuingState: string | null;
}

/** A state whose law asks for age checks, and the law's name. */
export interface AgeLawView {
  state: string;
  law: string;
}

/** What /account and /verify-age show of the member's own age assurance. */
export interface AgeAssuranceView {
  /** The state the member says they live in (null: not said). */
  declaredState: string | null;
  check?: AgeCheckView;
  /** The declared state's law, when it asks for age checks. */
  declaredStateLaw?: AgeLawView;
}

/** What /verify-age shows: the member's state and check, and every state's law that asks. */
export interface VerifyAgeView extends AgeAssuranceView {
  laws: readonly AgeLawView[];
}

/**
 * "age checked (digital licence, Mississippi, November 24, 2026)", or for a licence that said no,
 * "age check failed: the licence says under 18 (digital licence, …)". What moderators see.
 */
export function ageCheckSummary(check: AgeCheckView): string {
  const details = [
    AGE_CHECK_METHODS[check.method],
    check.issuingState ?? 'issuing state not named',
    formatDate(check.checkedAt.slice(0, 10)),
  ].join(', ');
  return check.outcome === 'passed'
    ? `age checked (${details})`
    : `age check failed: the licence says under 18 (${details})`;
}

/** The member's own check, as /account and /verify-age tell them. */
export function ageCheckForMember(check: AgeCheckView): string {
  const issuer = check.issuingState ? ` issued by ${check.issuingState}` : '';
  const day = formatDate(check.checkedAt.slice(0, 10));
  return check.outcome === 'passed'
    ? `Your age was checked with a ${AGE_CHECK_METHODS[check.method]}${issuer} on ${day}: 18 or over.`
    : `A ${AGE_CHECK_METHODS[check.method]}${issuer} said on ${day} that you are under 18.`;
}

/** What the account page says once the member's state is saved (`?done=state-saved`). */
export const STATE_SAVED_NOTICE = 'Your state is saved.';
