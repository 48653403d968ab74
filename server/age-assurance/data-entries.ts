// What Download my data says of the member's age assurance (docs/product.md sections 6 and 8): the
// state they declared, and everything kept of their age check, in words: how, the result, when,
// and the issuing state. Nothing else of a licence is kept, so nothing else can be in the file.
import { AGE_CHECK_METHODS } from '../../core/views/age-assurance.ts';
import type { Store } from '../../store/store.ts';

export async function ageAssuranceEntry(store: Pick<Store, 'ageChecks'>, accountId: number) {
  const check = (await store.ageChecks.of([accountId])).get(accountId);
  return {
    declaredState: await store.ageChecks.declaredState(accountId),
    ageCheck: check
      ? {
          method: AGE_CHECK_METHODS[check.method],
          result: check.outcome === 'passed' ? '18 or over' : 'under 18',
          checkedAt: check.checkedAt,
          issuingState: check.issuingState,
        }
      : null,
  };
}
