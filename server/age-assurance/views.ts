// What the member's pages show of their age assurance (core/views/age-assurance.ts): their state,
// its law if it asks for age checks, and their kept check.
import { getStates } from '../../core/content/index.ts';
import type { AgeAssuranceView, VerifyAgeView } from '../../core/views/age-assurance.ts';
import type { Store } from '../../store/store.ts';
import { ageAssuranceRuleOf } from './gate.ts';

export async function ageAssuranceView(store: Store, accountId: number): Promise<AgeAssuranceView> {
  const declaredState = await store.ageChecks.declaredState(accountId);
  const check = (await store.ageChecks.of([accountId])).get(accountId);
  const declaredStateLaw = ageAssuranceRuleOf(declaredState);
  return {
    declaredState,
    ...(check ? { check } : {}),
    ...(declaredStateLaw ? { declaredStateLaw } : {}),
  };
}

/** /verify-age's view: the member's own, and the laws of every state that asks for checks. */
export async function verifyAgeView(store: Store, accountId: number): Promise<VerifyAgeView> {
  const laws = getStates()
    .map((state) => ageAssuranceRuleOf(state.name))
    .filter((rule) => rule !== undefined);
  return { ...(await ageAssuranceView(store, accountId)), laws };
}
