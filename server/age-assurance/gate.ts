// Where a state's law asks for it (content/states/{State}.md, `ageAssurance: required`), a member
// proves they are 18 or over before posting an ad or sending a first message (docs/product.md
// section 6, "Age assurance"): when the state they declared, or the state of the ad they post or
// write about, asks for it, and they have not passed a check, the post or the message is refused
// with the law's name and the way to the check. Browsing, answering in a conversation and
// everything where no state asks are unchanged.
import { getState } from '../../core/content/index.ts';
import { verifyAgePath } from '../../core/paths.ts';
import { Refusal } from '../../core/refusal.ts';
import type { Store } from '../../store/store.ts';

/** A state whose law asks for age checks, and the law's name. */
export interface AgeAssuranceRule {
  state: string;
  law: string;
}

/** The rule of `state` (a full state name), if its front matter asks for age checks. */
export function ageAssuranceRuleOf(state: string | null | undefined): AgeAssuranceRule | undefined {
  if (!state) return undefined;
  const found = getState(state);
  if (found?.ageAssurance !== 'required') return undefined;
  return { state: found.name, law: found.ageAssuranceLaw ?? `${found.name}'s law` };
}

/** Whether the member passed an age check. */
export async function passedAgeCheck(store: Store, accountId: number): Promise<boolean> {
  return (await store.ageChecks.of([accountId])).get(accountId)?.outcome === 'passed';
}

/**
 * The rule that holds the member back from posting or writing first about an ad in `adState`,
 * or undefined: the ad's state first, then the state they declared; none once they passed.
 */
export async function ageCheckStillNeeded(
  store: Store,
  accountId: number,
  adState: string | undefined,
): Promise<AgeAssuranceRule | undefined> {
  const rule =
    ageAssuranceRuleOf(adState) ??
    ageAssuranceRuleOf(await store.ageChecks.declaredState(accountId));
  if (!rule) return undefined;
  return (await passedAgeCheck(store, accountId)) ? undefined : rule;
}

export type GatedAction = 'post' | 'first-message';

/** What the member reads when the law holds them back, with the way to the check. */
export function ageCheckNeededText({ state, law }: AgeAssuranceRule, action: GatedAction): string {
  const doing = action === 'post' ? 'post an ad' : 'send a first message';
  const then =
    action === 'post'
      ? 'then post your ad again.'
      : 'then send your message again. Your message was not sent.';
  return `${law} asks us to check that members in ${state}, and anyone posting or writing about an ad there, are 18 or over before they ${doing}. Check your age once with a digital driver's licence on ${verifyAgePath()} (only the answer "18 or over" is kept), ${then}`;
}

/** Refuses (throws, 403) the post or first message when the law holds the member back. */
export async function checkAgeAssurance(
  store: Store,
  accountId: number,
  adState: string | undefined,
  action: GatedAction,
): Promise<void> {
  const rule = await ageCheckStillNeeded(store, accountId, adState);
  if (!rule) return;
  const text = ageCheckNeededText(rule, action);
  throw new Refusal('forbidden', text, action === 'post' ? {} : { field: 'body' });
}

/** A member who never said their state is taken to live where they first posted. */
export async function declareFirstAdState(
  store: Store,
  accountId: number,
  state: string,
): Promise<void> {
  await store.ageChecks.declareStateIfUnset(accountId, state);
}
