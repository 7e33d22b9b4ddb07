/**
 * Deterministic randomness. Two flavours: a sequential PRNG (sfc32-style mulberry32) for things picked once
 * (device characteristics, MACs), and stateless hashes of (seed, key) for everything that depends on time,
 * so the value at a timestamp is the same whether history is generated in one run or resumed later.
 */

/** A 32-bit integer hash (lowbias32 by Chris Wellons): good avalanche at the cost of a few multiplies. */
export function hash32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of a seed and up to two integer keys, as a float in [0, 1). */
export function hashUnit(seed: number, a: number, b = 0): number {
  return hash32(hash32(hash32(seed) ^ a) ^ Math.imul(b, 0x9e3779b1)) / 4294967296;
}

/**
 * Smooth value noise in [-1, 1]: hashed knots every `periodMs`, cosine-interpolated between them.
 * `channel` separates independent noise streams of one device.
 */
export function smoothNoise(seed: number, channel: number, tsMs: number, periodMs: number): number {
  const x = tsMs / periodMs;
  const k = Math.floor(x);
  const f = x - k;
  const a = hashUnit(seed, channel, k) * 2 - 1;
  const b = hashUnit(seed, channel, k + 1) * 2 - 1;
  const w = (1 - Math.cos(f * Math.PI)) / 2;
  return a + (b - a) * w;
}

/** Mulberry32: a tiny seeded sequential PRNG returning floats in [0, 1). */
export function createRng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit seed from a string (FNV-1a), e.g. a fleet slot name. */
export function seedFromString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
