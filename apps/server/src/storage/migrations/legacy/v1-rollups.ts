/*
 * FROZEN: the rollup layout of migrations 0003 and 0004 (version 1 rollups: wide rows, then packed blobs with
 * counters as first | last | delta and a 5-minute level), kept here so those migrations and their tests keep
 * working after the live code moved on (migration 0005). Do not change it; nothing outside storage/migrations
 * may import it.
 */
import { COUNTER_PARAMETERS, INSTANT_PARAMETERS } from '@phasewatch/shared';

/** v1 counter rule: a drop is a reset, the reading after it counts from zero. */
function counterDelta(prev: number, next: number): number {
  return next >= prev ? next - prev : next;
}

/** A row as the database returns it: raw (`ts`, `<param>`) or rollup (`bucket`, `n`, `<param>_<agg>`). */
export type Row = Record<string, number | string | null>;

export const M5 = 5 * 60_000;
export const M15 = 15 * 60_000;
export const H1 = 60 * 60_000;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Bucket start of `ts` for a UTC-aligned width. */
export const floorTo = (ts: number, width: number) => Math.floor(ts / width) * width;

/*
 * Column-wise rollups for the write path. The ingest hot path used to build one object per reading and
 * per bucket keyed by `<p>_<agg>` strings; at 5,000 readings a request that object churn (and the GC it
 * caused) cost more than SQLite itself. Here a write's parameters are fixed up front and every level is
 * a set of plain number arrays indexed by bucket, NaN marking "no value".
 */

/** The parameters one write touches, instantaneous ones first (catalogue order), then counters. */
export interface ParamSet {
  instant: readonly string[];
  counter: readonly string[];
}

/** The parameters of `names` split by kind, in catalogue order. */
export function paramSetOf(names: ReadonlySet<string>): ParamSet {
  return { instant: INSTANT_PARAMETERS.filter((p) => names.has(p)), counter: COUNTER_PARAMETERS.filter((p) => names.has(p)) };
}

/** Rollup columns of a parameter set, in the order `Level` rows are written. */
export function paramSetColumns(ps: ParamSet): string[] {
  return [
    ...ps.instant.flatMap((p) => [`${p}_sum`, `${p}_min`, `${p}_max`, `${p}_n`]),
    ...ps.counter.flatMap((p) => [`${p}_first`, `${p}_last`, `${p}_delta`]),
  ];
}

/** Raw readings column-wise, sorted by unique `ts`: `cols[j][i]` is parameter j (instant, then counter) at `ts[i]`, NaN if absent. */
export interface RawColumns {
  ts: ArrayLike<number>;
  cols: ArrayLike<number>[];
}

/** Rollup rows of one level column-wise, sorted by bucket. */
export interface Level {
  bucket: number[];
  n: number[];
  /** Per instantaneous parameter: per bucket sum, extremes and count (count 0: no value in the bucket). */
  sum: number[][];
  min: number[][];
  max: number[][];
  cnt: number[][];
  /** Per counter: first and last reading and the energy between the bucket's own readings (first NaN: none). */
  first: number[][];
  last: number[][];
  delta: number[][];
}

export function emptyLevel(ps: ParamSet): Level {
  const per = (k: number) => Array.from({ length: k }, () => [] as number[]);
  const ni = ps.instant.length;
  const nc = ps.counter.length;
  return { bucket: [], n: [], sum: per(ni), min: per(ni), max: per(ni), cnt: per(ni), first: per(nc), last: per(nc), delta: per(nc) };
}

/**
 * A level of `size` empty buckets (every figure "no value"), to be filled by index: allocating the
 * arrays whole keeps them unboxed double arrays, where growing them bucket by bucket cost as much as
 * reading the rows.
 */
export function sizedLevel(ps: ParamSet, size: number): Level {
  const filled = (k: number, v: number) => Array.from({ length: k }, () => new Array<number>(size).fill(v));
  const ni = ps.instant.length;
  const nc = ps.counter.length;
  return {
    bucket: new Array<number>(size).fill(0),
    n: new Array<number>(size).fill(0),
    sum: filled(ni, 0),
    min: filled(ni, Number.POSITIVE_INFINITY),
    max: filled(ni, Number.NEGATIVE_INFINITY),
    cnt: filled(ni, 0),
    first: filled(nc, Number.NaN),
    last: filled(nc, Number.NaN),
    delta: filled(nc, 0),
  };
}

export function pushBucket(l: Level, bucket: number): number {
  const k = l.bucket.length;
  l.bucket.push(bucket);
  l.n.push(0);
  for (let j = 0; j < l.sum.length; j++) {
    (l.sum[j] as number[]).push(0);
    (l.min[j] as number[]).push(Number.POSITIVE_INFINITY);
    (l.max[j] as number[]).push(Number.NEGATIVE_INFINITY);
    (l.cnt[j] as number[]).push(0);
  }
  for (let j = 0; j < l.first.length; j++) {
    (l.first[j] as number[]).push(Number.NaN);
    (l.last[j] as number[]).push(Number.NaN);
    (l.delta[j] as number[]).push(0);
  }
  return k;
}

/** Raw readings folded into UTC buckets of `width`: the 5-minute level. */
export function levelFromRaw(raw: RawColumns, ps: ParamSet, width: number): Level {
  const out = emptyLevel(ps);
  const ni = ps.instant.length;
  const nc = ps.counter.length;
  let k = -1;
  let cur = Number.NaN;
  for (let i = 0; i < raw.ts.length; i++) {
    const b = floorTo(raw.ts[i] as number, width);
    if (b !== cur) {
      cur = b;
      k = pushBucket(out, b);
    }
    out.n[k] = (out.n[k] as number) + 1;
    for (let j = 0; j < ni; j++) {
      const v = (raw.cols[j] as number[])[i] as number;
      if (Number.isNaN(v)) continue; // NaN: no value
      const sum = out.sum[j] as number[];
      const min = out.min[j] as number[];
      const max = out.max[j] as number[];
      sum[k] = (sum[k] as number) + v;
      if (v < (min[k] as number)) min[k] = v;
      if (v > (max[k] as number)) max[k] = v;
      const cnt = out.cnt[j] as number[];
      cnt[k] = (cnt[k] as number) + 1;
    }
    for (let j = 0; j < nc; j++) {
      const v = (raw.cols[ni + j] as number[])[i] as number;
      if (Number.isNaN(v)) continue;
      const first = out.first[j] as number[];
      const last = out.last[j] as number[];
      if (Number.isNaN(first[k] as number)) first[k] = v;
      else (out.delta[j] as number[])[k] = ((out.delta[j] as number[])[k] as number) + counterDelta(last[k] as number, v);
      last[k] = v;
    }
  }
  return out;
}

/**
 * Children folded into parents (`parentOf` must not decrease over the children): sums, extremes and
 * counts add up; counter summaries join in time order (with the step between adjacent children), so a
 * parent is exactly what its raw readings would give.
 */
export function foldLevel(children: Level, ps: ParamSet, parentOf: (bucket: number) => number): Level {
  const out = emptyLevel(ps);
  const ni = ps.instant.length;
  const nc = ps.counter.length;
  let k = -1;
  let cur = Number.NaN;
  for (let i = 0; i < children.bucket.length; i++) {
    const b = parentOf(children.bucket[i] as number);
    if (b !== cur) {
      cur = b;
      k = pushBucket(out, b);
    }
    out.n[k] = (out.n[k] as number) + (children.n[i] as number);
    for (let j = 0; j < ni; j++) {
      const c = (children.cnt[j] as number[])[i] as number;
      if (c === 0) continue;
      const sum = out.sum[j] as number[];
      const min = out.min[j] as number[];
      const max = out.max[j] as number[];
      const cmin = (children.min[j] as number[])[i] as number;
      const cmax = (children.max[j] as number[])[i] as number;
      sum[k] = (sum[k] as number) + ((children.sum[j] as number[])[i] as number);
      if (cmin < (min[k] as number)) min[k] = cmin;
      if (cmax > (max[k] as number)) max[k] = cmax;
      (out.cnt[j] as number[])[k] = ((out.cnt[j] as number[])[k] as number) + c;
    }
    for (let j = 0; j < nc; j++) {
      const cf = (children.first[j] as number[])[i] as number;
      if (Number.isNaN(cf)) continue;
      const first = out.first[j] as number[];
      const last = out.last[j] as number[];
      const delta = out.delta[j] as number[];
      const cd = (children.delta[j] as number[])[i] as number;
      if (Number.isNaN(first[k] as number)) {
        first[k] = cf;
        delta[k] = cd;
      } else {
        delta[k] = (delta[k] as number) + counterDelta(last[k] as number, cf) + cd;
      }
      last[k] = (children.last[j] as number[])[i] as number;
    }
  }
  return out;
}

/** Stored rollup rows (as the database returns them, `bucket`, `n` and the set's columns) column-wise. */
export function levelFromRows(rows: readonly Row[], ps: ParamSet): Level {
  const out = emptyLevel(ps);
  const inst = ps.instant.map((p) => [`${p}_sum`, `${p}_min`, `${p}_max`, `${p}_n`] as const);
  const ctr = ps.counter.map((p) => [`${p}_first`, `${p}_last`, `${p}_delta`] as const);
  for (const r of rows) {
    const k = pushBucket(out, Number(r.bucket));
    out.n[k] = Number(r.n);
    inst.forEach(([s, lo, hi, c], j) => {
      const cnt = num(r[c]);
      if (!cnt) return;
      (out.sum[j] as number[])[k] = Number(r[s]);
      (out.min[j] as number[])[k] = Number(r[lo]);
      (out.max[j] as number[])[k] = Number(r[hi]);
      (out.cnt[j] as number[])[k] = cnt;
    });
    ctr.forEach(([f, l, d], j) => {
      const first = num(r[f]);
      if (first === null) return;
      (out.first[j] as number[])[k] = first;
      (out.last[j] as number[])[k] = num(r[l]) ?? first;
      (out.delta[j] as number[])[k] = num(r[d]) ?? 0;
    });
  }
  return out;
}

/** Rows as arrays in `bucket, n, <paramSetColumns>` order (the columnar read of a level) column-wise. */
export function levelFromArrays(rows: readonly (readonly unknown[])[], ps: ParamSet): Level {
  const out = emptyLevel(ps);
  const ni = ps.instant.length;
  const nc = ps.counter.length;
  for (const r of rows) {
    const k = pushBucket(out, Number(r[0]));
    out.n[k] = Number(r[1]);
    let o = 2;
    for (let j = 0; j < ni; j++, o += 4) {
      const cnt = num(r[o + 3]);
      if (!cnt) continue;
      (out.sum[j] as number[])[k] = Number(r[o]);
      (out.min[j] as number[])[k] = Number(r[o + 1]);
      (out.max[j] as number[])[k] = Number(r[o + 2]);
      (out.cnt[j] as number[])[k] = cnt;
    }
    for (let j = 0; j < nc; j++, o += 3) {
      const first = num(r[o]);
      if (first === null) continue;
      (out.first[j] as number[])[k] = first;
      (out.last[j] as number[])[k] = num(r[o + 1]) ?? first;
      (out.delta[j] as number[])[k] = num(r[o + 2]) ?? 0;
    }
  }
  return out;
}

function copyBucket(from: Level, i: number, to: Level): void {
  to.bucket.push(from.bucket[i] as number);
  to.n.push(from.n[i] as number);
  const keys = ['sum', 'min', 'max', 'cnt', 'first', 'last', 'delta'] as const;
  for (const key of keys) {
    const src = from[key];
    const dst = to[key];
    for (let j = 0; j < src.length; j++) (dst[j] as number[]).push((src[j] as number[])[i] as number);
  }
}

/** Stored rows with the freshly computed buckets in place of the stored ones they replace, by bucket. */
export function overlayLevel(stored: Level, fresh: Level, ps: ParamSet): Level {
  if (stored.bucket.length === 0) return fresh;
  const out = emptyLevel(ps);
  let i = 0;
  let j = 0;
  while (i < stored.bucket.length || j < fresh.bucket.length) {
    const s = i < stored.bucket.length ? (stored.bucket[i] as number) : Number.POSITIVE_INFINITY;
    const f = j < fresh.bucket.length ? (fresh.bucket[j] as number) : Number.POSITIVE_INFINITY;
    if (f <= s) {
      copyBucket(fresh, j++, out);
      if (f === s) i++;
    } else copyBucket(stored, i++, out);
  }
  return out;
}

/** The buckets of `l` in [lo, hi). */
export function sliceLevel(l: Level, lo: number, hi: number, ps: ParamSet): Level {
  let a = 0;
  while (a < l.bucket.length && (l.bucket[a] as number) < lo) a++;
  let b = a;
  while (b < l.bucket.length && (l.bucket[b] as number) < hi) b++;
  if (a === 0 && b === l.bucket.length) return l;
  const out = emptyLevel(ps);
  for (let i = a; i < b; i++) copyBucket(l, i, out);
  return out;
}

/**
 * Writes bucket `k` of `l` into `out` from `offset` in `paramSetColumns` order (null for no value);
 * returns the next offset. One reused array per statement keeps the write loop allocation-free.
 */
export function fillLevelRow(l: Level, k: number, out: unknown[], offset: number): number {
  let o = offset;
  for (let j = 0; j < l.sum.length; j++) {
    const c = (l.cnt[j] as number[])[k] as number;
    if (c === 0) {
      out[o++] = null;
      out[o++] = null;
      out[o++] = null;
      out[o++] = null;
    } else {
      out[o++] = (l.sum[j] as number[])[k] as number;
      out[o++] = (l.min[j] as number[])[k] as number;
      out[o++] = (l.max[j] as number[])[k] as number;
      out[o++] = c;
    }
  }
  for (let j = 0; j < l.first.length; j++) {
    const f = (l.first[j] as number[])[k] as number;
    if (Number.isNaN(f)) {
      out[o++] = null;
      out[o++] = null;
      out[o++] = null;
    } else {
      out[o++] = f;
      out[o++] = (l.last[j] as number[])[k] as number;
      out[o++] = (l.delta[j] as number[])[k] as number;
    }
  }
  return o;
}

/*
 * Packed rollups: the UTC levels (5 min, 15 min, 1 h) are stored as one row per device, level,
 * parameter and span of SLOTS consecutive buckets, the span's figures in one float64 blob. A year of
 * 15-minute data for one parameter is 365 rows instead of 35,040, and a row is read or written as one
 * value: the wide-row layout spent its time turning every stored figure into a JavaScript number (and
 * back on writes), which made reads and rollup writes cost per value rather than per row.
 *
 * Blob layouts (SLOTS float64 each section, little-endian, slot i = bucket span + i * width):
 * - `_n`: readings per bucket (0: no bucket).
 * - instantaneous parameter: sum | min | max | count (count 0: no value; such slots are all zero).
 * - counter: first | last | delta (first NaN: no reading; such slots are NaN | NaN | 0).
 * Empty slots have one encoding and a parameter's blob is stored only when it holds a value, so the
 * same readings give byte-identical rows whatever order or batches they arrived in.
 */

/** Buckets per stored span: a UTC day of 15-minute buckets, 8 hours of 5-minute ones, 4 days of hours. */
export const SLOTS = 96;
/** The pseudo-parameter holding each bucket's reading count. */
export const COUNT_PARAM = '_n';
export const PACKED_WIDTHS = { '5m': M5, '15m': M15, '1h': H1 } as const;
export type PackedLevel = keyof typeof PACKED_WIDTHS;

/** Start of the span holding `bucket` at `width`. */
export const spanOf = (bucket: number, width: number): number => floorTo(bucket, SLOTS * width);

/** Stored blobs of one level: parameter → span start → figures. */
export type Packed = Map<string, Map<number, Float64Array>>;

/** A stored row as read back: parameter, span start and blob. */
export interface PackedRow {
  param: string;
  span: number;
  data: Uint8Array;
}

/** A blob's figures (copied when the driver's buffer is not 8-byte aligned). */
export function decodeBlob(data: Uint8Array): Float64Array {
  if (data.byteLength % 8 !== 0) throw new Error(`packed rollup blob of ${data.byteLength} bytes`);
  if (data.byteOffset % 8 === 0) return new Float64Array(data.buffer, data.byteOffset, data.byteLength / 8);
  return new Float64Array(new Uint8Array(data).buffer);
}

export function encodeBlob(a: Float64Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** Stored rows grouped by parameter and span. */
export function packedOf(rows: Iterable<PackedRow>): Packed {
  const out: Packed = new Map();
  for (const r of rows) {
    let bySpan = out.get(r.param);
    if (!bySpan) {
      bySpan = new Map();
      out.set(r.param, bySpan);
    }
    bySpan.set(Number(r.span), decodeBlob(r.data));
  }
  return out;
}

function emptyInstant(): Float64Array {
  return new Float64Array(4 * SLOTS);
}

function emptyCounter(): Float64Array {
  const a = new Float64Array(3 * SLOTS);
  a.fill(Number.NaN, 0, 2 * SLOTS);
  return a;
}

/** The buckets in [lo, hi) of the stored spans, only the parameters of `ps`, as a level. */
export function levelFromPacked(p: Packed, ps: ParamSet, width: number, lo: number, hi: number): Level {
  const counts = p.get(COUNT_PARAM);
  if (!counts) return sizedLevel(ps, 0);
  const spans = [...counts.keys()].sort((a, b) => a - b);
  const inRange = (span: number, s: number) => {
    const bucket = span + s * width;
    return bucket >= lo && bucket < hi;
  };
  let size = 0;
  for (const span of spans) {
    const n = counts.get(span) as Float64Array;
    for (let s = 0; s < SLOTS; s++) if (n[s] !== 0 && inRange(span, s)) size++;
  }
  const out = sizedLevel(ps, size);
  const inst = ps.instant.map((name) => p.get(name));
  const ctr = ps.counter.map((name) => p.get(name));
  let k = 0;
  for (const span of spans) {
    const n = counts.get(span) as Float64Array;
    const first = k;
    for (let s = 0; s < SLOTS; s++) {
      if (n[s] === 0 || !inRange(span, s)) continue;
      out.bucket[k] = span + s * width;
      out.n[k] = n[s] as number;
      k++;
    }
    // Each parameter's figures of the span's buckets, one parameter at a time.
    for (let j = 0; j < inst.length; j++) {
      const b = inst[j]?.get(span);
      if (!b) continue;
      const sum = out.sum[j] as number[];
      const min = out.min[j] as number[];
      const max = out.max[j] as number[];
      const cnt = out.cnt[j] as number[];
      for (let i = first; i < k; i++) {
        const s = ((out.bucket[i] as number) - span) / width;
        const c = b[3 * SLOTS + s] as number;
        if (c === 0) continue;
        sum[i] = b[s] as number;
        min[i] = b[SLOTS + s] as number;
        max[i] = b[2 * SLOTS + s] as number;
        cnt[i] = c;
      }
    }
    for (let j = 0; j < ctr.length; j++) {
      const b = ctr[j]?.get(span);
      if (!b) continue;
      const firsts = out.first[j] as number[];
      const lasts = out.last[j] as number[];
      const deltas = out.delta[j] as number[];
      for (let i = first; i < k; i++) {
        const s = ((out.bucket[i] as number) - span) / width;
        const f = b[s] as number;
        if (Number.isNaN(f)) continue;
        firsts[i] = f;
        lasts[i] = b[SLOTS + s] as number;
        deltas[i] = b[2 * SLOTS + s] as number;
      }
    }
  }
  return out;
}

/** A row to upsert. */
export interface PackedWrite {
  width: number;
  param: string;
  span: number;
  data: Buffer;
}

/**
 * The rows that store `fresh` (recomputed buckets, sorted) over `stored`: per touched span, the stored
 * blob (or an empty one) with the fresh buckets' slots replaced. A parameter's blob that would hold no
 * value and was not stored before is not written.
 */
export function packedWrites(fresh: Level, ps: ParamSet, width: number, stored: Packed): PackedWrite[] {
  const out: PackedWrite[] = [];
  const len = fresh.bucket.length;
  let i = 0;
  while (i < len) {
    const span = spanOf(fresh.bucket[i] as number, width);
    let end = i;
    while (end < len && spanOf(fresh.bucket[end] as number, width) === span) end++;
    const slot = (k: number) => ((fresh.bucket[k] as number) - span) / width;

    const n = stored.get(COUNT_PARAM)?.get(span)?.slice() ?? new Float64Array(SLOTS);
    for (let k = i; k < end; k++) n[slot(k)] = fresh.n[k] as number;
    out.push({ width, param: COUNT_PARAM, span, data: encodeBlob(n) });

    ps.instant.forEach((param, j) => {
      const had = stored.get(param)?.get(span);
      const b = had?.slice() ?? emptyInstant();
      let any = had !== undefined;
      for (let k = i; k < end; k++) {
        const s = slot(k);
        const c = (fresh.cnt[j] as number[])[k] as number;
        if (c === 0) {
          b[s] = b[SLOTS + s] = b[2 * SLOTS + s] = b[3 * SLOTS + s] = 0;
          continue;
        }
        any = true;
        b[s] = (fresh.sum[j] as number[])[k] as number;
        b[SLOTS + s] = (fresh.min[j] as number[])[k] as number;
        b[2 * SLOTS + s] = (fresh.max[j] as number[])[k] as number;
        b[3 * SLOTS + s] = c;
      }
      if (any) out.push({ width, param, span, data: encodeBlob(b) });
    });
    ps.counter.forEach((param, j) => {
      const had = stored.get(param)?.get(span);
      const b = had?.slice() ?? emptyCounter();
      let any = had !== undefined;
      for (let k = i; k < end; k++) {
        const s = slot(k);
        const first = (fresh.first[j] as number[])[k] as number;
        if (Number.isNaN(first)) {
          b[s] = b[SLOTS + s] = Number.NaN;
          b[2 * SLOTS + s] = 0;
          continue;
        }
        any = true;
        b[s] = first;
        b[SLOTS + s] = (fresh.last[j] as number[])[k] as number;
        b[2 * SLOTS + s] = (fresh.delta[j] as number[])[k] as number;
      }
      if (any) out.push({ width, param, span, data: encodeBlob(b) });
    });
    i = end;
  }
  return out;
}
