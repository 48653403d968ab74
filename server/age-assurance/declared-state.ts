// The member's state, from /account's "Your state" form (docs/product.md section 6, "Age
// assurance"): set, changed or cleared. Where a state's law asks for age checks, it decides, with
// the state of the ad, whether the member checks their age before posting or writing first.
import type { Store } from '../../store/store.ts';

export async function saveDeclaredState(
  store: Store,
  accountId: number,
  state: string | undefined,
): Promise<void> {
  await store.ageChecks.declareState(accountId, state ?? null);
}
