import { PARAMETER_NAMES } from '@phasewatch/shared';
import type { RawBatch } from './readings.raw.js';
import { floorTo, H1 } from './readings.rollup.js';
import type { DeviceTouch } from './readings.sql.js';

/*
 * A write's batches: readings as objects or column-wise, what the write path asks of a batch (its newest
 * reading, whether it rolls hours up at once, the stored rows it extends), and the encoding of a flush as
 * one buffer for the writer thread.
 */

/** Readings of one device for one write, sorted by ts with unique timestamps. */
export interface DeviceBatch {
  deviceId: number;
  /** The owner's timezone: local-day rollups are built in it. */
  tz: string;
  readings: { ts: number; values: Record<string, number> }[];
}

/**
 * A device batch column-wise, as writes use it: `index` are catalogue indexes of its parameters,
 * `cols[j][i]` parameter `index[j]` at `ts[i]` (NaN: the reading lacks it). Typed arrays, so a batch moves
 * to the writer thread without a copy.
 */
export interface ColumnarBatch extends RawBatch {
  tz: string;
  ts: Float64Array;
  cols: Float64Array[];
}

/** What a write takes: a device's readings as objects, or already column-wise (same rules: sorted, unique timestamps). */
export type WriteBatch = DeviceBatch | ColumnarBatch;

/** How many readings a batch holds. */
export const batchSize = (b: WriteBatch): number => ('cols' in b ? b.ts.length : b.readings.length);

/** A column-wise batch as reading objects (`{ name: value }`, catalogue order, absent values left out). */
export function readingsOf(b: WriteBatch): DeviceBatch['readings'] {
  if (!('cols' in b)) return b.readings;
  return Array.from(b.ts, (ts, i) => {
    const values: Record<string, number> = {};
    b.index.forEach((c, j) => {
      const v = (b.cols[j] as Float64Array)[i] as number;
      if (!Number.isNaN(v)) values[PARAMETER_NAMES[c] as string] = v;
    });
    return { ts, values };
  });
}

/** Batches at least this long that bring whole hours past the watermark are rolled up at once (history, backfills). */
export const INLINE_ROLLUP_MIN_READINGS = 64;
export const INDEX = new Map(PARAMETER_NAMES.map((p, i) => [p, i]));

/** Index of the first reading at or after `t` (timestamps sorted). */
export function firstAtOrAfter(ts: Float64Array, t: number): number {
  let i = 0;
  while (i < ts.length && (ts[i] as number) < t) i++;
  return i;
}

/** A batch whose readings from `lo` on (those at or above the watermark `w`) bring whole hours past it is rolled up as written. */
export function rollsUpInline(b: ColumnarBatch, lo: number, w: number): boolean {
  const n = b.ts.length;
  return n - lo >= INLINE_ROLLUP_MIN_READINGS && floorTo(b.ts[n - 1] as number, H1) > w;
}

/** A batch's newest reading time and the signal it carried then (null: none). */
export function newestOf(b: ColumnarBatch): { newest: number; rssi: number | null } {
  const n = b.ts.length;
  const rssiAt = b.index.indexOf(INDEX.get('rssi') as number);
  const rssi = rssiAt < 0 ? Number.NaN : ((b.cols[rssiAt] as Float64Array)[n - 1] as number);
  return { newest: b.ts[n - 1] as number, rssi: Number.isNaN(rssi) ? null : rssi };
}

/** A flush the one-statement live write can take: one batch per device, none long enough to roll hours up at once. */
export function isLiveFlush(work: readonly ColumnarBatch[]): boolean {
  const seen = new Set<number>();
  for (const b of work) {
    if (b.ts.length >= INLINE_ROLLUP_MIN_READINGS || seen.has(b.deviceId)) return false;
    seen.add(b.deviceId);
  }
  return true;
}

/** The devices' rows after a live flush (batches are sorted: the newest reading is the last). */
export function deviceTouch(work: readonly ColumnarBatch[]): DeviceTouch {
  const out: DeviceTouch = { ids: [], ts: [], rssi: [] };
  for (const b of work) {
    const t = newestOf(b);
    out.ids.push(b.deviceId);
    out.ts.push(t.newest);
    out.rssi.push(t.rssi);
  }
  return out;
}

/**
 * Stored raw rows (catalogue-ordered, all before the batch's reading `lo`) followed by the batch's
 * readings from `lo` while before `to`, as a read of all of them would return them (SQLite reads a
 * stored −0 back as 0).
 */
export function withBatch(
  stored: { ts: number[]; cols: Float64Array[] },
  b: ColumnarBatch,
  lo: number,
  to: number,
  dialect: 'sqlite' | 'postgres',
): { ts: number[]; cols: Float64Array[] } {
  let hi = lo;
  while (hi < b.ts.length && (b.ts[hi] as number) < to) hi++;
  const m = stored.ts.length;
  const n = m + hi - lo;
  const ts = stored.ts.concat(Array.from(b.ts.subarray(lo, hi)));
  const byIndex = new Map(b.index.map((c, j) => [c, b.cols[j] as Float64Array]));
  // Parameters in neither share one empty column (the catalogue has 67, a batch carries a few).
  const none = new Float64Array(n).fill(Number.NaN);
  const cols = stored.cols.map((col, c) => {
    if (!byIndex.has(c) && col.every(Number.isNaN)) return none;
    const out = new Float64Array(n);
    out.set(col);
    const src = byIndex.get(c);
    if (!src) out.fill(Number.NaN, m);
    else if (dialect === 'sqlite') for (let i = lo; i < hi; i++) out[m + i - lo] = (src[i] as number) === 0 ? 0 : (src[i] as number);
    else out.set(src.subarray(lo, hi), m);
    return out;
  });
  return { ts, cols };
}

export function columnarBatch(b: DeviceBatch): ColumnarBatch {
  const seen = new Set<string>();
  for (const r of b.readings) for (const k in r.values) seen.add(k);
  const names = PARAMETER_NAMES.filter((p) => seen.has(p));
  const len = b.readings.length;
  const ts = new Float64Array(len);
  const cols = names.map(() => new Float64Array(len));
  for (let i = 0; i < len; i++) {
    const r = b.readings[i] as DeviceBatch['readings'][number];
    ts[i] = r.ts;
    const v = r.values;
    for (let j = 0; j < names.length; j++) {
      const x = v[names[j] as string];
      (cols[j] as Float64Array)[i] = x === undefined ? Number.NaN : x;
    }
  }
  return { deviceId: b.deviceId, tz: b.tz, index: names.map((n) => INDEX.get(n) as number), ts, cols };
}

/**
 * A flush as one Float64Array, to cross to the writer thread as one transferred buffer (cloning a
 * buffer or view per column cost more than a live reading's write): per batch its device id, reading
 * count, column count and catalogue indexes, then its timestamps and columns. Zones travel beside it.
 */
export interface EncodedFlush {
  data: Float64Array;
  tzs: string[];
}

export function encodeFlush(work: readonly ColumnarBatch[]): EncodedFlush {
  let size = 0;
  for (const b of work) size += 3 + b.index.length + b.ts.length * (1 + b.cols.length);
  const data = new Float64Array(size);
  let o = 0;
  for (const b of work) {
    data[o++] = b.deviceId;
    data[o++] = b.ts.length;
    data[o++] = b.index.length;
    for (const i of b.index) data[o++] = i;
    data.set(b.ts, o);
    o += b.ts.length;
    for (const c of b.cols) {
      data.set(c, o);
      o += c.length;
    }
  }
  return { data, tzs: work.map((b) => b.tz) };
}

export function decodeFlush({ data, tzs }: EncodedFlush): ColumnarBatch[] {
  const out: ColumnarBatch[] = [];
  let o = 0;
  for (const tz of tzs) {
    const deviceId = data[o++] as number;
    const n = data[o++] as number;
    const k = data[o++] as number;
    const index = Array.from(data.subarray(o, o + k));
    o += k;
    const ts = data.subarray(o, o + n);
    o += n;
    const cols: Float64Array[] = [];
    for (let j = 0; j < k; j++, o += n) cols.push(data.subarray(o, o + n));
    out.push({ deviceId, tz, index, ts, cols });
  }
  return out;
}
