// The scam shield on ads (docs/product.md section 6): the ad model (model.ts, trained on ad texts)
// marks an ad it finds likely a scam for the moderator, beside the editors' signals. It never
// refuses an ad: a moderator reads every ad before it is live. Pure and browser-safe.
import type { PolicyMark } from '../policy/scan-ad.ts';
import { SCAM_FAMILY_NAMES } from '../policy/scam-signals.ts';
import { adShieldText, judgeText, type ShieldModelFile } from './model.ts';

/** The ad model's probability from which an ad is marked: in its k-fold figures, 229 of 260 scam
 * ads and 9 of 260 ordinary ones (0.5: 245 and 16). */
export const AD_MARK_PROBABILITY = 0.7;

/** The model's mark on an ad, if it finds it likely a scam: named in words, with its probability. */
export function adModelMark(
  model: ShieldModelFile,
  ad: { title: string; description: string },
): PolicyMark | undefined {
  const { probability, family } = judgeText(model, adShieldText(ad));
  if (probability < AD_MARK_PROBABILITY) return undefined;
  return {
    field: 'description',
    term: `reads like a scam to the learned model (${Math.round(probability * 100)} %, ${SCAM_FAMILY_NAMES[family]})`,
    family,
    start: 0,
    end: 0,
  };
}
