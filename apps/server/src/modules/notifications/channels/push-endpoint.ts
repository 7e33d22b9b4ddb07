import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isInternalAddress } from '../../../net/address.js';

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
 * Whether an address (v4 or v6, IPv4 carried in IPv6 included) is one a push endpoint may not reach: the
 * internal ranges of net/address.ts, the reading the collectors' guard shares. A push endpoint is a URL a
 * user sends; without this, the server would make requests into its own network for them (server-side
 * request forgery).
 */
export const isBlockedAddress = isInternalAddress;

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
