// The check by a digital licence over OpenID4VP 1.0 (server/age-assurance/openid4vp.ts), with real
// cryptography: the unsigned request as the wallet reads it; the session transcript of Appendix
// B.2.6.2, pinned to the specification's own worked example; the test wallet's answer (a JWE made
// with jose to the request's key) opened and verified by @auth0/mdl against the test root; and
// each way an answer is wrong, named by its kind.
import { readFileSync } from 'node:fs';
import { calculateJwkThumbprint } from 'jose';
import { describe, expect, it } from 'vitest';
import { verifyDeviceResponse } from '../../../server/age-assurance/mdoc.ts';
import {
  encryptionJwk,
  newEncryptionKey,
  openId4VpRequestData,
  openId4VpSessionTranscript,
  openOpenId4VpResponse,
} from '../../../server/age-assurance/openid4vp.ts';
import {
  problemOf,
  TEST_ISSUERS_DIR,
  testWallet,
  type CredentialOptions,
  type OpenId4VpAnswerOptions,
} from '../../helpers/test-wallet.ts';

const ORIGIN = 'https://localboard.test';
const NONCE = 'S3n9QnBvLxk3hGqWmXn2aA';
const ROOTS = [readFileSync(`${TEST_ISSUERS_DIR}/test-iaca-mississippi.pem`, 'utf8')];
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('the request', () => {
  it('asks for age_over_18 of an mDL alone, not retained, its answer encrypted to our key', async () => {
    const key = newEncryptionKey();
    const data = await openId4VpRequestData(key, NONCE);
    const jwk = data.client_metadata.jwks.keys[0]!;
    expect(data).toEqual({
      response_type: 'vp_token',
      response_mode: 'dc_api.jwt',
      nonce: NONCE,
      client_metadata: {
        jwks: { keys: [jwk] },
        encrypted_response_enc_values_supported: ['A128GCM'],
        vp_formats_supported: {
          mso_mdoc: {
            issuerauth_alg_values: [-7, -35, -36, -8],
            deviceauth_alg_values: [-7, -35, -36, -8],
          },
        },
      },
      dcql_query: {
        credentials: [
          {
            id: 'mdl',
            format: 'mso_mdoc',
            meta: { doctype_value: 'org.iso.18013.5.1.mDL' },
            claims: [{ path: ['org.iso.18013.5.1', 'age_over_18'], intent_to_retain: false }],
          },
        ],
      },
    });
    // An ephemeral P-256 public key for ECDH-ES, named by its RFC 7638 thumbprint; no private part.
    expect(Object.keys(jwk).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'enc', alg: 'ECDH-ES' });
    expect(jwk.kid).toBe(await calculateJwkThumbprint(jwk, 'sha256'));
    expect(newEncryptionKey().equals(key)).toBe(false);
  });

  it("derives a key's public half as the specification's example key has it", async () => {
    // OpenID4VP 1.0, "Encrypted Responses": the example key "ac", with its private d.
    const jwk = await encryptionJwk(
      Buffer.from('Et-3ce0omz8_TuZ96Df9lp0GAaaDoUnDe6X-CRO7Aww', 'base64url'),
    );
    expect([jwk.x, jwk.y]).toEqual([
      'YO4epjifD-KWeq1sL2tNmm36BhXnkJ0He-WqMYrp9Fk',
      'Hekpm0zfK7C-YccH5iBjcIXgf6YdUvNUac_0At55Okk',
    ]);
  });

  it('makes the session transcript of Appendix B.2.6.2, as its worked example', async () => {
    // OpenID4VP 1.0 Appendix B.2.6.2: origin, nonce and JWK of its example, and the
    // SessionTranscript hex it gives.
    const transcript = await openId4VpSessionTranscript(
      'https://example.com',
      'exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA',
      {
        kty: 'EC',
        crv: 'P-256',
        x: 'DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0',
        y: 'XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc',
        use: 'enc',
        alg: 'ECDH-ES',
        kid: '1',
      },
    );
    expect(hex(transcript)).toBe(
      '83f6f682764f70656e4944345650444341504948616e646f7665725820fbece366f4' +
        '212f9762c74cfdbf83b8c69e371d5d68cea09cb4c48ca6daab761a',
    );
  });
});

/** A request, the test wallet's OpenID4VP answer to it, and what the server finds in it. */
async function checkWith(
  credential: CredentialOptions = {},
  answerOptions: OpenId4VpAnswerOptions = {},
  keptKey?: Buffer,
) {
  const key = newEncryptionKey();
  const data = await openId4VpRequestData(key, NONCE);
  const wallet = await testWallet(credential);
  const response = await wallet.answerOpenId4Vp({ data }, ORIGIN, answerOptions);
  const { deviceResponse, transcript } = await openOpenId4VpResponse(response, {
    key: keptKey ?? key,
    nonce: NONCE,
    origin: ORIGIN,
  });
  return verifyDeviceResponse(deviceResponse, transcript, ROOTS);
}

describe('an answer', () => {
  it('from a trusted licence says 18 or over; from a young one, under 18', async () => {
    expect((await checkWith()).ageOver18).toBe(true);
    expect((await checkWith({ ageOver18: false })).ageOver18).toBe(false);
  });

  it('is refused, each way it can be wrong, by its kind', async () => {
    const otherJwk = await encryptionJwk(newEncryptionKey());
    expect({
      untrusted: await problemOf(checkWith({ signer: 'untrusted' })),
      expired: await problemOf(checkWith({ validUntil: new Date(Date.now() - 60_000) })),
      unsigned: await problemOf(checkWith({}, { unsigned: true })),
      altered: await problemOf(checkWith({ ageOver18: false }, { alterValue: true })),
      'another nonce': await problemOf(checkWith({}, { nonce: 'another-nonce-0000000000' })),
      'another origin': await problemOf(checkWith({}, { origin: 'https://elsewhere.test' })),
      'encrypted to another key': await problemOf(checkWith({}, { encryptTo: otherJwk })),
      "opened with another request's key": await problemOf(checkWith({}, {}, newEncryptionKey())),
    }).toEqual({
      untrusted: 'untrusted',
      expired: 'expired',
      unsigned: 'unsigned',
      altered: 'altered',
      'another nonce': 'not-for-this-request',
      'another origin': 'not-for-this-request',
      'encrypted to another key': 'not-for-this-request',
      "opened with another request's key": 'not-for-this-request',
    });
  });

  it('encrypted to another key under our kid is refused as not for this request', async () => {
    const key = newEncryptionKey();
    const data = await openId4VpRequestData(key, NONCE);
    const ours = data.client_metadata.jwks.keys[0]!;
    const other = await encryptionJwk(newEncryptionKey());
    const wallet = await testWallet();
    const response = await wallet.answerOpenId4Vp({ data }, ORIGIN, {
      encryptTo: { ...other, kid: ours.kid },
    });
    const opened = openOpenId4VpResponse(response, { key, nonce: NONCE, origin: ORIGIN });
    expect(await problemOf(opened)).toBe('not-for-this-request');
  });

  it('that is no JWE, or comes for a request without a key, is refused', async () => {
    const request = { key: newEncryptionKey(), nonce: NONCE, origin: ORIGIN };
    expect(await problemOf(openOpenId4VpResponse('bm90.YSBKV0U', request))).toBe('unreadable');
    expect(await problemOf(openOpenId4VpResponse('a.b.c.d.e', { ...request, key: null }))).toBe(
      'not-for-this-request',
    );
  });
});
