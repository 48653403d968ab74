// The key a run line is sorted and merged by (`{listKey}<TAB>{json}`, ad-batch-cache.ts and
// state-ad-files.ts): a city's name, then its ads in list order, as one string compared by code
// unit, so merging the runs of a state needs no parsing of the ads.
import type { ListOrderFields } from '../../core/content/ad-order.ts';

/**
 * A string whose order is the list order of a city's ads (featured first, newest first, highest id
 * first; core/content/ad-order.ts), after the city's name: the runs sort and merge by it alone.
 */
export function listKey(ad: ListOrderFields & { city: string }): string {
  const id = Number.isSafeInteger(ad.id) ? String(ad.id) : BigInt(ad.id).toString();
  return (
    `${ad.city}\u0000${ad.featured ? '0' : '1'}` +
    invertDigits(ad.postedAt.replace(/-/g, '')) +
    invertDigits(String(id.length).padStart(3, '0')) +
    invertDigits(id)
  );
}

/** 0 ↔ 9, 1 ↔ 8, …: the larger number sorts first. */
function invertDigits(digits: string): string {
  let inverted = '';
  for (let index = 0; index < digits.length; index += 1)
    inverted += String.fromCharCode(105 - digits.charCodeAt(index));
  return inverted;
}

/** The city a run line's key belongs to. */
export const cityOfKey = (key: string) => key.slice(0, key.indexOf('\u0000'));
