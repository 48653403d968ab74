// What a member reads when the policy scanner refuses a message (docs/product.md section 7): an
// unambiguous term in the start of a conversation, or contact details in a message the other side
// has not answered (server/messages/conversations.ts and scam-shield.ts apply the rules; ambiguous
// terms let a message through: they are innocent in most messages, and a conversation can be
// reported). The scam signals' texts are scam-message.ts's. A refusal says why, with the clause of
// the terms it applies (core/schemas/terms-clauses.ts): a refused message has no stored decision.
import { clausePath, RULE_CLAUSES } from '../schemas/terms-clauses.ts';

/** The rule a refusal applies, as its statement of reasons names it: its clause, and the link. */
export const clauseLine = ({ number }: { number: string }) =>
  `The rule: clause ${number} of the terms, ${clausePath(number)}.`;

/** Why a message with an unambiguous term is refused; `word` as the member typed it. */
export const refusedTermInMessage = (word: string, brand = 'Localboard') =>
  `The word “${word}” can't be used in a message on ${brand}: members may not offer or seek anything for money, or involve anyone under 18. ${clauseLine(RULE_CLAUSES.refusedTerm)}`;

/** Why a first message with a phone number, an email address or a link is refused. */
export const contactDetailsInMessage = (brand = 'Localboard') =>
  `Contact details (phone numbers, email addresses, links) can't be in a first message: get to know each other on ${brand} first. Neither of you sees the other's email address here. ${clauseLine(RULE_CLAUSES.contactDetails)}`;
