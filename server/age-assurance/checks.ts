// The age check by a digital licence, start to end (docs/product.md section 6, "Age assurance"):
// a request for the member's wallet in two protocols, one call (org-iso-mdoc, mdoc.ts; OpenID4VP,
// openid4vp.ts; their keys, nonce and origin kept a few minutes, store/parts/age-checks.ts), then
// the wallet's answer in the one it chose: its request taken (an answer works once), opened,
// verified, and the outcome kept: the method, pass or fail, the time and the issuing state,
// nothing else. Every answer not taken says why, in words.
import { randomBytes } from 'node:crypto';
import { Refusal, type RefusalKind } from '../../core/refusal.ts';
import type { AgeCheckRecord, AgeCheckRequestRow } from '../../store/parts/age-checks.ts';
import type { Store } from '../../store/store.ts';
import {
  type AgeCheckProtocol,
  MDOC_PROTOCOL,
  OPENID4VP_PROTOCOL,
} from '../../core/schemas/age-assurance.ts';
import {
  AgeCheckProblem,
  type AgeCheckProblemKind,
  base64url,
  newMdocRequest,
  nonceOf,
  openEncryptedResponse,
  sessionTranscript,
  verifyDeviceResponse,
} from './mdoc.ts';
import {
  newEncryptionKey,
  openId4VpRequestData,
  openOpenId4VpResponse,
  type OpenId4VpRequestData,
} from './openid4vp.ts';
import { stateOfCertificateName, trustedRoots } from './trust-list.ts';

/** How long a request waits for the wallet's answer. */
export const REQUEST_MINUTES = 5;
/** Requests a member may have waiting at once (each keeps a key and a row for its minutes). */
export const OPEN_REQUESTS_MAX = 5;

export interface AgeCheckDeps {
  store: Store;
  now: () => Date;
  /** The trust list's roots (PEM); default: trust-list.ts's folder, read at each check. */
  roots?: () => readonly string[];
}

/**
 * What the page's script hands to navigator.credentials.get, one request a protocol (the wallet
 * answers one), and the id to answer with.
 */
export interface AgeCheckRequest {
  requestId: string;
  requests: [
    { protocol: typeof MDOC_PROTOCOL; data: { deviceRequest: string; encryptionInfo: string } },
    { protocol: typeof OPENID4VP_PROTOCOL; data: OpenId4VpRequestData },
  ];
  expiresAt: string;
}

export const NO_TRUSTED_ISSUERS =
  'We cannot check digital licences yet: our list of issuing authorities is empty. You can still browse; please try again later.';
export const TOO_MANY_REQUESTS = `You have ${OPEN_REQUESTS_MAX} checks waiting for your wallet. Finish one, or start again in ${REQUEST_MINUTES} minutes.`;
export const REQUEST_USED =
  'This answer was used already, or its request is not yours. Each answer works once: start the check again.';
export const REQUEST_EXPIRED = `The check took longer than ${REQUEST_MINUTES} minutes. Start it again.`;
export const UNDER_18 =
  'Your digital licence says you are under 18. Localboard is for adults only: you cannot post ads or send first messages.';

/** Why an answer was refused, in words, and how (400: it is wrong; 403: it is not accepted). */
export const PROBLEM_TEXTS: Readonly<
  Record<AgeCheckProblemKind, { kind: RefusalKind; text: string }>
> = {
  unreadable: {
    kind: 'invalid',
    text: 'The answer from your wallet could not be read as a digital licence. Start the check again.',
  },
  'not-for-this-request': {
    kind: 'invalid',
    text: 'The answer was not made for this check (another request, another site, or another nonce). Start the check again.',
  },
  unsigned: {
    kind: 'invalid',
    text: "The licence's issuer signature is missing or does not match what it signed. Nothing was kept.",
  },
  untrusted: {
    kind: 'forbidden',
    text: 'The licence was not issued by an authority on our list of issuing authorities (US states that issue digital licences).',
  },
  expired: {
    kind: 'forbidden',
    text: 'The licence has expired, or is not valid yet. Refresh it in your wallet, then try again.',
  },
  altered: {
    kind: 'invalid',
    text: 'The answer does not match what the issuing authority signed. Nothing was kept.',
  },
  'not-a-licence': {
    kind: 'invalid',
    text: "The answer is not a mobile driver's licence (ISO 18013-5). Choose your driver's licence in your wallet.",
  },
  'no-age': {
    kind: 'invalid',
    text: 'The answer does not say whether you are 18 or over. Allow your wallet to share "age over 18".',
  },
};

/**
 * Deletes the requests whose 5 minutes are over (their key and nonce with them): at each new
 * request, and every few minutes by every instance (server/index.ts); how many.
 */
export function sweepAgeCheckRequests(store: Store, now: Date): Promise<number> {
  return store.ageChecks.sweepRequests(now.toISOString());
}

/** A new request for the member's wallet, sent from the page at `origin`. */
export async function startAgeCheck(
  deps: AgeCheckDeps,
  accountId: number,
  origin: string,
): Promise<AgeCheckRequest> {
  if ((deps.roots ?? trustedRoots)().length === 0)
    throw new Refusal('conflict', NO_TRUSTED_ISSUERS);
  const now = deps.now();
  await sweepAgeCheckRequests(deps.store, now);
  if (
    (await deps.store.ageChecks.openRequestsOf(accountId, now.toISOString())) >= OPEN_REQUESTS_MAX
  )
    throw new Refusal('too-many', TOO_MANY_REQUESTS, { retryAfter: REQUEST_MINUTES * 60 });
  const request = await newMdocRequest();
  const openid4vpKey = newEncryptionKey();
  const requestId = randomBytes(16).toString('base64url');
  const expiresAt = new Date(now.getTime() + REQUEST_MINUTES * 60_000).toISOString();
  await deps.store.ageChecks.openRequest({
    id: requestId,
    accountId,
    readerKey: request.readerKey,
    encryptionInfo: request.encryptionInfo,
    openid4vpKey,
    origin,
    createdAt: now.toISOString(),
    expiresAt,
  });
  const { deviceRequest, encryptionInfo } = request;
  return {
    requestId,
    requests: [
      { protocol: MDOC_PROTOCOL, data: { deviceRequest, encryptionInfo } },
      {
        protocol: OPENID4VP_PROTOCOL,
        data: await openId4VpRequestData(openid4vpKey, openId4VpNonce(encryptionInfo)),
      },
    ],
    expiresAt,
  };
}

/** One nonce a request: OpenID4VP's is org-iso-mdoc's 16 bytes, base64url (22 characters). */
const openId4VpNonce = (encryptionInfo: string) => base64url(nonceOf(encryptionInfo));

/** The DeviceResponse in an answer, and the session transcript it must be device-signed over. */
async function openAnswer(
  protocol: AgeCheckProtocol,
  response: string,
  request: AgeCheckRequestRow,
) {
  if (protocol === OPENID4VP_PROTOCOL)
    return openOpenId4VpResponse(response, {
      key: request.openid4vpKey,
      nonce: openId4VpNonce(request.encryptionInfo),
      origin: request.origin,
    });
  return {
    deviceResponse: await openEncryptedResponse(response, request),
    transcript: sessionTranscript(request.encryptionInfo, request.origin),
  };
}

/**
 * The wallet's answer to the member's request: verified and kept (a pass), or refused with its
 * reason; a licence saying "under 18" is kept as a failure, then refused.
 */
export async function finishAgeCheck(
  deps: AgeCheckDeps,
  accountId: number,
  answer: { requestId: string; protocol?: AgeCheckProtocol; response: string },
): Promise<AgeCheckRecord> {
  const request = await deps.store.ageChecks.takeRequest(answer.requestId, accountId);
  if (!request) throw new Refusal('conflict', REQUEST_USED);
  const now = deps.now();
  if (request.expiresAt <= now.toISOString()) throw new Refusal('gone', REQUEST_EXPIRED);
  let verified: Awaited<ReturnType<typeof verifyDeviceResponse>>;
  try {
    const { deviceResponse, transcript } = await openAnswer(
      answer.protocol ?? MDOC_PROTOCOL,
      answer.response,
      request,
    );
    verified = await verifyDeviceResponse(
      deviceResponse,
      transcript,
      (deps.roots ?? trustedRoots)(),
    );
  } catch (error) {
    if (!(error instanceof AgeCheckProblem)) throw error;
    const { kind, text } = PROBLEM_TEXTS[error.kind];
    throw new Refusal(kind, text);
  }
  const { signerCertificate } = verified;
  const record: AgeCheckRecord = {
    method: 'digital-licence',
    outcome: verified.ageOver18 ? 'passed' : 'failed',
    checkedAt: now.toISOString(),
    issuingState:
      stateOfCertificateName(signerCertificate.subject) ??
      stateOfCertificateName(signerCertificate.issuer) ??
      null,
  };
  await deps.store.ageChecks.record(accountId, record);
  if (!verified.ageOver18) throw new Refusal('forbidden', UNDER_18);
  return record;
}
