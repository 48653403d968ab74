// A refusal: what a domain module (posting, moderation, messages, reports, accounts …) throws or
// returns when it will not do what was asked, in the domain's words: what kind of "no" it is, the
// message the member reads, and the field it is about. It speaks no HTTP: the one table that maps
// each kind to a status code, and the one answer (the form's page again, or JSON), are in
// server/http/forms/refusal.ts. An Error, so Hono hands a thrown one to the app's error handler.
import type { z } from 'zod';
import type { FormPhoto } from './schemas/ad-form.ts';
import { firstProblem } from './schemas/signup.ts';

export type RefusalKind =
  /** What was sent is wrong (a field, the body): the message says what to fix. */
  | 'invalid'
  /** Only for a signed-in member. */
  | 'signed-out'
  /** Not for this member (their own ad, a banned account, an unverified email …). */
  | 'forbidden'
  /** No such thing, or not this member's: the two are never told apart. */
  | 'not-found'
  /** This address answers another method. */
  | 'wrong-method'
  /** The thing changed meanwhile, or its state forbids it (already decided, a limit reached). */
  | 'conflict'
  /** It existed, and is gone for good (an expired ad, a closed conversation). */
  | 'gone'
  /** The body is larger than the endpoint reads. */
  | 'too-large'
  /** The body is neither JSON nor a form. */
  | 'unsupported'
  /** Too many, too fast: try again after `retryAfter` seconds. */
  | 'too-many'
  /** The server is at capacity or its data is away for now: try again after `retryAfter`. */
  | 'busy';

export interface RefusalDetails {
  /** The field the message is about (the form marks it; JSON names it). */
  field?: string;
  /** Seconds until trying again makes sense (rate limits, a busy server). */
  retryAfter?: number;
  /** Several fields' messages at once (the posting form), by field name; `form`: the banner. */
  fieldErrors?: Readonly<Record<string, string>>;
  /** The posting forms: the photos kept from the refused post, shown again. */
  photos?: readonly FormPhoto[];
}

export class Refusal extends Error {
  override readonly name = 'Refusal';
  readonly field?: string;
  readonly retryAfter?: number;
  readonly fieldErrors?: Readonly<Record<string, string>>;
  readonly photos?: readonly FormPhoto[];

  constructor(
    readonly kind: RefusalKind,
    message: string,
    details: RefusalDetails = {},
  ) {
    super(message);
    if (details.field !== undefined) this.field = details.field;
    if (details.retryAfter !== undefined) this.retryAfter = details.retryAfter;
    if (details.fieldErrors !== undefined) this.fieldErrors = details.fieldErrors;
    if (details.photos !== undefined) this.photos = details.photos;
  }

  /** The same refusal, showing these photos again. */
  withPhotos(photos: readonly FormPhoto[] | undefined): Refusal {
    if (!photos) return this;
    return new Refusal(this.kind, this.message, { ...this.details(), photos });
  }

  details(): RefusalDetails {
    const { field, retryAfter, fieldErrors, photos } = this;
    return {
      ...(field !== undefined ? { field } : {}),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
      ...(fieldErrors !== undefined ? { fieldErrors } : {}),
      ...(photos !== undefined ? { photos } : {}),
    };
  }
}

export const NOT_SIGNED_IN = 'You are not signed in.';
/** The banner of a form refused for several fields at once, each message beside its field. */
export const FIX_FIELDS = 'Please correct the fields marked below.';

/** Several fields refused at once: each message beside its field (`form`: about the whole form). */
export function fieldsRefusal(found: Readonly<Record<string, string>>): Refusal {
  const [field, message] = Object.entries(found)[0] ?? ['form', FIX_FIELDS];
  return new Refusal('invalid', message!, {
    ...(field === 'form' ? {} : { field }),
    fieldErrors: found,
  });
}

/** Checks fields with a schema: its first problem, beside its field, is the refusal. */
export function parseFields<Input>(schema: z.ZodType<Input>, fields: unknown): Input {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const problem = firstProblem(parsed.error);
  throw new Refusal('invalid', problem.message, { field: problem.field });
}
