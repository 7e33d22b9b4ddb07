import { COUNTER_PARAMETERS, counterDelta, INSTANT_PARAMETERS } from '@phasewatch/shared';

/** A row as the database returns it: raw (`ts`, `<param>`) or rollup (`bucket`, `n`, `<param>_<agg>`). */
export type Row = Record<string, number | string | null>;

export const M5 = 5 * 60_000;
export const M15 = 15 * 60_000;
export const H1 = 60 * 60_000;

const num = (v: number | string | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));

/** Catalogue parameters that have a value in any of the rows (raw rows: `<p>`; rollup rows: `<p>_n` / `<p>_first`). */
export function presentParams(rows: readonly Row[], raw: boolean): { instant: string[]; counter: string[] } {
  // One pass over the keys rows actually carry: batch rows hold only their own parameters, so this
  // stays cheap where probing every catalogue name on every row was the ingest hot spot.
  const keys = new Set<string>();
  for (const r of rows) {
    for (const k in r) if (r[k] !== null && r[k] !== undefined) keys.add(k);
  }
  return {
    instant: INSTANT_PARAMETERS.filter((p) => keys.has(raw ? p : `${p}_n`)),
    counter: COUNTER_PARAMETERS.filter((p) => keys.has(raw ? p : `${p}_first`)),
  };
}

/**
 * Folds rows in time order into buckets (`keyOf` gives each row's bucket start; it must not decrease).
 * Raw children give avg/min/max inputs and counter readings; rollup children merge their sums, extremes,
 * counts and counter summaries, so every level is exactly what the raw rows would give.
 */
export function aggregate(children: readonly Row[], keyOf: (r: Row) => number, raw: boolean): Row[] {
  const present = presentParams(children, raw);
  // Column names built once per call, not per row and parameter.
  const instant = present.instant.map((p) => ({ p, sum: `${p}_sum`, min: `${p}_min`, max: `${p}_max`, n: `${p}_n` }));
  const counter = present.counter.map((p) => ({ p, first: `${p}_first`, last: `${p}_last`, delta: `${p}_delta` }));
  const out: Row[] = [];
  let cur: Row = {};
  let curKey = Number.NaN;
  for (const c of children) {
    const k = keyOf(c);
    if (k !== curKey) {
      cur = { bucket: k, n: 0 };
      out.push(cur);
      curKey = k;
    }
    cur.n = (cur.n as number) + (raw ? 1 : Number(c.n));
    for (const col of instant) {
      let sum: number | null;
      let min: number | null;
      let max: number | null;
      let n: number;
      if (raw) {
        sum = min = max = num(c[col.p]);
        n = 1;
      } else {
        sum = num(c[col.sum]);
        min = num(c[col.min]);
        max = num(c[col.max]);
        n = num(c[col.n]) ?? 0;
      }
      if (sum === null || min === null || max === null) continue;
      const s = cur[col.sum] as number | undefined;
      if (s === undefined || s === null) {
        cur[col.sum] = sum;
        cur[col.min] = min;
        cur[col.max] = max;
        cur[col.n] = n;
      } else {
        cur[col.sum] = s + sum;
        cur[col.min] = Math.min(cur[col.min] as number, min);
        cur[col.max] = Math.max(cur[col.max] as number, max);
        cur[col.n] = (cur[col.n] as number) + n;
      }
    }
    for (const col of counter) {
      const first = num(raw ? c[col.p] : c[col.first]);
      if (first === null) continue;
      const last = raw ? first : (num(c[col.last]) ?? first);
      const delta = raw ? 0 : (num(c[col.delta]) ?? 0);
      const prevLast = cur[col.last] as number | undefined | null;
      if (prevLast === undefined || prevLast === null) {
        cur[col.first] = first;
        cur[col.delta] = delta;
      } else {
        cur[col.delta] = (cur[col.delta] as number) + counterDelta(prevLast, first) + delta;
      }
      cur[col.last] = last;
    }
  }
  return out;
}

/** Bucket start of `ts` for a UTC-aligned width. */
export const floorTo = (ts: number, width: number) => Math.floor(ts / width) * width;
