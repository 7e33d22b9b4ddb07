/*
 * FROZEN: a copy of modules/readings/readings.packed.ts as it was when migrations 0006 and 0010 were written (the v2
 * rollups: packed blobs of quarter-hour and hour levels, local-day rows), so those migrations keep their
 * behaviour when the live code moves on. Do not change it; nothing outside storage/migrations may import it.
 */
import { endianness } from 'node:os';
import { type CounterRun, RUN_FIELDS, type RunColumns, runAt as runAtColumns } from '@phasewatch/shared';
import { floorTo, H1, type Level, M15, type ParamSet, sizedLevel } from './v2-rollup.js';

/*
 * Packed rollups: the UTC levels (15 min, 1 h) are stored as one row per device, level, parameter and
 * span of SLOTS consecutive buckets, the span's figures in one float64 blob. A year of 15-minute data
 * for one parameter is 365 rows instead of 35,040, and a row is read or written as one value.
 *
 * Blob layouts (SLOTS float64 each section, little-endian, slot i = bucket span + i * width):
 * - `_n`: readings per bucket (0: no bucket).
 * - instantaneous parameter: sum | min | max | count (count 0: no value; such slots are all zero).
 * - counter: the bucket's run (CounterRun in shared): firstTs | first | lastTs | last | peak | post | top |
 *   gap (firstTs NaN: no reading; such slots are NaN in the first seven sections and 0 in `gap`).
 * Empty slots have one encoding and a parameter's blob is stored only when it holds a value, so the
 * same readings give byte-identical rows whatever order or batches they arrived in.
 */

/** Buckets per stored span: a UTC day of 15-minute buckets, 4 days of hours. */
export const SLOTS = 96;
/** The pseudo-parameter holding each bucket's reading count. */
export const COUNT_PARAM = '_n';
export const PACKED_WIDTHS = { '15m': M15, '1h': H1 } as const;
export type PackedLevel = keyof typeof PACKED_WIDTHS;

if (endianness() !== 'LE') throw new Error('packed rollups are stored little-endian; this platform is big-endian');

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
  const a = new Float64Array(RUN_FIELDS.length * SLOTS);
  a.fill(Number.NaN, 0, 7 * SLOTS);
  return a;
}

/** The run in slot `s` of a counter blob, or null. */
export function runAt(b: Float64Array, s: number): CounterRun | null {
  const firstTs = b[s] as number;
  if (Number.isNaN(firstTs)) return null;
  return {
    firstTs,
    first: b[SLOTS + s] as number,
    lastTs: b[2 * SLOTS + s] as number,
    last: b[3 * SLOTS + s] as number,
    peak: b[4 * SLOTS + s] as number,
    post: b[5 * SLOTS + s] as number,
    top: b[6 * SLOTS + s] as number,
    gap: b[7 * SLOTS + s] as number,
  };
}

function setRun(b: Float64Array, s: number, r: CounterRun | null): void {
  if (!r) {
    for (let f = 0; f < 7; f++) b[f * SLOTS + s] = Number.NaN;
    b[7 * SLOTS + s] = 0;
    return;
  }
  b[s] = r.firstTs;
  b[SLOTS + s] = r.first;
  b[2 * SLOTS + s] = r.lastTs;
  b[3 * SLOTS + s] = r.last;
  b[4 * SLOTS + s] = r.peak;
  b[5 * SLOTS + s] = r.post;
  b[6 * SLOTS + s] = r.top;
  b[7 * SLOTS + s] = r.gap;
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
      const runs = out.runs[j] as RunColumns;
      for (let f = 0; f < RUN_FIELDS.length; f++) {
        const col = runs[RUN_FIELDS[f] as (typeof RUN_FIELDS)[number]];
        const base = f * SLOTS;
        for (let i = first; i < k; i++) col[i] = b[base + ((out.bucket[i] as number) - span) / width] as number;
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
        const r = runAtColumns(fresh.runs[j] as RunColumns, k);
        setRun(b, slot(k), r);
        if (r) any = true;
      }
      if (any) out.push({ width, param, span, data: encodeBlob(b) });
    });
    i = end;
  }
  return out;
}

/** True when a parameter's blob has a value in a bucket within [lo, hi). */
export function blobHasValueIn(
  param: { counter: boolean },
  data: Float64Array,
  span: number,
  width: number,
  lo: number,
  hi: number,
): boolean {
  for (let s = 0; s < SLOTS; s++) {
    const bucket = span + s * width;
    if (bucket < lo || bucket >= hi) continue;
    if (param.counter ? !Number.isNaN(data[s] as number) : (data[3 * SLOTS + s] as number) > 0) return true;
  }
  return false;
}

/** The run of the last bucket of a counter blob in [from, before) that has one (null: none in this span). */
export function lastRunIn(
  data: Float64Array,
  span: number,
  width: number,
  before: number,
  from = Number.NEGATIVE_INFINITY,
): CounterRun | null {
  for (let s = SLOTS - 1; s >= 0; s--) {
    const bucket = span + s * width;
    if (bucket >= before || bucket < from) continue;
    const r = runAt(data, s);
    if (r) return r;
  }
  return null;
}

/** The run of the first bucket of a counter blob at or after `from` and before `before` that has one. */
export function firstRunIn(
  data: Float64Array,
  span: number,
  width: number,
  from: number,
  before = Number.POSITIVE_INFINITY,
): CounterRun | null {
  for (let s = 0; s < SLOTS; s++) {
    const bucket = span + s * width;
    if (bucket < from || bucket >= before) continue;
    const r = runAt(data, s);
    if (r) return r;
  }
  return null;
}
