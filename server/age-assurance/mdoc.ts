// The check by a digital licence (docs/product.md section 6, "Age assurance"): ISO/IEC 18013-7
// Annex C, the `org-iso-mdoc` protocol of the W3C Digital Credentials API. The server asks a
// wallet for one element, `age_over_18` of namespace org.iso.18013.5.1 in an mDL, with a fresh
// ephemeral reader key (P-256) and nonce; the wallet answers with a DeviceResponse encrypted to
// that key with HPKE (DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM), its info the session
// transcript, which binds the answer to this request and this site's origin:
//
//   EncryptionInfo    = ["dcapi", { "nonce": bstr, "recipientPublicKey": COSE_Key }]
//   dcapiInfo         = [base64url(CBOR(EncryptionInfo)), origin]
//   SessionTranscript = [null, null, ["dcapi", SHA-256(CBOR(dcapiInfo))]]
//   EncryptedResponse = ["dcapi", { "enc": bstr, "cipherText": bstr }]
//
// The DeviceResponse is then verified by @auth0/mdl (docs/product.md says why that library): the
// CBOR, the issuer's COSE_Sign1 over the mobile security object, the issuer's certificate chain
// to a root of the trust list, the MSO's validity dates, the device signature (or MAC) over
// DeviceAuthentication made of OUR session transcript, and each returned element's value digest.
// A problem is an AgeCheckProblem with its kind; checks.ts turns it into words.
import { createHash, X509Certificate } from 'node:crypto';
import {
  getCborEncodeDecodeOptions,
  MDLError,
  MDLParseError,
  Verifier,
  VerificationAssessmentId,
} from '@auth0/mdl';
import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { Encoder, Tag } from 'cbor-x';

export const MDL_DOCTYPE = 'org.iso.18013.5.1.mDL';
export const MDL_NAMESPACE = 'org.iso.18013.5.1';
export const AGE_OVER_18 = 'age_over_18';

/** The library's own CBOR settings: byte strings untagged, maps as maps, as ISO 18013-5 has them. */
export const cbor = new Encoder(getCborEncodeDecodeOptions());
const suite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes128Gcm(),
});

/** Why an answer was not taken, one kind a reason (checks.ts words each). */
export type AgeCheckProblemKind =
  | 'unreadable'
  | 'not-for-this-request'
  | 'unsigned'
  | 'untrusted'
  | 'expired'
  | 'altered'
  | 'not-a-licence'
  | 'no-age';

export class AgeCheckProblem extends Error {
  override readonly name = 'AgeCheckProblem';
  constructor(
    readonly kind: AgeCheckProblemKind,
    detail: string,
  ) {
    super(detail);
  }
}

/** What the server sends to the wallet, and the reader key it keeps to open the answer. */
export interface MdocRequest {
  /** base64url(CBOR(DeviceRequest)). */
  deviceRequest: string;
  /** base64url(CBOR(EncryptionInfo)). */
  encryptionInfo: string;
  /** The ephemeral reader key's private scalar (32 bytes). */
  readerKey: Buffer;
}

export const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** The DeviceRequest for `age_over_18` of an mDL, not to be retained (intent_to_retain false). */
export function deviceRequestBytes(): Uint8Array {
  const itemsRequest = new Map<string, unknown>([
    ['docType', MDL_DOCTYPE],
    ['nameSpaces', new Map([[MDL_NAMESPACE, new Map([[AGE_OVER_18, false]])]])],
  ]);
  const docRequest = new Map([['itemsRequest', new Tag(cbor.encode(itemsRequest), 24)]]);
  return cbor.encode(
    new Map<string, unknown>([
      ['version', '1.0'],
      ['docRequests', [docRequest]],
    ]),
  );
}

/** A new request: a fresh reader key and nonce (16 random bytes). */
export async function newMdocRequest(): Promise<MdocRequest> {
  const keys = await suite.kem.generateKeyPair();
  const publicKey = new Uint8Array(await suite.kem.serializePublicKey(keys.publicKey));
  // An uncompressed P-256 point: 0x04, x, y. As a COSE_Key: kty EC2 (2), crv P-256 (1).
  const coseKey = new Map<number, unknown>([
    [1, 2],
    [-1, 1],
    [-2, publicKey.slice(1, 33)],
    [-3, publicKey.slice(33, 65)],
  ]);
  const nonce = crypto.getRandomValues(new Uint8Array(16));
  const encryptionInfo = [
    'dcapi',
    new Map<string, unknown>([
      ['nonce', nonce],
      ['recipientPublicKey', coseKey],
    ]),
  ];
  return {
    deviceRequest: base64url(deviceRequestBytes()),
    encryptionInfo: base64url(cbor.encode(encryptionInfo)),
    readerKey: Buffer.from(await suite.kem.serializePrivateKey(keys.privateKey)),
  };
}

/**
 * CBOR(SessionTranscript) of a request over the Digital Credentials API, either protocol's:
 * [null, null, [handover's name, SHA-256(CBOR(info))]] (no device engagement, no reader key bytes).
 */
export function dcApiSessionTranscript(handover: string, info: readonly unknown[]): Uint8Array {
  const infoHash = createHash('sha256').update(cbor.encode(info)).digest();
  return cbor.encode([null, null, [handover, infoHash]]);
}

/** CBOR(SessionTranscript) of a request sent from `origin` (the HPKE info). */
export const sessionTranscript = (encryptionInfo: string, origin: string): Uint8Array =>
  dcApiSessionTranscript('dcapi', [encryptionInfo, origin]);

/** SessionTranscriptBytes: the transcript as an embedded CBOR data item (tag 24), as signed. */
export const sessionTranscriptBytes = (transcript: Uint8Array): Uint8Array =>
  cbor.encode(new Tag(transcript, 24));

const encryptionParameters = (encryptionInfo: string) =>
  (
    cbor.decode(Buffer.from(encryptionInfo, 'base64url')) as [
      string,
      Map<string, Uint8Array & Map<number, Uint8Array>>,
    ]
  )[1];

/** The reader key's public half, as the wallet encrypts to it (tests, and a check of the key). */
export async function readerPublicKey(encryptionInfo: string): Promise<Uint8Array> {
  const key = encryptionParameters(encryptionInfo).get('recipientPublicKey')!;
  return new Uint8Array([4, ...key.get(-2)!, ...key.get(-3)!]);
}

/** The request's nonce (16 bytes), as its EncryptionInfo carries it. */
export const nonceOf = (encryptionInfo: string): Uint8Array =>
  encryptionParameters(encryptionInfo).get('nonce')!;

/** The DeviceResponse inside the wallet's EncryptedResponse, opened with the request's key. */
export async function openEncryptedResponse(
  response: string,
  request: { readerKey: Buffer; encryptionInfo: string; origin: string },
): Promise<Uint8Array> {
  let enc: Uint8Array;
  let cipherText: Uint8Array;
  try {
    const [kind, data] = cbor.decode(Buffer.from(response, 'base64url')) as [string, unknown];
    const parameters = data instanceof Map ? data : new Map();
    enc = parameters.get('enc') as Uint8Array;
    cipherText = parameters.get('cipherText') as Uint8Array;
    if (kind !== 'dcapi' || !(enc instanceof Uint8Array) || !(cipherText instanceof Uint8Array))
      throw new Error('not an EncryptedResponse ["dcapi", {enc, cipherText}]');
  } catch (error) {
    throw new AgeCheckProblem('unreadable', (error as Error).message);
  }
  const info = sessionTranscript(request.encryptionInfo, request.origin);
  try {
    const recipientKey = await suite.kem.deserializePrivateKey(new Uint8Array(request.readerKey));
    const recipient = await suite.createRecipientContext({ recipientKey, enc, info });
    return new Uint8Array(await recipient.open(cipherText));
  } catch (error) {
    // Another request's key, another origin, or bytes changed on the way: HPKE's tag says no.
    throw new AgeCheckProblem('not-for-this-request', (error as Error).message);
  }
}

/** What a verified answer says: whether the holder is 18 or over, and the issuer's certificate. */
export interface VerifiedAge {
  ageOver18: boolean;
  /** The document signer's certificate (x5chain's first), DER. */
  signerCertificate: X509Certificate;
}

const { ISSUER_AUTH, DEVICE_AUTH, DATA_INTEGRITY } = VerificationAssessmentId;
/** The library's failed checks, by the kind of problem each shows. */
const PROBLEM_OF_CHECK: Readonly<Record<string, AgeCheckProblemKind>> = {
  [ISSUER_AUTH.IssuerCertificateValidity]: 'untrusted',
  [ISSUER_AUTH.IssuerSignatureValidity]: 'unsigned',
  [ISSUER_AUTH.MsoSignedDateWithinCertificateValidity]: 'expired',
  [ISSUER_AUTH.MsoValidityAtVerificationTime]: 'expired',
  [ISSUER_AUTH.IssuerSubjectCountryNamePresence]: 'untrusted',
  ...Object.fromEntries(Object.values(DEVICE_AUTH).map((id) => [id, 'not-for-this-request'])),
  ...Object.fromEntries(Object.values(DATA_INTEGRITY).map((id) => [id, 'altered'])),
};

/**
 * Verifies the DeviceResponse against the trust list's roots (PEM) and our session transcript;
 * throws an AgeCheckProblem, or says what `age_over_18` is.
 */
export async function verifyDeviceResponse(
  deviceResponse: Uint8Array,
  transcript: Uint8Array,
  trustedRoots: readonly string[],
): Promise<VerifiedAge> {
  let verified: Awaited<ReturnType<Verifier['verify']>>;
  try {
    verified = await new Verifier([...trustedRoots]).verify(deviceResponse, {
      encodedSessionTranscript: sessionTranscriptBytes(transcript),
    });
  } catch (error) {
    if (error instanceof MDLError)
      throw new AgeCheckProblem(PROBLEM_OF_CHECK[error.code ?? ''] ?? 'unreadable', error.message);
    if (error instanceof MDLParseError) throw new AgeCheckProblem('unreadable', error.message);
    throw new AgeCheckProblem('unreadable', (error as Error).message);
  }
  const [document, ...others] = verified.documents;
  if (!document || others.length > 0 || document.docType !== MDL_DOCTYPE)
    throw new AgeCheckProblem('not-a-licence', `documents: ${verified.documents.length}`);
  const issuerAuth = document.issuerSigned.issuerAuth;
  if (issuerAuth.decodedPayload.docType !== MDL_DOCTYPE)
    throw new AgeCheckProblem('not-a-licence', `MSO docType ${issuerAuth.decodedPayload.docType}`);
  const items = document.issuerSigned.nameSpaces[MDL_NAMESPACE] ?? [];
  const ageItems = items.filter((item) => item.elementIdentifier === AGE_OVER_18);
  const value = ageItems[0]?.elementValue;
  if (ageItems.length !== 1 || typeof value !== 'boolean')
    throw new AgeCheckProblem('no-age', `age_over_18: ${ageItems.length} item(s)`);
  const signer = issuerAuth.x5chain?.[0];
  if (!signer) throw new AgeCheckProblem('unsigned', 'no x5chain');
  return { ageOver18: value, signerCertificate: new X509Certificate(signer) };
}
