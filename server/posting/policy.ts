// The policy scanner as posting uses it (docs/product.md section 6): a refusal sends the form back with
// the message beside its field and stores nothing; marks (ambiguous terms, scam signals) are stored with the ad
// for the moderator, and so is the ad model's mark of an ad it finds likely a scam. The scanner is
// core/policy/; its terms come from the compiled content.
import { getPolicyTerms, getScamSignals, getSite } from '../../core/content/index.ts';
import { scanAd, type PolicyScan, type ScannedAd } from '../../core/policy/index.ts';
import { adModelMark } from '../../core/shield/ad-mark.ts';
import { shieldModel } from '../messages/shield-model.ts';

export type AdScanner = (ad: ScannedAd) => PolicyScan;

export const scanAdForPosting: AdScanner = (ad) => {
  const scan = scanAd(ad, getPolicyTerms(), getSite().brand, getScamSignals());
  if (scan.refusal) return scan;
  // The ad model's mark (core/shield/ad-mark.ts): for the moderator, never a refusal.
  const modelMark = adModelMark(shieldModel('ads'), ad);
  return modelMark ? { ...scan, marks: [...scan.marks, modelMark] } : scan;
};

/**
 * The ad and its photos' descriptions (alt texts, shown on the site as the ad's text is): a
 * refused word or contact details in a description refuses the post, beside the photo field.
 * (Ambiguous words in a description are not marked: the moderator reads each one in the queue.)
 */
export function scanAdWithPhotos(
  scan: AdScanner,
  ad: ScannedAd,
  photos: readonly { alt: string }[] | undefined,
): Omit<PolicyScan, 'refusal'> & { refusal?: { field: string; message: string } } {
  const scanned = scan(ad);
  if (scanned.refusal) return scanned;
  for (const [index, photo] of (photos ?? []).entries()) {
    if (photo.alt.trim() === '') continue;
    const refusal = scan({ ...ad, title: photo.alt, description: '' }).refusal;
    if (refusal)
      return {
        ...scanned,
        refusal: { field: 'photos', message: `Photo ${index + 1}: ${refusal.message}` },
      };
  }
  return scanned;
}
