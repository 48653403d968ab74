// A refused form shown again (docs/product.md section 3): the server's form mechanism
// (server/http/forms/refusal.ts) fills it, a page reads it as its request's `form`, and a domain
// module may read it too (server/reports/ban-confirm.ts: the ban's confirmation asked for again).
import type { FormPhoto } from '../schemas/ad-form.ts';

/** A form answered again: the banner message and what was typed (never a password). */
export interface FormFill {
  error?: string;
  /** The field the message is about, when it is about one. */
  field?: string;
  values: Readonly<Record<string, string>>;
  /** Messages shown beside their fields, by field name. */
  fieldErrors?: Readonly<Partial<Record<string, string>>>;
  /** The posting forms: the photos kept from the refused post (uploads, the ad's), shown again. */
  photos?: readonly FormPhoto[];
}
