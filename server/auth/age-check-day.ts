// The day the age check counts from. A visitor's own calendar can be up to a day behind UTC, so
// counting from the UTC date lets someone in west of UTC before their 18th birthday has come
// where they are. The check counts from the date at UTC−12, the time zone furthest behind (Baker
// and Howland Islands, US territories; American Samoa, the furthest-behind inhabited one, is at
// UTC−11): a date of birth is accepted only once the 18th birthday has begun everywhere, in the
// US and on Earth. The cost: on the birthday itself someone may wait some hours (7 in New York,
// 2 in Honolulu) before the check lets them in.

const HOURS_BEHIND_UTC = 12;

/** Today's date (YYYY-MM-DD) in the time zone furthest behind UTC. */
export function ageCheckDay(now: Date): string {
  return new Date(now.getTime() - HOURS_BEHIND_UTC * 60 * 60 * 1000).toISOString().slice(0, 10);
}
