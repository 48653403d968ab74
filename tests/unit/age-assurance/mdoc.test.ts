// The check by a digital licence at the protocol level (server/age-assurance/mdoc.ts), with real
// cryptography: the request's CBOR and session transcript, pinned byte for byte (a wallet computes
// the same bytes, or its signature is over something else); a test wallet's answer opened with
// the request's key and verified by @auth0/mdl against the test root; and each way an answer is
// wrong, named by its kind.
import { readFileSync } from 'node:fs';
import { getCborEncodeDecodeOptions } from '@auth0/mdl';
import { Decoder } from 'cbor-x';
import { describe, expect, it } from 'vitest';
import {
  deviceRequestBytes,
  newMdocRequest,
  openEncryptedResponse,
  sessionTranscript,
  verifyDeviceResponse,
} from '../../../server/age-assurance/mdoc.ts';
import { stateOfCertificateName } from '../../../server/age-assurance/trust-list.ts';
import {
  problemOf,
  TEST_ISSUERS_DIR,
  testWallet,
  type AnswerOptions,
} from '../../helpers/test-wallet.ts';

const ORIGIN = 'https://localboard.test';
const ROOTS = [readFileSync(`${TEST_ISSUERS_DIR}/test-iaca-mississippi.pem`, 'utf8')];
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const cbor = new Decoder(getCborEncodeDecodeOptions());

describe('the request', () => {
  it('asks for age_over_18 of an mDL and nothing else, not to be retained', () => {
    // {"version": "1.0", "docRequests": [{"itemsRequest": 24(<<{"docType": "org.iso.18013.5.1.mDL",
    //   "nameSpaces": {"org.iso.18013.5.1": {"age_over_18": false}}}>>)}]}
    expect(hex(deviceRequestBytes())).toBe(
      'a26776657273696f6e63312e306b646f63526571756573747381a16c6974656d7352657175657374d818584b' +
        'a267646f6354797065756f72672e69736f2e31383031332e352e312e6d444c6a6e616d65537061636573a1' +
        '716f72672e69736f2e31383031332e352e31a16b6167655f6f7665725f3138f4',
    );
  });

  it('carries a fresh nonce and reader key, untagged byte strings, each time', async () => {
    const first = await newMdocRequest();
    const second = await newMdocRequest();
    const [kind, parameters] = cbor.decode(Buffer.from(first.encryptionInfo, 'base64url')) as [
      string,
      Map<string, unknown>,
    ];
    expect(kind).toBe('dcapi');
    expect(parameters.get('nonce')).toBeInstanceOf(Uint8Array);
    expect((parameters.get('nonce') as Uint8Array).length).toBe(16);
    const key = parameters.get('recipientPublicKey') as Map<number, unknown>;
    expect([key.get(1), key.get(-1), (key.get(-2) as Uint8Array).length]).toEqual([2, 1, 32]);
    expect(first.readerKey).toHaveLength(32);
    expect(second.encryptionInfo).not.toBe(first.encryptionInfo);
    expect(second.readerKey.equals(first.readerKey)).toBe(false);
  });

  it('makes the session transcript of Annex C: [null, null, ["dcapi", SHA-256(dcapiInfo)]]', () => {
    // dcapiInfo = ["gmVkY2FwaaA", "https://localboard.test"] = 82 6b … 77 …; its SHA-256 (below)
    // computed apart, by hand-made CBOR and Python's hashlib.
    expect(hex(sessionTranscript('gmVkY2FwaaA', ORIGIN))).toBe(
      '83f6f6826564636170695820d89a4ac0f19efa2175988827aca4112dcc4a639fe368c055c3d86ca3b42243bf',
    );
  });
});

/** A request, the test wallet's answer to it, and what the server finds in it. */
async function checkWith(
  credential: Parameters<typeof testWallet>[0] = {},
  answerOptions: AnswerOptions = {},
  request?: Awaited<ReturnType<typeof newMdocRequest>>,
) {
  const asked = await newMdocRequest();
  const wallet = await testWallet(credential);
  const response = await wallet.answer({ data: asked }, ORIGIN, answerOptions);
  const kept = { ...(request ?? asked), origin: ORIGIN };
  const deviceResponse = await openEncryptedResponse(response, kept);
  return verifyDeviceResponse(
    deviceResponse,
    sessionTranscript(kept.encryptionInfo, ORIGIN),
    ROOTS,
  );
}

describe('an answer', () => {
  it('from a trusted licence says 18 or over, with the issuing state in its certificate', async () => {
    const verified = await checkWith();
    expect(verified.ageOver18).toBe(true);
    expect(stateOfCertificateName(verified.signerCertificate.subject)).toBe('Mississippi');
  });

  it('says under 18 when the licence does', async () => {
    expect((await checkWith({ ageOver18: false })).ageOver18).toBe(false);
  });

  it('is refused, each way it can be wrong, by its kind', async () => {
    const otherRequest = await newMdocRequest();
    expect({
      untrusted: await problemOf(checkWith({ signer: 'untrusted' })),
      expired: await problemOf(checkWith({ validUntil: new Date(Date.now() - 60_000) })),
      'not yet valid': await problemOf(checkWith({ validFrom: new Date(Date.now() + 86_400_000) })),
      unsigned: await problemOf(checkWith({}, { unsigned: true })),
      altered: await problemOf(checkWith({ ageOver18: false }, { alterValue: true })),
      'another nonce': await problemOf(
        checkWith({}, { signOverOtherRequest: otherRequest.encryptionInfo }),
      ),
      'another origin': await problemOf(checkWith({}, { origin: 'https://elsewhere.test' })),
      "another request's key": await problemOf(checkWith({}, {}, otherRequest)),
    }).toEqual({
      untrusted: 'untrusted',
      expired: 'expired',
      'not yet valid': 'expired',
      unsigned: 'unsigned',
      altered: 'altered',
      'another nonce': 'not-for-this-request',
      'another origin': 'not-for-this-request',
      "another request's key": 'not-for-this-request',
    });
  });

  it('that is not an encrypted response at all is unreadable', async () => {
    const request = { ...(await newMdocRequest()), origin: ORIGIN };
    expect(await problemOf(openEncryptedResponse('bm90IGNib3I', request))).toBe('unreadable');
  });
});

describe('issuing states', () => {
  it('are read from a certificate name as US-MS, MS or the full name', () => {
    expect(stateOfCertificateName('C=US\nST=US-MS\nCN=x')).toBe('Mississippi');
    expect(stateOfCertificateName('C=US\nST=TN')).toBe('Tennessee');
    expect(stateOfCertificateName('C=US\nST=New Hampshire')).toBe('New Hampshire');
    expect(stateOfCertificateName('C=CA\nST=ON')).toBeUndefined();
    expect(stateOfCertificateName('C=US\nCN=x')).toBeUndefined();
  });
});
