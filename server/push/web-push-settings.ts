// Web Push's settings (docs/product.md section 12), from the environment, for the server
// (server/index.ts): the site's VAPID key pair, which identifies it to the browsers' push services
// (RFC 8292: VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, printed by `npm run push:keys`), the contact
// those services may write to (VAPID_SUBJECT, a mailto: or https: URL; default: mailto: the
// content's contactEmail), and the push services the server posts to (PUSH_SERVICE_ORIGINS,
// default PUSH_SERVICES). Without the keys, the site sends no notifications and /account does not
// offer them. A wrong setting stops the server at start-up, in one line.
import { createECDH } from 'node:crypto';

export interface VapidKeys {
  /** The uncompressed P-256 public key, base64url (65 bytes): what a browser subscribes with. */
  publicKey: string;
  /** The private key, base64url (32 bytes). */
  privateKey: string;
  /** A mailto: or https: URL the push services may contact the site's operator at. */
  subject: string;
}

export interface WebPushSettings {
  vapid: VapidKeys;
  /**
   * The origins a subscription's endpoint may have: `https://fcm.googleapis.com`, or a pattern
   * with `*.` for any subdomain (`https://*.notify.windows.com`). The server posts pushes only
   * there, so that a member cannot make it post to any address they like.
   */
  serviceOrigins: readonly string[];
}

/**
 * The push services of the browsers that support Web Push: Chrome, Opera, Samsung Internet and
 * other Chromium browsers (Firebase Cloud Messaging), Firefox (Mozilla's autopush), Safari
 * (Apple's) and Edge (Windows Push Notification Services).
 */
export const PUSH_SERVICES: readonly string[] = [
  'https://fcm.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://web.push.apple.com',
  'https://*.push.apple.com',
  'https://*.notify.windows.com',
];

/** Whether `endpoint` is on one of `origins` (patterns as WebPushSettings says). */
export function isAllowedEndpoint(endpoint: string, origins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return origins.some((origin) => {
    const pattern = /^(https?:)\/\/(\*\.)?([^/:]+)(?::(\d+))?$/.exec(origin);
    if (!pattern) return false;
    const [, protocol, anySubdomain, host, port = ''] = pattern;
    if (url.protocol !== protocol || url.port !== port) return false;
    return anySubdomain ? url.hostname.endsWith(`.${host}`) : url.hostname === host;
  });
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The push settings, none (no keys: no notifications), or what is wrong with them. */
export function webPushFromEnv(
  env: NodeJS.ProcessEnv,
  contactEmail: string,
): { settings?: WebPushSettings; problem?: string } {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() ?? '';
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() ?? '';
  if (!publicKey && !privateKey) return {};
  if (!publicKey || !privateKey)
    return {
      problem: `VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both (npm run push:keys prints a pair), or neither.`,
    };
  const problem = keyPairProblem(publicKey, privateKey);
  if (problem) return { problem };
  const subject = env.VAPID_SUBJECT?.trim() || `mailto:${contactEmail}`;
  if (!/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/.test(subject))
    return {
      problem: `VAPID_SUBJECT: expected a mailto: or https: URL for push services to contact you at, got ${JSON.stringify(subject)}`,
    };
  const origins = env.PUSH_SERVICE_ORIGINS?.trim();
  const serviceOrigins = origins
    ? origins
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean)
    : PUSH_SERVICES;
  const wrong = serviceOrigins.find((origin) => !/^https?:\/\/(\*\.)?[^/:*]+(:\d+)?$/.test(origin));
  if (wrong)
    return {
      problem: `PUSH_SERVICE_ORIGINS: expected origins like https://fcm.googleapis.com or https://*.notify.windows.com, got ${JSON.stringify(wrong)}`,
    };
  return { settings: { vapid: { publicKey, privateKey, subject }, serviceOrigins } };
}

/** What is wrong with a VAPID key pair: not base64url, the wrong size, or not one pair. */
function keyPairProblem(publicKey: string, privateKey: string): string | undefined {
  if (!BASE64URL.test(publicKey) || Buffer.from(publicKey, 'base64url').length !== 65)
    return 'VAPID_PUBLIC_KEY: expected an uncompressed P-256 public key, 65 bytes in base64url (npm run push:keys prints one).';
  if (!BASE64URL.test(privateKey) || Buffer.from(privateKey, 'base64url').length !== 32)
    return 'VAPID_PRIVATE_KEY: expected a P-256 private key, 32 bytes in base64url (npm run push:keys prints one).';
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  } catch {
    return 'VAPID_PRIVATE_KEY: not a P-256 private key (npm run push:keys prints a pair).';
  }
  if (ecdh.getPublicKey('base64url') !== publicKey)
    return 'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY: set the two of one pair (npm run push:keys prints one).';
  return undefined;
}
