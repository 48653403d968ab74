// What a device sends to turn notifications on (docs/product.md section 7, "Notifications on this
// device"): the subscription its browser's push service gave, as PushSubscription.toJSON() writes
// it (https://www.w3.org/TR/push-api/#dom-pushsubscription-tojson), and the form of what else a
// member is notified of. One schema each for the page's script, the server and the tests.
import { z } from 'zod';
import { isTicked } from './reach-settings.ts';

/** An unpadded base64url string of `bytes` bytes (RFC 4648 section 5). */
const base64urlOf = (bytes: number, what: string) =>
  z
    .string({ error: `The subscription’s ${what} is missing.` })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: `The subscription’s ${what} is not base64url.` })
    .refine((value) => Math.floor((value.replace(/=+$/, '').length * 3) / 4) === bytes, {
      error: `The subscription’s ${what} is not ${bytes} bytes long.`,
    });

export const pushSubscriptionSchema = z.object({
  /** Where pushes for this device are posted: an https URL of its browser's push service. */
  endpoint: z
    .string({ error: 'The subscription has no endpoint.' })
    .max(2_000, { error: 'The subscription’s endpoint is too long.' })
    .refine((value) => URL.canParse(value), { error: 'The subscription’s endpoint is not a URL.' }),
  /** When the push service lets it expire (ms since the epoch), if it says. */
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      /** The browser's P-256 public key, uncompressed: 65 bytes. */
      p256dh: base64urlOf(65, 'public key'),
      /** Its authentication secret: 16 bytes. */
      auth: base64urlOf(16, 'authentication secret'),
    },
    { error: 'The subscription has no keys.' },
  ),
});

export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

const checkbox = z
  .union([z.boolean(), z.string()], { error: 'A checkbox is on or off.' })
  .optional()
  .transform(isTicked);

/** The account page's "What to notify me of" form: a box left unticked is off. */
export const pushSettingsSchema = z.object({
  requests: checkbox,
  savedSearches: checkbox,
  messageText: checkbox,
});

export type PushSettingsInput = z.infer<typeof pushSettingsSchema>;
