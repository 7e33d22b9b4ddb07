import { BlockList, isIP } from 'node:net';

/**
 * The one reading of an IP address both outward guards use (push endpoints: a block list; collectors: the
 * COLLECTOR_NETWORKS allow-list). An IPv6 address can carry an IPv4 one: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d, e.g. ::a9fe:a9fe = 169.254.169.254), SIIT (::ffff:0:a.b.c.d), NAT64
 * (64:ff9b::/96 and the local 64:ff9b:1::/48), 6to4 (2002:abcd:efgh::) and Teredo (2001::/32, the client
 * address inverted). Each guard judges such an address by the IPv4 address it reaches too.
 */

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included), or null when it is not one. */
export function ipv6Groups(text: string): number[] | null {
  const ip = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(ip) !== 6) return null;
  let tail: number[] = [];
  let head = ip;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail = [(a << 8) | b, (c << 8) | d];
    head = ip.slice(0, dotted.index);
    if (!head.endsWith('::')) head = head.replace(/:$/, '');
  }
  const [left = '', right] = head.split('::');
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((h) => Number.parseInt(h, 16)));
  const l = parse(left);
  const r = right === undefined ? [] : parse(right);
  const missing = 8 - l.length - r.length - tail.length;
  if (right === undefined && missing !== 0) return null;
  const groups = [...l, ...new Array<number>(Math.max(0, missing)).fill(0), ...r, ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** How an IPv6 address carries an IPv4 one. */
export type Embedding = 'mapped' | 'compatible' | 'nat64' | '6to4' | 'teredo';

/** The IPv4 address an IPv6 address reaches, and how; null when it carries none. */
export function embeddedIPv4(text: string): { ip: string; via: Embedding } | null {
  const g = ipv6Groups(text);
  if (!g) return null;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zero4 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  if (zero4 && g4 === 0 && g5 === 0xffff) return { ip: v4(g6, g7), via: 'mapped' };
  if (zero4 && g4 === 0xffff && g5 === 0) return { ip: v4(g6, g7), via: 'mapped' };
  // ::/96 except :: and ::1 (those are IPv6's own unspecified and loopback addresses).
  if (zero4 && g4 === 0 && g5 === 0 && (g6 !== 0 || g7 > 1)) return { ip: v4(g6, g7), via: 'compatible' };
  if (g0 === 0x64 && g1 === 0xff9b && (g2 === 0 || g2 === 1)) return { ip: v4(g6, g7), via: 'nat64' };
  if (g0 === 0x2002) return { ip: v4(g1, g2), via: '6to4' };
  if (g0 === 0x2001 && g1 === 0) return { ip: v4(g6 ^ 0xffff, g7 ^ 0xffff), via: 'teredo' };
  return null;
}

/**
 * Addresses nobody outside may make the server reach: loopback, private (RFC 1918, IPv6 unique-local),
 * link-local (the cloud metadata service at 169.254.169.254), carrier-grade NAT, "this network",
 * documentation, benchmarking, multicast and reserved ranges.
 */
const INTERNAL = new BlockList();
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
  INTERNAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // Not ::/96 or ::ffff:0:0/96 as ranges: BlockList would match every IPv4 address against them; those forms
  // are judged by the IPv4 address they carry (isInternalAddress).
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL.addSubnet(net, prefix, 'ipv6');

/**
 * Whether an address (v4 or v6, any spelling) is internal: in the ranges above itself, or carrying an
 * IPv4 address that is. Anything that is not an IP address counts as internal.
 */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return INTERNAL.check(bare, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIPv4(bare);
  if (inner && INTERNAL.check(inner.ip, 'ipv4')) return true;
  // Mapped and compatible forms are the IPv4 address itself: judged by it alone (::ffff:8.8.8.8 is public).
  if (inner && (inner.via === 'mapped' || inner.via === 'compatible')) return false;
  return INTERNAL.check(bare, 'ipv6');
}
