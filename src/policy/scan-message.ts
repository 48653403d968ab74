// The policy scan of the first message of a conversation (docs/product.md section 7): the same
// normalising scanner as an ad's (scan-ad.ts). An unambiguous term or a contact detail refuses the
// message, with a message naming what to change. Ambiguous terms let it through: messages have no
// review queue, and the words are innocent in most messages ("my two teens", "a flower
// arrangement"); the recipient can report a conversation, and moderators then read the thread.
// The ad's own city and state never count, as in the ad itself. A refusal says why, with the clause
// of the terms it applies (src/schemas/terms-clauses.ts): a refused message has no stored decision.
import { findContactDetails } from './contact-details.ts';
import { findPolicyTerms, type PolicyTerms } from './terms.ts';
import { clausePath, RULE_CLAUSES } from '../schemas/terms-clauses.ts';

/** The rule a refusal applies, as its statement of reasons names it: its clause, and the link. */
const clauseLine = ({ number }: { number: string }) =>
  `The rule: clause ${number} of the terms, ${clausePath(number)}.`;

export interface MessageScan {
  /** Why the message is refused (it is not stored), if it is. */
  refusal?: string;
}

/** Why a message with an unambiguous term is refused; `word` as the member typed it. */
export const refusedTermInMessage = (word: string, brand = 'Localboard') =>
  `The word “${word}” can't be used in a message on ${brand}: members may not offer or seek anything for money, or involve anyone under 18. ${clauseLine(RULE_CLAUSES.refusedTerm)}`;

/** Why a first message with a phone number, an email address or a link is refused. */
export const contactDetailsInMessage = (brand = 'Localboard') =>
  `Contact details (phone numbers, email addresses, links) can't be in a first message: get to know each other on ${brand} first. Neither of you sees the other's email address here. ${clauseLine(RULE_CLAUSES.contactDetails)}`;

export function scanMessage(
  text: string,
  terms: PolicyTerms,
  places: readonly string[],
  brand?: string,
): MessageScan {
  const refused = findPolicyTerms(text, terms, places).find((found) => found.kind === 'refuse');
  if (refused)
    return { refusal: refusedTermInMessage(text.slice(refused.start, refused.end), brand) };
  if (findContactDetails(text)) return { refusal: contactDetailsInMessage(brand) };
  return {};
}
