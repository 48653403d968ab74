// A wallet for the tests (docs/product.md section 6, "Age assurance"), with real cryptography: it
// holds an mDL issued with @auth0/mdl by a test document signer under the test IACA root
// (tests/fixtures/age-assurance/: the root is in the trust list only when AGE_ISSUERS_DIR names
// issuers/), and answers the server's request in either protocol a wallet may choose: under
// ISO 18013-7 Annex C (`answer`), a DeviceResponse with `age_over_18` only, device-signed over the
// session transcript of the request and the page's origin, encrypted with HPKE to the request's
// reader key; under OpenID4VP 1.0 (`answerOpenId4Vp`), the same DeviceResponse device-signed over
// the OpenID4VPDCAPIHandover transcript, in vp_token, encrypted as a JWE (ECDH-ES, A128GCM) with
// jose to the key the request names. Each option spoils one thing, for the refusals.
import { generateKeyPairSync, createPrivateKey, type JsonWebKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  DataItem,
  DeviceResponse,
  Document,
  MDoc,
  getCborEncodeDecodeOptions,
  parse,
} from '@auth0/mdl';
import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { Encoder } from 'cbor-x';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import {
  AGE_OVER_18,
  AgeCheckProblem,
  MDL_DOCTYPE,
  MDL_NAMESPACE,
  readerPublicKey,
  sessionTranscript,
  sessionTranscriptBytes,
} from '../../server/age-assurance/mdoc.ts';
import {
  CREDENTIAL_QUERY_ID,
  openId4VpSessionTranscript,
  type OpenId4VpRequestData,
} from '../../server/age-assurance/openid4vp.ts';

export const AGE_FIXTURES = fileURLToPath(new URL('../fixtures/age-assurance/', import.meta.url));
/** The trust list the tests use: the test IACA root alone. */
export const TEST_ISSUERS_DIR = `${AGE_FIXTURES}issuers`;
/** The test licence's other elements, which no table may ever hold. */
export const LICENCE_FAMILY_NAME = 'Quillfeather';
export const LICENCE_BIRTH_DATE = '1987-06-05';

const fixture = (name: string) => readFileSync(`${AGE_FIXTURES}${name}`, 'utf8');

const cbor = new Encoder(getCborEncodeDecodeOptions());
const suite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes128Gcm(),
});

/** The request the server gave the page (checks.ts `AgeCheckRequest`'s data). */
export interface WalletRequest {
  data: { deviceRequest: string; encryptionInfo: string };
}

export interface CredentialOptions {
  ageOver18?: boolean;
  /** The test signer under the trusted root, or one under a root nobody trusts. */
  signer?: 'trusted' | 'untrusted';
  /** The licence's validity (the MSO's validFrom and validUntil). */
  validFrom?: Date;
  validUntil?: Date;
}

/** What spoils a DeviceResponse itself, whichever protocol carries it. */
interface PresentationOptions {
  /** The issuer's signature spoiled (one bit of it flipped). */
  unsigned?: boolean;
  /** The element's value changed after the issuer signed it (its digest no longer matches). */
  alterValue?: boolean;
}

export interface AnswerOptions extends PresentationOptions {
  /** The origin the wallet saw (default: the request's). */
  origin?: string;
  /** Device-signs over another request's transcript: another nonce, another reader key. */
  signOverOtherRequest?: string;
}

export interface OpenId4VpAnswerOptions extends PresentationOptions {
  /** The origin the wallet saw (default: the request's). */
  origin?: string;
  /** Device-signs over a transcript with another nonce. */
  nonce?: string;
  /** Encrypts the answer to another key than the request's (a JWK with its alg and kid). */
  encryptTo?: JWK;
}

/** What the server finds wrong with an answer: its AgeCheckProblem's kind, or 'accepted'. */
export const problemOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) => (error instanceof AgeCheckProblem ? error.kind : String(error)),
  );

/** A wallet holding one test mDL with its device key. */
export async function testWallet(options: CredentialOptions = {}) {
  const signer = options.signer ?? 'trusted';
  const device = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const now = Date.now();
  const document = await new Document(MDL_DOCTYPE)
    .addIssuerNameSpace(MDL_NAMESPACE, {
      [AGE_OVER_18]: options.ageOver18 ?? true,
      // What a licence holds besides: never asked, never sent, never kept (a test looks for them).
      family_name: LICENCE_FAMILY_NAME,
      birth_date: LICENCE_BIRTH_DATE,
    })
    .useDigestAlgorithm('SHA-256')
    .addValidityInfo({
      signed: options.validFrom ?? new Date(now - 86_400_000),
      validFrom: options.validFrom ?? new Date(now - 86_400_000),
      validUntil: options.validUntil ?? new Date(now + 365 * 86_400_000),
    })
    .addDeviceKeyInfo({ deviceKey: device.publicKey.export({ format: 'jwk' }) as JsonWebKey })
    .sign({
      issuerPrivateKey: createPrivateKey(
        fixture(`${signer === 'trusted' ? 'test' : 'untrusted'}-signer.key`),
      ).export({
        format: 'jwk',
      }) as JsonWebKey,
      issuerCertificate: fixture(`${signer === 'trusted' ? 'test' : 'untrusted'}-signer.pem`),
      alg: 'ES256',
    });
  const issued = new MDoc([document]).encode();

  /** CBOR(DeviceResponse) with `age_over_18` alone, device-signed over `signedOver`. */
  async function presentation(signedOver: Uint8Array, answer: PresentationOptions) {
    const mdoc = parse(issued);
    const issuerSigned = mdoc.documents[0]!.issuerSigned;
    if (answer.unsigned) {
      const signature = issuerSigned.issuerAuth.signature;
      signature[10] = signature[10]! ^ 1;
    }
    if (answer.alterValue) {
      // The element made again with "true": its bytes, and so its digest, differ from what the
      // issuer signed.
      const items = issuerSigned.nameSpaces[MDL_NAMESPACE]!;
      const index = items.findIndex((item) => item.elementIdentifier === AGE_OVER_18);
      const item = items[index]!;
      const data = new Map(item.dataItem.data as Map<string, unknown>);
      data.set('elementValue', true);
      const ItemClass = item.constructor as new (dataItem: DataItem) => typeof item;
      items[index] = new ItemClass(DataItem.fromData(data));
    }
    const response = await DeviceResponse.from(mdoc)
      .usingPresentationDefinition(AGE_ONLY)
      .usingSessionTranscriptBytes(Buffer.from(sessionTranscriptBytes(signedOver)))
      .authenticateWithSignature(device.privateKey.export({ format: 'jwk' }) as JsonWebKey, 'ES256')
      .sign();
    return response.encode();
  }

  return {
    /** The wallet's EncryptedResponse (base64url) to `request`, made from the page at `origin`. */
    async answer(request: WalletRequest, origin: string, answer: AnswerOptions = {}) {
      const { encryptionInfo } = request.data;
      const signedOver = sessionTranscript(
        answer.signOverOtherRequest ?? encryptionInfo,
        answer.origin ?? origin,
      );
      const info = sessionTranscript(encryptionInfo, answer.origin ?? origin);
      const recipientPublicKey = await suite.kem.deserializePublicKey(
        await readerPublicKey(encryptionInfo),
      );
      const sender = await suite.createSenderContext({ recipientPublicKey, info });
      const cipherText = await sender.seal(await presentation(signedOver, answer));
      const encrypted = [
        'dcapi',
        new Map<string, Uint8Array>([
          ['enc', new Uint8Array(sender.enc)],
          ['cipherText', new Uint8Array(cipherText)],
        ]),
      ];
      return Buffer.from(cbor.encode(encrypted)).toString('base64url');
    },

    /**
     * The wallet's OpenID4VP answer's `response` (a compact JWE) to `request`'s data, made from
     * the page at `origin`: `{ vp_token: { mdl: [base64url(DeviceResponse)] } }`, encrypted to
     * the request's key.
     */
    async answerOpenId4Vp(
      request: { data: OpenId4VpRequestData },
      origin: string,
      answer: OpenId4VpAnswerOptions = {},
    ) {
      const { nonce, client_metadata } = request.data;
      const requestKey = client_metadata.jwks.keys[0]!;
      const key = answer.encryptTo ?? requestKey;
      const signedOver = await openId4VpSessionTranscript(
        answer.origin ?? origin,
        answer.nonce ?? nonce,
        key,
      );
      const deviceResponse = await presentation(signedOver, answer);
      const payload = {
        vp_token: { [CREDENTIAL_QUERY_ID]: [Buffer.from(deviceResponse).toString('base64url')] },
      };
      return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader({
          alg: key.alg!,
          enc: client_metadata.encrypted_response_enc_values_supported[0]!,
          kid: key.kid,
        })
        .encrypt(await importJWK(key, key.alg));
    },
  };
}

/** What the wallet discloses: `age_over_18` alone, as the server's DeviceRequest asks. */
const AGE_ONLY = {
  id: 'age-over-18',
  input_descriptors: [
    {
      id: MDL_DOCTYPE,
      format: { mso_mdoc: { alg: ['ES256'] } },
      constraints: {
        limit_disclosure: 'required' as const,
        fields: [{ path: [`$['${MDL_NAMESPACE}']['${AGE_OVER_18}']`], intent_to_retain: false }],
      },
    },
  ],
};
