import { COUNTER_PARAMETERS, counterDelta, INSTANT_PARAMETERS } from '@phasewatch/shared';

/** A row as the database returns it: raw (`ts`, `<param>`) or rollup (`bucket`, `n`, `<param>_<agg>`). */
export type Row = Record<string, number | string | null>;

export const M5 = 5 * 60_000;
export const M15 = 15 * 60_000;
export const H1 = 60 * 60_000;

const num = (v: number | string | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));

/** Catalogue parameters that have a value in any of the rows (raw rows: `<p>`; rollup rows: `<p>_n` / `<p>_first`). */
export function presentParams(rows: readonly Row[], raw: boolean): { instant: string[]; counter: string[] } {
  const has = (col: string) => rows.some((r) => r[col] !== null && r[col] !== undefined);
  return {
    instant: INSTANT_PARAMETERS.filter((p) => has(raw ? p : `${p}_n`)),
    counter: COUNTER_PARAMETERS.filter((p) => has(raw ? p : `${p}_first`)),
  };
}

/**
 * Folds rows in time order into buckets (`keyOf` gives each row's bucket start; it must not decrease).
 * Raw children give avg/min/max inputs and counter readings; rollup children merge their sums, extremes,
 * counts and counter summaries, so every level is exactly what the raw rows would give.
 */
export function aggregate(children: readonly Row[], keyOf: (r: Row) => number, raw: boolean): Row[] {
  const { instant, counter } = presentParams(children, raw);
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
    for (const p of instant) {
      let sum: number | null;
      let min: number | null;
      let max: number | null;
      let n: number;
      if (raw) {
        sum = min = max = num(c[p]);
        n = 1;
      } else {
        sum = num(c[`${p}_sum`]);
        min = num(c[`${p}_min`]);
        max = num(c[`${p}_max`]);
        n = num(c[`${p}_n`]) ?? 0;
      }
      if (sum === null || min === null || max === null) continue;
      const s = cur[`${p}_sum`] as number | undefined;
      if (s === undefined || s === null) {
        cur[`${p}_sum`] = sum;
        cur[`${p}_min`] = min;
        cur[`${p}_max`] = max;
        cur[`${p}_n`] = n;
      } else {
        cur[`${p}_sum`] = s + sum;
        cur[`${p}_min`] = Math.min(cur[`${p}_min`] as number, min);
        cur[`${p}_max`] = Math.max(cur[`${p}_max`] as number, max);
        cur[`${p}_n`] = (cur[`${p}_n`] as number) + n;
      }
    }
    for (const p of counter) {
      const first = num(raw ? c[p] : c[`${p}_first`]);
      if (first === null) continue;
      const last = raw ? first : (num(c[`${p}_last`]) ?? first);
      const delta = raw ? 0 : (num(c[`${p}_delta`]) ?? 0);
      const prevLast = cur[`${p}_last`] as number | undefined | null;
      if (prevLast === undefined || prevLast === null) {
        cur[`${p}_first`] = first;
        cur[`${p}_delta`] = delta;
      } else {
        cur[`${p}_delta`] = (cur[`${p}_delta`] as number) + counterDelta(prevLast, first) + delta;
      }
      cur[`${p}_last`] = last;
    }
  }
  return out;
}

/** Bucket start of `ts` for a UTC-aligned width. */
export const floorTo = (ts: number, width: number) => Math.floor(ts / width) * width;
