// The check by a digital licence over OpenID4VP 1.0 (docs/product.md section 6, "Age assurance"):
// the `openid4vp-v1-unsigned` protocol of the W3C Digital Credentials API, offered beside
// org-iso-mdoc (mdoc.ts) in the same call, for the wallets and browsers that speak it. The request
// is unsigned (OpenID4VP 1.0 Appendix A): a DCQL query for `age_over_18` of an mDL, the request's
// nonce, and client metadata naming an ephemeral P-256 key (ECDH-ES) to which the wallet encrypts
// its answer (response_mode dc_api.jwt: `{ response: JWE }`, A128GCM). The JWE's payload holds
// `vp_token: { mdl: [base64url(DeviceResponse)] }`, device-signed over (Appendix B.2.6.2):
//
//   OpenID4VPDCAPIHandoverInfo = [origin, nonce, jwkThumbprint]   (RFC 7638 SHA-256, as bytes)
//   SessionTranscript          = [null, null, ["OpenID4VPDCAPIHandover", SHA-256(CBOR(info))]]
//
// The DeviceResponse is then verified exactly as org-iso-mdoc's (mdoc.ts verifyDeviceResponse).
import { createECDH, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import {
  calculateJwkThumbprint,
  compactDecrypt,
  decodeProtectedHeader,
  errors,
  type JWK,
} from 'jose';
import {
  AGE_OVER_18,
  AgeCheckProblem,
  base64url,
  dcApiSessionTranscript,
  MDL_DOCTYPE,
  MDL_NAMESPACE,
} from './mdoc.ts';

/** The id of the DCQL query's one credential, the key of vp_token's one presentation. */
export const CREDENTIAL_QUERY_ID = 'mdl';
/** COSE algorithms @auth0/mdl verifies (its SupportedAlgs): ES256, ES384, ES512, EdDSA. */
const COSE_ALGS = [-7, -35, -36, -8];
/** The JWE algorithms the answer may use: ECDH-ES to our key, AES-128-GCM for the content. */
const JWE_ALG = 'ECDH-ES';
const JWE_ENC = 'A128GCM';

/** The request's data for navigator.credentials.get (OpenID4VP 1.0, unsigned). */
export interface OpenId4VpRequestData {
  response_type: 'vp_token';
  response_mode: 'dc_api.jwt';
  nonce: string;
  client_metadata: {
    jwks: { keys: JWK[] };
    encrypted_response_enc_values_supported: string[];
    vp_formats_supported: {
      mso_mdoc: { issuerauth_alg_values: number[]; deviceauth_alg_values: number[] };
    };
  };
  dcql_query: {
    credentials: Array<{
      id: string;
      format: 'mso_mdoc';
      meta: { doctype_value: string };
      claims: Array<{ path: string[]; intent_to_retain: boolean }>;
    }>;
  };
}

/** The public half of the key whose private scalar (32 bytes) is `key`, as a JWK for encryption. */
export async function encryptionJwk(key: Buffer): Promise<JWK> {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(key);
  const point = ecdh.getPublicKey();
  const jwk: JWK = {
    kty: 'EC',
    crv: 'P-256',
    x: base64url(point.subarray(1, 33)),
    y: base64url(point.subarray(33, 65)),
  };
  return { ...jwk, use: 'enc', alg: JWE_ALG, kid: await calculateJwkThumbprint(jwk, 'sha256') };
}

/** A new ephemeral key: its private scalar, kept with the request. */
export function newEncryptionKey(): Buffer {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
}

/** The request for `age_over_18` of an mDL, not to be retained, its answer encrypted to `key`. */
export async function openId4VpRequestData(
  key: Buffer,
  nonce: string,
): Promise<OpenId4VpRequestData> {
  return {
    response_type: 'vp_token',
    response_mode: 'dc_api.jwt',
    nonce,
    client_metadata: {
      jwks: { keys: [await encryptionJwk(key)] },
      encrypted_response_enc_values_supported: [JWE_ENC],
      vp_formats_supported: {
        mso_mdoc: { issuerauth_alg_values: COSE_ALGS, deviceauth_alg_values: COSE_ALGS },
      },
    },
    dcql_query: {
      credentials: [
        {
          id: CREDENTIAL_QUERY_ID,
          format: 'mso_mdoc',
          meta: { doctype_value: MDL_DOCTYPE },
          claims: [{ path: [MDL_NAMESPACE, AGE_OVER_18], intent_to_retain: false }],
        },
      ],
    },
  };
}

/** CBOR(SessionTranscript) of Appendix B.2.6.2, for an answer encrypted to `jwk`. */
export async function openId4VpSessionTranscript(
  origin: string,
  nonce: string,
  jwk: JWK,
): Promise<Uint8Array> {
  const thumbprint = Buffer.from(await calculateJwkThumbprint(jwk, 'sha256'), 'base64url');
  return dcApiSessionTranscript('OpenID4VPDCAPIHandover', [origin, nonce, thumbprint]);
}

/**
 * The DeviceResponse in the wallet's JWE, opened with the request's key, and the transcript its
 * device signature must be over (this request's origin, nonce and key).
 */
export async function openOpenId4VpResponse(
  response: string,
  request: { key: Buffer | null; nonce: string; origin: string },
): Promise<{ deviceResponse: Uint8Array; transcript: Uint8Array }> {
  if (!request.key)
    throw new AgeCheckProblem('not-for-this-request', 'the request has no OpenID4VP key');
  const jwk = await encryptionJwk(request.key);
  let plaintext: Uint8Array;
  try {
    const { kid } = decodeProtectedHeader(response);
    if (kid !== undefined && kid !== jwk.kid) throw new errors.JWEDecryptionFailed();
    const privateKey = createPrivateKey({
      key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: base64url(request.key) },
      format: 'jwk',
    });
    ({ plaintext } = await compactDecrypt(response, privateKey, {
      keyManagementAlgorithms: [JWE_ALG],
      contentEncryptionAlgorithms: [JWE_ENC],
    }));
  } catch (error) {
    // Another key (ours or not), or bytes changed on the way: the tag says no.
    if (error instanceof errors.JWEDecryptionFailed)
      throw new AgeCheckProblem('not-for-this-request', 'the JWE is not encrypted to this request');
    throw new AgeCheckProblem('unreadable', (error as Error).message);
  }
  return {
    deviceResponse: deviceResponseIn(plaintext),
    transcript: await openId4VpSessionTranscript(request.origin, request.nonce, jwk),
  };
}

/** vp_token's one presentation: `{ vp_token: { mdl: [base64url(DeviceResponse)] } }`. */
function deviceResponseIn(plaintext: Uint8Array): Uint8Array {
  let presentations: unknown;
  try {
    const payload = JSON.parse(new TextDecoder().decode(plaintext)) as {
      vp_token?: Record<string, unknown>;
    };
    presentations = payload.vp_token?.[CREDENTIAL_QUERY_ID];
  } catch (error) {
    throw new AgeCheckProblem('unreadable', (error as Error).message);
  }
  if (
    !Array.isArray(presentations) ||
    presentations.length !== 1 ||
    typeof presentations[0] !== 'string'
  )
    throw new AgeCheckProblem(
      'unreadable',
      `vp_token has no one presentation of ${CREDENTIAL_QUERY_ID}`,
    );
  return new Uint8Array(Buffer.from(presentations[0], 'base64url'));
}
