// The policy scanner (docs/product.md, section 6), for the server, the content compiler and pages.
// Browser-safe: no node:fs and no zod here; the terms files are read by term-files.ts.
export { findContactDetails, type ContactKind, type ContactMatch } from './contact-details.ts';
export { normaliseText, originalRange, type NormalisedText } from './normalise.ts';
export {
  contactDetailsMessage,
  refusedTermMessage,
  scanAd,
  type PolicyMark,
  type PolicyScan,
  type ScannedAd,
  type ScannedField,
} from './scan-ad.ts';
export { contactDetailsInMessage, refusedTermInMessage } from './scan-message.ts';
export {
  findFirstPolicyTerm,
  findPolicyTerms,
  parseTermList,
  type PolicyTermKind,
  type PolicyTerms,
  type TermMatch,
} from './terms.ts';
export {
  firstMessageRefusal,
  judgeMessage,
  messagePrint,
  SCAM_WARNINGS,
  scamRefusalMessage,
  type MessageContext,
  type ScamVerdict,
} from './scam-message.ts';
export {
  findScamSignals,
  parseScamSignals,
  SCAM_FAMILIES,
  SCAM_FAMILY_NAMES,
  type ScamAction,
  type ScamFamily,
  type ScamHit,
  type ScamSignals,
} from './scam-signals.ts';
