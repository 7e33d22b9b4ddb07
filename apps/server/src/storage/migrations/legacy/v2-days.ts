/*
 * FROZEN: a copy of modules/readings/readings.days.ts as it was when migrations 0006 and 0010 were written (the v2
 * rollups: packed blobs of quarter-hour and hour levels, local-day rows), so those migrations keep their
 * behaviour when the live code moves on. Do not change it; nothing outside storage/migrations may import it.
 */
import { COUNTER_PARAMETERS, PARAMETER_NAMES, RUN_FIELDS, type RunColumns, runAt } from '@phasewatch/shared';
import { decodeBlob, encodeBlob } from './v2-packed.js';
import { type Level, type ParamSet, sizedLevel } from './v2-rollup.js';

/*
 * Local-day rollups (`rollup_day`): one row per device and local day of the owner (23 to 25 hours), the
 * day's figures of every parameter in one float64 blob: [entries, then per parameter its catalogue
 * index and its figures] — 4 for an instantaneous parameter (sum, min, max, count), 8 for a counter (its
 * run). A year is 365 rows; one fixed statement reads or writes them whatever parameters a device sends.
 */

const INDEX = new Map(PARAMETER_NAMES.map((p, i) => [p, i]));
const IS_COUNTER = PARAMETER_NAMES.map((p) => COUNTER_PARAMETERS.includes(p));
const width = (index: number) => (IS_COUNTER[index] ? 8 : 4);

/** A day's figures by catalogue index. */
export type DayFigures = Map<number, Float64Array>;

export function decodeDay(data: Uint8Array): DayFigures {
  const a = decodeBlob(data);
  const out: DayFigures = new Map();
  let o = 1;
  for (let e = 0; e < (a[0] as number); e++) {
    const index = a[o] as number;
    const w = width(index);
    out.set(index, a.subarray(o + 1, o + 1 + w));
    o += 1 + w;
  }
  return out;
}

export function encodeDay(figures: DayFigures): Buffer {
  const indexes = [...figures.keys()].sort((x, y) => x - y);
  const a = new Float64Array(1 + indexes.reduce((acc, i) => acc + 1 + width(i), 0));
  a[0] = indexes.length;
  let o = 1;
  for (const i of indexes) {
    a[o] = i;
    a.set(figures.get(i) as Float64Array, o + 1);
    o += 1 + width(i);
  }
  return encodeBlob(a);
}

/** Day `k` of `l` written over `stored` (the row as stored, other parameters kept): the parameters of `ps` replaced. */
export function dayFiguresOf(l: Level, k: number, ps: ParamSet, stored: DayFigures | undefined): DayFigures {
  const out: DayFigures = new Map(stored ?? []);
  ps.instant.forEach((p, j) => {
    const index = INDEX.get(p) as number;
    const c = (l.cnt[j] as number[])[k] as number;
    if (c === 0) out.delete(index);
    else
      out.set(
        index,
        Float64Array.of((l.sum[j] as number[])[k] as number, (l.min[j] as number[])[k] as number, (l.max[j] as number[])[k] as number, c),
      );
  });
  ps.counter.forEach((p, j) => {
    const index = INDEX.get(p) as number;
    const r = runAt(l.runs[j] as RunColumns, k);
    if (!r) out.delete(index);
    else out.set(index, Float64Array.of(r.firstTs, r.first, r.lastTs, r.last, r.peak, r.post, r.top, r.gap));
  });
  return out;
}

/** Stored day rows (bucket, n, data; sorted) as a level of the parameters of `ps`. */
export function levelFromDays(rows: readonly { bucket: number; n: number; data: Uint8Array }[], ps: ParamSet): Level {
  const out = sizedLevel(ps, rows.length);
  const inst = ps.instant.map((p) => INDEX.get(p) as number);
  const ctr = ps.counter.map((p) => INDEX.get(p) as number);
  rows.forEach((row, k) => {
    out.bucket[k] = Number(row.bucket);
    out.n[k] = Number(row.n);
    const f = decodeDay(row.data);
    inst.forEach((index, j) => {
      const x = f.get(index);
      if (!x) return;
      (out.sum[j] as number[])[k] = x[0] as number;
      (out.min[j] as number[])[k] = x[1] as number;
      (out.max[j] as number[])[k] = x[2] as number;
      (out.cnt[j] as number[])[k] = x[3] as number;
    });
    ctr.forEach((index, j) => {
      const x = f.get(index);
      if (!x) return;
      const runs = out.runs[j] as RunColumns;
      RUN_FIELDS.forEach((f, i) => {
        runs[f][k] = x[i] as number;
      });
    });
  });
  return out;
}

/** Catalogue names of the parameters a day row holds. */
export function dayParams(data: Uint8Array): string[] {
  return [...decodeDay(data).keys()].map((i) => PARAMETER_NAMES[i] as string);
}
