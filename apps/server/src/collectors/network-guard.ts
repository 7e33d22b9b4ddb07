import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { embeddedIPv4 } from '../net/address.js';
import { CollectorError } from './collector-error.js';

/**
 * Where collectors may connect: the networks of `COLLECTOR_NETWORKS`. Users type the addresses polled
 * from the server, so an address outside them (a public host, the cloud's metadata service at
 * 169.254.169.254) is refused before any connection: the name is resolved first, every address it
 * resolves to is checked, and the connection goes to the checked address (no second lookup a DNS
 * rebinding could answer differently).
 */

/** Loopback and the private ranges, where home devices live. Link-local (169.254/16, fe80::/10) is left out on purpose. */
export const DEFAULT_COLLECTOR_NETWORKS = ['127.0.0.0/8', '::1/128', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'];

/** Resolves a host name to its addresses (IPv4 and IPv6 text). */
export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * `::ffff:10.0.0.1` and `::a00:1` are 10.0.0.1: checked (and connected to) as IPv4, whatever form they
 * came in (net/address.ts, the reading the push guard shares). A translated form (NAT64, 6to4, Teredo)
 * keeps its IPv6 address and carries the IPv4 one it reaches, which must be allowed too.
 */
function normalize(ip: string): { ip: string; type: 'ipv4' | 'ipv6'; reaches?: string } {
  const inner = embeddedIPv4(ip);
  if (inner && (inner.via === 'mapped' || inner.via === 'compatible')) return { ip: inner.ip, type: 'ipv4' };
  return { ip, type: isIP(ip) === 6 ? 'ipv6' : 'ipv4', ...(inner ? { reaches: inner.ip } : {}) };
}

/** Parses `a.b.c.d/n` and `x::/n` entries (a bare address is one host); throws naming a bad entry. */
export function parseNetworks(list: readonly string[]): BlockList {
  const allowed = new BlockList();
  for (const raw of list) {
    const entry = raw.trim();
    if (!entry) continue;
    const [net = '', bits] = entry.split('/');
    const type = isIP(net);
    const prefix = bits === undefined ? (type === 6 ? 128 : 32) : Number(bits);
    if (type === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > (type === 6 ? 128 : 32))
      throw new Error(`COLLECTOR_NETWORKS: "${entry}" is not a network like 192.168.0.0/16`);
    allowed.addSubnet(net, prefix, type === 6 ? 'ipv6' : 'ipv4');
  }
  return allowed;
}

/** Whether every network lies within loopback (127.0.0.0/8, ::1). */
function loopbackOnly(list: readonly string[]): boolean {
  const loopback = parseNetworks(['127.0.0.0/8', '::1/128']);
  return list.every((entry) => {
    const [net = '', bits] = entry.trim().split('/');
    const type = isIP(net) === 6 ? 'ipv6' : 'ipv4';
    const prefix = bits === undefined ? (type === 'ipv6' ? 128 : 32) : Number(bits);
    return loopback.check(net, type) && prefix >= (type === 'ipv6' ? 128 : 8);
  });
}

export class NetworkGuard {
  private readonly allowed: BlockList;
  /** Only loopback allowed (tests): a name other than `localhost` is refused without asking DNS at all. */
  private readonly onlyLoopback: boolean;

  constructor(
    networks: readonly string[] = DEFAULT_COLLECTOR_NETWORKS,
    private readonly resolve: Resolver = systemResolver,
  ) {
    this.allowed = parseNetworks(networks);
    this.onlyLoopback = resolve === systemResolver && loopbackOnly(networks.filter((n) => n.trim()));
  }

  /** Whether an IP address lies in an allowed network. */
  allows(ip: string): boolean {
    const n = normalize(ip);
    return isIP(n.ip) !== 0 && this.allowed.check(n.ip, n.type) && (n.reaches === undefined || this.allowed.check(n.reaches, 'ipv4'));
  }

  /**
   * The address to connect to for `hostname` (an IP literal or a name): every address it resolves to must
   * be allowed, else CollectorError `networkRefused` and no connection is made.
   */
  async address(hostname: string): Promise<string> {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else if (this.onlyLoopback && host.toLowerCase() !== 'localhost')
      throw new CollectorError(
        'networkRefused',
        `${host} is not a loopback address, the only network collectors may reach here (COLLECTOR_NETWORKS)`,
      );
    else {
      try {
        addresses = await this.resolve(host);
      } catch (err) {
        throw new CollectorError('unreachable', `${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      }
      if (addresses.length === 0) throw new CollectorError('unreachable', `${host} could not be resolved`);
    }
    const refused = addresses.filter((a) => !this.allows(a));
    if (refused.length > 0)
      throw new CollectorError(
        'networkRefused',
        `${host} (${refused.join(', ')}) is outside the networks collectors may reach (COLLECTOR_NETWORKS)`,
      );
    return normalize(addresses[0] as string).ip;
  }
}
