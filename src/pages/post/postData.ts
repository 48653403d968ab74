import { utcDay } from '../../../core/days.ts';
import { getSite, getState, getStates } from '../../../core/content/index.ts';
import { postPath } from '../../../core/paths.ts';
import { ageOn } from '../../../core/schemas/age.ts';
import { AD_AGE_MAX, AD_AGE_MIN, MAX_ACTIVE_ADS } from '../../../core/schemas/ad-limits.ts';
import type { AdFormValues } from '../../components/AdForm.tsx';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';

/** `/post`, for signed-in members: the posting form, or why they cannot post yet. */
export function postData({ request }: DataContext) {
  const { brand } = getSite();
  const member = request?.member;
  const typed = request?.form?.values ?? {};
  const values: AdFormValues = {
    state: typed.state ?? knownState(request?.query.state) ?? '',
    city: typed.city ?? request?.query.city ?? '',
    age: typed.age ?? defaultAge(member?.dateOfBirth),
    seeks: typed.seeks ?? '',
    title: typed.title ?? '',
    description: typed.description ?? '',
  };
  return {
    ...pageShell({
      title: `Post an ad - ${brand}`,
      description: `Post a personal ad on ${brand}. Every ad is reviewed before it goes live.`,
      path: postPath(),
      robots: 'noindex, nofollow',
    }),
    access: 'members' as const,
    brand,
    /** Absent only on the dev server, which has no sessions: the form is shown. */
    member,
    canPost: member ? member.emailVerified : true,
    values,
    states: getStates().map((state) => state.name),
    cities: citiesOf(values.state),
    error: request?.form?.error,
    fieldErrors: request?.form?.fieldErrors ?? {},
    /** Photos kept from a refused post (uploads), shown again so nothing is uploaded twice. */
    photos: request?.form?.photos ?? [],
    maxActiveAds: MAX_ACTIVE_ADS,
  };
}

/** The state's city names, most populous first (the form's suggestions). */
export const citiesOf = (state: string) => getState(state)?.cities.map((city) => city.name) ?? [];

const knownState = (name: string | undefined) => (name && getState(name) ? name : undefined);

/** The member's own age from their date of birth, when it is one an ad may state. */
function defaultAge(dateOfBirth: string | undefined): string {
  if (!dateOfBirth) return '';
  const age = ageOn(dateOfBirth, utcDay());
  return age >= AD_AGE_MIN && age <= AD_AGE_MAX ? String(age) : '';
}
