/*
 * FROZEN: a copy of modules/readings/readings.rollup.ts as it was when migrations 0006 and 0010 were written (the v2
 * rollups: packed blobs of quarter-hour and hour levels, local-day rows), so those migrations keep their
 * behaviour when the live code moves on. Do not change it; nothing outside storage/migrations may import it.
 */
import {
  COUNTER_PARAMETERS,
  type CounterRules,
  type CounterRun,
  extendRun,
  INSTANT_PARAMETERS,
  joinRuns,
  pushRun,
  RUN_FIELDS,
  type RunColumns,
  runAt,
  runColumns,
  setRunAt,
  startRun,
} from '@phasewatch/shared';
import { filledColumn, giveColumn } from './v2-columns.js';

export const M15 = 15 * 60_000;
export const H1 = 60 * 60_000;

/** Bucket start of `ts` for a UTC-aligned width. */
export const floorTo = (ts: number, width: number) => Math.floor(ts / width) * width;

/*
 * Column-wise rollups. A level is a set of plain arrays indexed by bucket: per instantaneous parameter
 * the sum, extremes and count of its readings, per counter the bucket's run (see CounterRun in shared:
 * first and last reading with their times, the energy inside, the high-water mark, the longest gap).
 * Quarter-hours are built from raw readings; hours and local days are quarter-hours folded in time order,
 * so every level is exactly what its raw readings would give.
 */

/** The parameters a level carries, instantaneous ones first (catalogue order), then counters. */
export interface ParamSet {
  instant: readonly string[];
  counter: readonly string[];
}

/** The parameters of `names` split by kind, in catalogue order. */
export function paramSetOf(names: Iterable<string>): ParamSet {
  const set = names instanceof Set ? (names as ReadonlySet<string>) : new Set(names);
  return { instant: INSTANT_PARAMETERS.filter((p) => set.has(p)), counter: COUNTER_PARAMETERS.filter((p) => set.has(p)) };
}

/** Raw readings column-wise, sorted by unique `ts`: `cols[j][i]` is parameter j (instant, then counter) at `ts[i]`, NaN if absent. */
export interface RawColumns {
  ts: ArrayLike<number>;
  cols: ArrayLike<number>[];
}

/** Rollup buckets of one level column-wise, sorted by bucket. */
export interface Level {
  bucket: number[];
  /** Readings per bucket (any parameter). */
  n: number[];
  /** Per instantaneous parameter: per bucket sum, extremes and count (count 0: no value in the bucket). */
  sum: number[][];
  min: number[][];
  max: number[][];
  cnt: number[][];
  /** Per counter: its runs column-wise (`firstTs` NaN where the bucket has no reading of it). */
  runs: RunColumns[];
}

export function emptyLevel(ps: ParamSet): Level {
  const per = <T>(k: number) => Array.from({ length: k }, () => [] as T[]);
  const ni = ps.instant.length;
  return {
    bucket: [],
    n: [],
    sum: per(ni),
    min: per(ni),
    max: per(ni),
    cnt: per(ni),
    runs: Array.from({ length: ps.counter.length }, () => runColumns()),
  };
}

/** A column of `size` doubles set to `v`, as the level's arrays are typed (see `sizedLevel`). */
function typedColumn(size: number, v: number): number[] {
  return filledColumn(size, v) as unknown as number[];
}

/**
 * A level of `size` empty buckets, to be filled by index (never grown: `concatLevels` makes a new one).
 * The figures' columns are Float64Arrays: a year of quarter-hours is ~50 columns of 35,040 doubles, and
 * as plain arrays each was a fresh large object whose pages the VM faults in one by one (measured
 * ~1 ms a column here, 6,800 page faults a request); typed arrays from the read's column pool
 * (readings.columns.ts), given back by `releaseLevel` once the answer is built.
 */
export function sizedLevel(ps: ParamSet, size: number): Level {
  const filled = (k: number, v: number) => Array.from({ length: k }, () => typedColumn(size, v));
  const ni = ps.instant.length;
  const runs = (): RunColumns => {
    const out = {} as RunColumns;
    for (const f of RUN_FIELDS) out[f] = typedColumn(size, f === 'gap' ? 0 : Number.NaN);
    return out;
  };
  return {
    bucket: typedColumn(size, 0),
    n: typedColumn(size, 0),
    sum: filled(ni, 0),
    min: filled(ni, Number.POSITIVE_INFINITY),
    max: filled(ni, Number.NEGATIVE_INFINITY),
    cnt: filled(ni, 0),
    runs: Array.from({ length: ps.counter.length }, runs),
  };
}

/** Gives a level's columns back to the column pool: nothing may read the level afterwards. */
export function releaseLevel(l: Level): void {
  giveColumn(l.bucket);
  giveColumn(l.n);
  for (const key of ['sum', 'min', 'max', 'cnt'] as const) for (const col of l[key]) giveColumn(col);
  for (const r of l.runs) for (const f of RUN_FIELDS) giveColumn(r[f]);
}

/** Copies every bucket of `src` into `dst` from bucket `at` on (`dst` sized to hold them). */
function copyLevelInto(dst: Level, src: Level, at: number): void {
  const n = src.bucket.length;
  for (let i = 0; i < n; i++) {
    dst.bucket[at + i] = src.bucket[i] as number;
    dst.n[at + i] = src.n[i] as number;
  }
  const put = (to: number[], from: number[]) => (to as unknown as Float64Array).set(from.length === n ? from : from.slice(0, n), at);
  for (const key of ['sum', 'min', 'max', 'cnt'] as const) {
    for (let j = 0; j < src[key].length; j++) put(dst[key][j] as number[], src[key][j] as number[]);
  }
  for (let j = 0; j < src.runs.length; j++) {
    for (const f of RUN_FIELDS) put((dst.runs[j] as RunColumns)[f], (src.runs[j] as RunColumns)[f]);
  }
}

function pushBucket(l: Level, bucket: number): number {
  const k = l.bucket.length;
  l.bucket.push(bucket);
  l.n.push(0);
  for (let j = 0; j < l.sum.length; j++) {
    (l.sum[j] as number[]).push(0);
    (l.min[j] as number[]).push(Number.POSITIVE_INFINITY);
    (l.max[j] as number[]).push(Number.NEGATIVE_INFINITY);
    (l.cnt[j] as number[]).push(0);
  }
  for (let j = 0; j < l.runs.length; j++) pushRun(l.runs[j] as RunColumns, null);
  return k;
}

/** Raw readings folded into UTC buckets of `width` (the quarter-hour level). */
export function levelFromRaw(raw: RawColumns, ps: ParamSet, width: number, rules: CounterRules): Level {
  const out = emptyLevel(ps);
  const ni = ps.instant.length;
  const nc = ps.counter.length;
  // The open bucket's run of each counter, stored when the bucket is done.
  const open: (CounterRun | null)[] = new Array(nc).fill(null);
  const store = () => {
    for (let j = 0; j < nc; j++) {
      if (open[j]) setRunAt(out.runs[j] as RunColumns, k, open[j] as CounterRun);
      open[j] = null;
    }
  };
  let k = -1;
  let cur = Number.NaN;
  for (let i = 0; i < raw.ts.length; i++) {
    const ts = raw.ts[i] as number;
    const b = floorTo(ts, width);
    if (b !== cur) {
      store();
      cur = b;
      k = pushBucket(out, b);
    }
    out.n[k] = (out.n[k] as number) + 1;
    for (let j = 0; j < ni; j++) {
      const v = (raw.cols[j] as ArrayLike<number>)[i] as number;
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
      const v = (raw.cols[ni + j] as ArrayLike<number>)[i] as number;
      if (Number.isNaN(v)) continue;
      const r = open[j];
      if (r) extendRun(r, ts, v, rules);
      else open[j] = startRun(ts, v);
    }
  }
  store();
  return out;
}

/**
 * Children folded into parents in time order (`parentOf` must not decrease over the children): sums,
 * extremes and counts add up, counter runs join, so a parent is exactly what its raw readings would give.
 * A child may itself be a partly filled parent (a stored hour or day followed by later quarter-hours).
 */
export function foldLevel(children: Level, ps: ParamSet, parentOf: (bucket: number) => number, rules: CounterRules): Level {
  const out = emptyLevel(ps);
  const ni = ps.instant.length;
  const nc = ps.counter.length;
  // The open parent's run of each counter, stored when the parent is done.
  const open: (CounterRun | null)[] = new Array(nc).fill(null);
  const store = () => {
    for (let j = 0; j < nc; j++) {
      if (open[j]) setRunAt(out.runs[j] as RunColumns, k, open[j] as CounterRun);
      open[j] = null;
    }
  };
  let k = -1;
  let cur = Number.NaN;
  for (let i = 0; i < children.bucket.length; i++) {
    const b = parentOf(children.bucket[i] as number);
    if (b !== cur) {
      store();
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
      const child = runAt(children.runs[j] as RunColumns, i);
      if (child) open[j] = joinRuns(open[j] ?? null, child, rules);
    }
  }
  store();
  return out;
}

function copyBucket(from: Level, i: number, to: Level): void {
  to.bucket.push(from.bucket[i] as number);
  to.n.push(from.n[i] as number);
  for (const key of ['sum', 'min', 'max', 'cnt'] as const) {
    const src = from[key];
    const dst = to[key];
    for (let j = 0; j < src.length; j++) (dst[j] as number[]).push((src[j] as number[])[i] as number);
  }
  for (let j = 0; j < from.runs.length; j++) {
    const src = from.runs[j] as RunColumns;
    const dst = to.runs[j] as RunColumns;
    for (const f of RUN_FIELDS) dst[f].push(src[f][i] as number);
  }
}

/** Stored buckets with the freshly computed ones in place of the stored ones they replace, by bucket. */
export function overlayLevel(stored: Level, fresh: Level, ps: ParamSet): Level {
  if (stored.bucket.length === 0) return fresh;
  if (fresh.bucket.length === 0) return stored;
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

/**
 * `a` followed by `b` (every bucket of `a` at or before the first of `b`; equal buckets are kept twice,
 * for a fold to join), column by column (bucket by bucket, a year of stored quarter-hours cost more to
 * copy than to read).
 */
export function concatLevels(a: Level, b: Level, ps: ParamSet): Level {
  if (a.bucket.length === 0) return b;
  if (b.bucket.length === 0) return a;
  const out = sizedLevel(ps, a.bucket.length + b.bucket.length);
  copyLevelInto(out, a, 0);
  copyLevelInto(out, b, a.bucket.length);
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

/** Counter `j`'s runs joined over the whole level (null: no reading). */
export function joinedRun(l: Level, j: number, rules: CounterRules): CounterRun | null {
  let acc: CounterRun | null = null;
  const c = l.runs[j];
  if (!c) return null;
  for (let k = 0; k < c.firstTs.length; k++) acc = joinRuns(acc, runAt(c, k), rules);
  return acc;
}
