// The policy scanner as posting uses it (docs/product.md section 6): a refusal sends the form back with
// the message beside its field and stores nothing; marks (ambiguous terms) are stored with the ad
// for the moderator. The scanner is src/policy/; its terms come from the compiled content.
import { getPolicyTerms, getSite } from '../../src/content/index.ts';
import { scanAd, type PolicyScan, type ScannedAd } from '../../src/policy/index.ts';

export type AdScanner = (ad: ScannedAd) => PolicyScan;

export const scanAdForPosting: AdScanner = (ad) => scanAd(ad, getPolicyTerms(), getSite().brand);
