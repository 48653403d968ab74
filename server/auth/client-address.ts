// Who sent a request, behind reverse proxies. Each proxy appends the address it was connected
// from to X-Forwarded-For, so only the right-hand end of the list is written by proxies we run;
// everything to the left of it is whatever the client chose to send. The client is therefore the
// right-most address that was not added by a trusted proxy, never the left-most.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { BlockList, isIP } from 'node:net';

/**
 * How far forwarding headers are believed:
 * - false / 0: not at all (the server faces the internet);
 * - a number n (true means 1): the last n hops, the socket's peer included, are our proxies;
 * - a list of addresses and CIDR ranges (and the names `loopback`, `private`): the proxies we
 *   run, wherever they are in the chain.
 */
export type TrustProxySetting = boolean | number | readonly string[];

export type ProxyTrust =
  { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'list'; addresses: BlockList };

/** The socket's peer of requests made with `app.request()` (tests), which have no socket. */
export const IN_PROCESS = 'in-process';

const NAMED_RANGES: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'],
};

export function proxyTrust(setting: TrustProxySetting | undefined): ProxyTrust {
  if (setting === undefined || setting === false || setting === 0) return { kind: 'none' };
  if (setting === true) return { kind: 'hops', hops: 1 };
  if (typeof setting === 'number') {
    if (!Number.isInteger(setting) || setting < 0)
      throw new Error(`trustProxy must be a whole number of hops (got ${setting}).`);
    return { kind: 'hops', hops: setting };
  }
  const addresses = new BlockList();
  for (const entry of setting.flatMap((item) => NAMED_RANGES[item] ?? [item])) {
    const [address = '', prefixText] = entry.split('/');
    const family = isIP(address);
    const maxPrefix = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
    if (family === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > maxPrefix)
      throw new Error(
        `"${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, 2001:db8::/32).`,
      );
    addresses.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return { kind: 'list', addresses };
}

/**
 * TRUST_PROXY as the operator writes it: unset or 0 (no proxy), a number of hops (1 for one
 * reverse proxy, 2 for a CDN in front of it, …), or a comma-separated list of proxy addresses and
 * CIDR ranges. Anything else stops the server at start-up rather than guessing.
 */
export function parseTrustProxy(value: string | undefined): TrustProxySetting {
  const text = value?.trim() ?? '';
  if (text === '' || text === '0' || text.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(text)) return Number(text);
  const list = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  proxyTrust(list); // throws, naming the entry, when one is not an address or a range
  return list;
}

function socketPeer(c: Context): string {
  try {
    return normaliseAddress(getConnInfo(c).remote.address ?? IN_PROCESS);
  } catch {
    return IN_PROCESS;
  }
}

/** `::ffff:192.0.2.1` → `192.0.2.1`; `[2001:db8::1]:443` and `192.0.2.1:80` lose the port. */
export function normaliseAddress(raw: string): string {
  let address = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  address = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  return mapped ? mapped[1]! : address;
}

/** Whether the address `index` hops from us (0: the socket's peer) is one of our proxies. */
function isOurProxy(trust: ProxyTrust, address: string, index: number): boolean {
  if (trust.kind === 'none') return false;
  if (trust.kind === 'hops') return index < trust.hops;
  const family = isIP(address);
  return family !== 0 && trust.addresses.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The client's address: the right-most hop not added by one of our proxies. */
export function clientAddress(c: Context, trust: ProxyTrust): string {
  const peer = socketPeer(c);
  if (!isOurProxy(trust, peer, 0)) return peer;
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map(normaliseAddress)
    .filter(Boolean)
    .reverse();
  let client = peer;
  for (const [index, address] of forwarded.entries()) {
    client = address;
    if (!isOurProxy(trust, address, index + 1)) break;
  }
  return client;
}

/** Whether the request reached us (or our proxy) over HTTPS. */
export function isHttps(c: Context, trust: ProxyTrust): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return forwardedProto(c, trust) === 'https';
}

/** The scheme the browser used, as our proxy reports it; undefined when not behind one. */
export function forwardedProto(c: Context, trust: ProxyTrust): string | undefined {
  if (!isOurProxy(trust, socketPeer(c), 0)) return undefined;
  return c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() || undefined;
}

/**
 * The key a client is counted under by the rate limits. One IPv6 subscriber is handed a whole
 * /64 (2^64 addresses), so IPv6 clients are counted by their /64, not by each address.
 */
export function rateLimitKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = expandIpv6(address);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address;
}

function expandIpv6(address: string): string[] | undefined {
  const [head = '', tail] = address.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  // An embedded IPv4 tail (::ffff:1.2.3.4 forms that are not mapped) counts as two groups.
  const last = right.at(-1) ?? left.at(-1);
  if (last?.includes('.')) {
    const octets = last.split('.').map(Number);
    const group = (a = 0, b = 0) => ((a << 8) | b).toString(16);
    const asGroups = [group(octets[0], octets[1]), group(octets[2], octets[3])];
    if (tail === undefined) left.splice(-1, 1, ...asGroups);
    else right.splice(-1, 1, ...asGroups);
  }
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) =>
    group.padStart(4, '0'),
  );
}
