import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Resolves a host name to its addresses (IPv4 and IPv6); injectable so tests send no DNS query. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS). */
export const systemResolver: ResolveHost = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) reject(err);
      else resolve(addresses.map((a) => a.address));
    });
  });

/**
 * Addresses a push endpoint must not reach: loopback, private (RFC 1918, IPv6 unique-local), link-local,
 * carrier-grade NAT, "this network", documentation, benchmarking, multicast and reserved ranges, and their
 * IPv4-mapped forms. A push endpoint is a URL a user sends; without this, the server would make requests
 * into its own network for them (server-side request forgery).
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** Whether an address (v4 or v6, IPv4-mapped included) is one a push endpoint may not reach. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family !== 6) return true;
  // ::ffff:a.b.c.d (and its hex spelling) reaches the IPv4 address.
  const mapped = /^::ffff:(?:0:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
  if (mapped) {
    const hi = Number.parseInt(mapped[1] as string, 16);
    const lo = Number.parseInt(mapped[2] as string, 16);
    return BLOCKED.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  const dotted = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (dotted) return BLOCKED.check(dotted[1] as string, 'ipv4');
  return BLOCKED.check(bare, 'ipv6');
}

/** Why an endpoint is refused (English, for the API's field error), or null when it may be used. */
export async function endpointProblem(endpoint: string, resolve: ResolveHost, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be a URL';
  }
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (url.username || url.password) return 'must not carry credentials';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isBlockedAddress(host) ? 'must not point at a loopback, private or link-local address' : null;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return 'host does not resolve';
  }
  if (addresses.length === 0) return 'host does not resolve';
  return addresses.some(isBlockedAddress) ? 'must not point at a loopback, private or link-local address' : null;
}

/**
 * A `lookup` for the push requests' sockets: the host is resolved again when the request is made (a
 * name that resolved to a public address at subscription may point inward later: DNS rebinding), and a
 * blocked address fails the connection instead of reaching it.
 */
export function guardedLookup(resolve: ResolveHost, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const family = typeof options === 'object' && options ? options.family : undefined;
        const usable = addresses.filter((a) => !family || isIP(a) === family);
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 4);
          return;
        }
        if (!allowPrivate && usable.some(isBlockedAddress)) {
          callback(Object.assign(new Error(`${hostname} resolves to a blocked address`), { code: 'EBLOCKED' }), '', 4);
          return;
        }
        if (typeof options === 'object' && options?.all)
          (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(
            null,
            usable.map((address) => ({ address, family: isIP(address) })),
          );
        else callback(null, usable[0] as string, isIP(usable[0] as string));
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, '', 4),
    );
  };
}
