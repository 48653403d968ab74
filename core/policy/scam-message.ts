// What a message's scam signals do (docs/product.md section 7), and the words members read
// about them. A message its recipient has not answered yet is held to the strict rule: a `refuse`
// signal refuses it (nothing is stored, and the sender reads what to change); a `warn` signal lets
// it through with a warning for the recipient. Once the recipient has written back, the two are
// talking: off-site contact passes (people swap numbers when they are ready), and money, crypto,
// codes, content sales and scam stories still reach them only with the warning. The ad's own city
// and state never count. Browser-safe.
import {
  findScamSignals,
  SCAM_FAMILIES,
  type ScamFamily,
  type ScamHit,
  type ScamSignals,
} from './scam-signals.ts';
import { normaliseText } from './normalise.ts';
import { REASON_CLAUSES } from '../schemas/terms-clauses.ts';
import { clauseLine } from './scan-message.ts';

/** The clause of the terms a refused family breaks: contact details, or scams. */
const scamClause = (family: ScamFamily) =>
  family === 'off-site-contact' ? REASON_CLAUSES.contact.number : REASON_CLAUSES.scam.number;

export interface ScamVerdict {
  /** Why the message is refused (it is not stored), if it is. */
  refusal?: { family: ScamFamily; message: string };
  /** The families the recipient is warned about, in SCAM_FAMILIES order; none: no warning. */
  warnings: ScamFamily[];
  /** Every signal found, for the sender's record. */
  hits: ScamHit[];
}

export interface MessageContext {
  /** The ad's city and state: never a signal. */
  places: readonly string[];
  /** The recipient has written to the sender since the sender's first message there. */
  answered: boolean;
  brand?: string;
}

/** What the sender reads when a first message is refused, by family: what to change. */
export const scamRefusalMessage = (family: ScamFamily, brand = 'Localboard'): string =>
  ({
    'off-site-contact': `Messaging apps, social handles, phone numbers and addresses can't be in a message before the other member has answered you: talk on ${brand} first. Once they have written back, you can swap contacts if you both want to.`,
    money: `Asking for money, payment apps or gift cards can't be in a message on ${brand}: members may not ask each other for money. Take it out and write about the ad.`,
    crypto: `Crypto, trading and investment offers can't be in a message on ${brand}. Take it out and write about the ad.`,
    codes: `Asking someone to verify on another site, pay a fee, or pass on a code they receive can't be in a message on ${brand}: it is how accounts are stolen. Take it out and write about the ad.`,
    'content-sales': `Selling pictures, videos, shows or subscriptions (OnlyFans and the like) isn't allowed on ${brand}. Take it out and write about the ad.`,
    'scam-story': `This message reads like a request for money. Take that part out and write about the ad.`,
  })[family];

/** What a refused part of a first message reads as, by family: "The part “…” reads as …". */
export const SCAM_PART_READS_AS: Readonly<Record<ScamFamily, string>> = {
  'off-site-contact': 'a move to another app or contact details',
  money: 'a request for money',
  crypto: 'a crypto or investment offer',
  codes: 'a request to verify elsewhere or pass on a code',
  'content-sales': 'selling content',
  'scam-story': 'a story that ends in a request for money',
};

/**
 * What the sender of a refused first message reads (core/shield/decision.ts decides): the part
 * refused, in their own words, what to change, that they may say it otherwise, and the clause.
 */
export function firstMessageRefusal(
  text: string,
  family: ScamFamily,
  part: { start: number; end: number },
  brand = 'Localboard',
): string {
  const quoted = text.slice(part.start, part.end).trim();
  const shown = quoted.length > 160 ? `${quoted.slice(0, 159)}…` : quoted;
  return `Your message was not sent. The part “${shown}” reads as ${SCAM_PART_READS_AS[family]}. ${scamRefusalMessage(family, brand)} If we got this wrong, say it in other words: your message is kept below. ${clauseLine({ number: scamClause(family) })}`;
}

/** What the recipient reads beside a message with signals of `family`, in words. */
export const SCAM_WARNINGS: Readonly<Record<ScamFamily, string>> = {
  'off-site-contact':
    'This message asks to move to another app or gives contact details. Scammers move people off the site, where nobody can step in: take your time, and never share a code you receive.',
  money:
    'This message mentions money, a payment app or gift cards. Scammers ask for money for gas, rent, fees, gift cards or codes: never send any to someone you have not met.',
  crypto:
    'This message mentions crypto or investing. Crypto "mentors" and trading platforms are a common romance scam: never invest on the advice of someone you met here.',
  codes:
    'This message asks you to verify on another site or to share a code. Localboard never asks you to verify anywhere else, and a code sent to your phone is the key to your accounts: never pass it on.',
  'content-sales':
    'This message sells pictures, videos or a subscription. Selling content is not allowed here, and links to paid pages are often scams.',
  'scam-story':
    'This message mentions a fee or trouble abroad. Scammers ask for money for fees, customs, frozen accounts or hospital bills: never send any to someone you have not met.',
};

/** The families of `hits`, once each, in SCAM_FAMILIES order. */
const familiesOf = (hits: readonly ScamHit[]): ScamFamily[] =>
  SCAM_FAMILIES.filter((family) => hits.some((hit) => hit.family === family));

/** What the message's signals do, given whether the recipient has answered. */
export function judgeMessage(
  text: string,
  signals: ScamSignals,
  { places, answered, brand }: MessageContext,
): ScamVerdict {
  const hits = findScamSignals(text, signals, places);
  if (!answered) {
    const refusing = hits.find((hit) => hit.action === 'refuse');
    if (refusing)
      return {
        refusal: {
          family: refusing.family,
          // The rule it applies, as a statement of reasons names it (a refused message has no
          // stored decision): the clause of the terms and its link.
          message: `${scamRefusalMessage(refusing.family, brand)} ${clauseLine({ number: scamClause(refusing.family) })}`,
        },
        warnings: [],
        hits,
      };
    return { warnings: familiesOf(hits), hits };
  }
  return { warnings: familiesOf(hits.filter((hit) => hit.family !== 'off-site-contact')), hits };
}

/**
 * The one form of a message's text that "the same message" compares: normalised as the scanner
 * reads it, lower-case, every run of signs and spaces one space, digits kept. Two messages that
 * differ only in case, spacing, punctuation or look-alike letters have one print.
 */
export function messagePrint(text: string): string {
  return normaliseText(text)
    .text.toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
