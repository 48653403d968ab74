// A push service on loopback, for the Web Push tests: what a browser's push service (Firebase
// Cloud Messaging, Mozilla's autopush, Apple's) is to the server, small enough to read. It makes
// devices as a browser does (a P-256 key pair and a 16-byte auth secret: PushManager.subscribe's
// part), takes the server's pushes at each device's endpoint, checks their VAPID signature (RFC
// 8292) as a real service does (403 when it does not hold), and decrypts them with the device's
// private key (RFC 8291, aes128gcm: ECDH P-256, HKDF-SHA-256, AES-128-GCM, with Node's crypto
// alone, so that nothing of web-push checks web-push). A test may make a device's endpoint answer
// something else (410 Gone, 500, 429 with Retry-After), or hold its answers until released.
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A device as its browser knows it: the subscription it gives the site, and its private key. */
export interface TestDevice {
  name: string;
  /** PushSubscription.toJSON(): what the site stores. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  privateKey: Buffer;
}

export interface ReceivedPush {
  /** The device's name. */
  device: string;
  headers: {
    ttl: string | undefined;
    urgency: string | undefined;
    topic: string | undefined;
    contentEncoding: string | undefined;
  };
  /** The VAPID claims the service checked: audience, subject, expiry. */
  vapid: { aud: string; sub: string; exp: number; publicKey: string };
  /** The payload, decrypted. */
  text: string;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');

/** Decrypts an aes128gcm push body (RFC 8188's one record, RFC 8291's keys) for a device. */
export function decryptPush(body: Buffer, device: TestDevice): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(device.privateKey);
  const sharedSecret = ecdh.computeSecret(senderPublic);
  const devicePublic = Buffer.from(device.subscription.keys.p256dh, 'base64url');
  const auth = Buffer.from(device.subscription.keys.auth, 'base64url');
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), devicePublic, senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, auth, keyInfo, 32));
  const key = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: aes128gcm\0', 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: nonce\0', 12));
  const decipher = createDecipheriv('aes-128-gcm', key, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([
    decipher.update(record.subarray(0, record.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 2, then padding zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('The push has no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** Checks a `vapid t=…, k=…` Authorization header's ES256 signature; its claims, or why not. */
function checkVapid(header: string | undefined): ReceivedPush['vapid'] | string {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) return `not a VAPID Authorization header: ${header}`;
  const [, token, publicKey] = match as unknown as [string, string, string];
  const [head, claims, signature] = token.split('.');
  if (!head || !claims || !signature) return 'not a JWT';
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64(point.subarray(1, 33)), y: b64(point.subarray(33)) },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return 'the VAPID signature does not hold';
  const { aud, sub, exp } = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
  return { aud, sub, exp, publicKey };
}

export interface TestPushService {
  /** Its origin, http://127.0.0.1:{port}: what PUSH_SERVICE_ORIGINS lets the server post to. */
  origin: string;
  /** A new device, as a browser subscribing makes one, with its endpoint here. */
  newDevice(name: string): TestDevice;
  /** Every push received and decrypted, in order. */
  readonly received: ReceivedPush[];
  /** Resolves with the next push received (or the `count`th from now), within 20 s. */
  nextPush(count?: number): Promise<ReceivedPush>;
  /** Pushes refused (a bad VAPID signature, a device it does not know): why, in order. */
  readonly refused: string[];
  /** From now on, the device's endpoint answers this. */
  answer(device: TestDevice, answer: Answer): void;
  /** Holds every answer until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

export async function startTestPushService(): Promise<TestPushService> {
  const devices = new Map<string, TestDevice>();
  const answers = new Map<string, Answer>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const waiting: Array<{ count: number; resolve: (push: ReceivedPush) => void }> = [];
  let held: Promise<void> | undefined;

  const take = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const name = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1];
    const device = name === undefined ? undefined : devices.get(name);
    const refuse = (status: number, why: string) => {
      refused.push(why);
      response.writeHead(status).end(why);
    };
    if (request.method !== 'POST' || !device) return refuse(404, `no device at ${request.url}`);
    const vapid = checkVapid(request.headers.authorization);
    if (typeof vapid === 'string') return refuse(403, vapid);
    if (held) await held;
    const answer = answers.get(device.name) ?? { status: 201 };
    if (answer.status === 201) {
      const push: ReceivedPush = {
        device: device.name,
        headers: {
          ttl: request.headers.ttl as string | undefined,
          urgency: request.headers.urgency as string | undefined,
          topic: request.headers.topic as string | undefined,
          contentEncoding: request.headers['content-encoding'],
        },
        vapid,
        text: decryptPush(Buffer.concat(chunks), device),
      };
      received.push(push);
      for (const wait of waiting.splice(0)) {
        if (wait.count === 1) wait.resolve(push);
        else waiting.push({ ...wait, count: wait.count - 1 });
      }
    }
    response.writeHead(answer.status, answer.headers).end();
  };
  const server = createServer((request, response) => {
    // A connection a push: none is left in the client's pool for a later service that gets this
    // port again (a push sent on a socket closed meanwhile fails, and is retried 30 s later by
    // the test's frozen clock: never).
    response.shouldKeepAlive = false;
    take(request, response).catch((error: Error) => response.writeHead(500).end(error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    refused,
    newDevice(name) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const device: TestDevice = {
        name,
        subscription: {
          endpoint: `${origin}/push/${name}`,
          expirationTime: null,
          keys: { p256dh: b64(ecdh.getPublicKey()), auth: b64(randomBytes(16)) },
        },
        privateKey: ecdh.getPrivateKey(),
      };
      devices.set(name, device);
      return device;
    },
    nextPush(count = 1) {
      return new Promise<ReceivedPush>((resolve, reject) => {
        // Not a wait: how long a push may take, on a loaded machine, before it never came.
        const timer = setTimeout(() => reject(new Error('No push came within 20 s')), 20_000);
        waiting.push({
          count,
          resolve: (push) => {
            clearTimeout(timer);
            resolve(push);
          },
        });
      });
    },
    answer(device, answer) {
      answers.set(device.name, answer);
    },
    hold() {
      let release = () => {};
      held = new Promise<void>((resolve) => {
        release = () => {
          held = undefined;
          resolve();
        };
      });
      return release;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
