// The policy scan of a member's ad on submit (docs/product.md, section 6): an unambiguous term or a
// contact detail refuses the ad, with a message naming what to change; ambiguous terms let it
// through to the moderator with the words marked. The ad's own city and state never count.
import { findContactDetails } from './contact-details.ts';
import {
  findScamSignals,
  SCAM_FAMILY_NAMES,
  type ScamFamily,
  type ScamSignals,
} from './scam-signals.ts';
import { findPolicyTerms, type PolicyTerms } from './terms.ts';

export type { PolicyTerms } from './terms.ts';

export type ScannedField = 'title' | 'description';

/**
 * An ambiguous term or a scam signal (`family`; `term` is then the family's name) found in a field;
 * offsets in the field's text as the member wrote it.
 */
export interface PolicyMark {
  field: ScannedField;
  term: string;
  family?: ScamFamily;
  start: number;
  end: number;
}

export interface PolicyScan {
  /** The first reason to refuse the ad (title before description), if any: the ad is not stored. */
  refusal?: { field: ScannedField; message: string };
  /** Ambiguous terms found, for the moderator, in field and text order. */
  marks: PolicyMark[];
}

export interface ScannedAd {
  state: string;
  city: string;
  title: string;
  description: string;
}

const FIELDS: readonly ScannedField[] = ['title', 'description'];

/** Why an ad with an unambiguous term is refused; `word` as the member typed it. */
export const refusedTermMessage = (word: string, brand = 'Localboard') =>
  `The word “${word}” can't be used in an ad on ${brand}: ads may not offer or seek anything for money, or involve anyone under 18 (see the terms).`;

/** Why an ad with a phone number, an email address or a link is refused. */
export const contactDetailsMessage = (brand = 'Localboard') =>
  `Contact details (phone numbers, email addresses, links) can't be in an ad: members reply through ${brand}.`;

/**
 * Scans an ad's title and description. `brand` (the site setting, content/site.md) goes into the
 * messages. Scam signals (`signals`, content/policy/scam-signals.txt) mark the ad for the
 * moderator by family ("money request"), as ambiguous terms do. Pass the same `terms` and
 * `signals` objects on every call (getPolicyTerms(), getScamSignals()): they are compiled once.
 */
export function scanAd(
  ad: ScannedAd,
  terms: PolicyTerms,
  brand?: string,
  signals?: ScamSignals,
): PolicyScan {
  const places = [ad.city, ad.state];
  const marks: PolicyMark[] = [];
  let refusal: PolicyScan['refusal'];
  for (const field of FIELDS) {
    const text = ad[field];
    for (const found of findPolicyTerms(text, terms, places)) {
      if (found.kind === 'review')
        marks.push({ field, term: found.term, start: found.start, end: found.end });
      else
        refusal ??= {
          field,
          message: refusedTermMessage(text.slice(found.start, found.end), brand),
        };
    }
    if (!refusal && findContactDetails(text))
      refusal = { field, message: contactDetailsMessage(brand) };
    if (signals) marks.push(...scamMarks(field, text, signals, places));
  }
  return refusal ? { refusal, marks } : { marks };
}

/**
 * The scam signals of a field as marks, one a stretch of text and family ("cashapp me" and the
 * "cashapp" inside it are one mark: the longer).
 */
function scamMarks(
  field: ScannedField,
  text: string,
  signals: ScamSignals,
  places: readonly string[],
): PolicyMark[] {
  const hits = findScamSignals(text, signals, places).sort(
    (a, b) => a.start - b.start || b.end - a.end,
  );
  const marks: PolicyMark[] = [];
  for (const { family, start, end } of hits) {
    if (marks.some((mark) => mark.family === family && start < mark.end && mark.start < end))
      continue;
    marks.push({ field, term: SCAM_FAMILY_NAMES[family], family, start, end });
  }
  return marks;
}
