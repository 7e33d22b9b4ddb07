import { tzOffsetMs } from '../energy/zoned-time.js';

/**
 * Hourly netting (bilansowanie godzinowe), the way Polish sellers settle prosumers since 1 April 2022:
 * per **clock hour of the location** and **across all phases**, only the hour's net import or net export
 * counts; energy that nets out within the hour is self-consumption and never reaches the bill.
 *
 *     I = Σ phases Σ quarter-hours of the hour  import (eai1..3, or energy3phases_import)
 *     E = Σ phases Σ quarter-hours of the hour  export (eae1..3, or energy3phases_export)
 *     netted import = max(0, I − E)      netted export = max(0, E − I)
 *
 * A clock hour is keyed by the UTC instant of its start, so on the autumn DST day the repeated 02:00–03:00
 * are two hours (25 in the day) and on the spring day 02:00–03:00 does not exist (23): each hour of the
 * seller's settlement is one real hour. A quarter-hour whose energy is missing (NaN) adds nothing.
 */

const Q = 15 * 60_000;
const HOUR = 3_600_000;

/** Quarter-hour energies of a grid meter: bucket starts (UTC ms, ascending) and per phase import / export (kWh). */
export interface QuarterFlows {
  ts: ArrayLike<number>;
  /** One array per phase (or a single array: the 3-phase total), aligned with `ts`. */
  import: readonly ArrayLike<number>[];
  export: readonly ArrayLike<number>[];
}

/** One clock hour's raw and netted energy (kWh). */
export interface NettedHour {
  /** UTC ms of the local clock hour's start. */
  start: number;
  importKWh: number;
  exportKWh: number;
  nettedImportKWh: number;
  nettedExportKWh: number;
}

const DAY = 86_400_000;

/**
 * A timezone's UTC offset at instants, looked up through `Intl` about once a day instead of per call: when
 * the offset at `t` and at `t + 24 h` agree, no transition lies between (zones change at most once in a
 * day), so it holds for the whole window; otherwise each instant is looked up.
 */
export function offsetLookup(tz: string): (ts: number) => number {
  let from = Number.NaN;
  let to = Number.NaN;
  let offset = 0;
  return (ts) => {
    if (ts >= from && ts < to) return offset;
    const a = tzOffsetMs(ts, tz);
    if (tzOffsetMs(ts + DAY, tz) !== a) return a;
    from = ts;
    to = ts + DAY;
    offset = a;
    return a;
  };
}

/** The UTC instant starting the local clock hour that contains `ts` (`offsetOf`: a cached lookup). */
export function clockHourStart(ts: number, tz: string, offsetOf: (ts: number) => number = (t) => tzOffsetMs(t, tz)): number {
  const wall = ts + offsetOf(ts);
  return ts - (((wall % HOUR) + HOUR) % HOUR);
}

const add = (arrays: readonly ArrayLike<number>[], k: number) => {
  let s = 0;
  for (const a of arrays) {
    const v = a[k] as number;
    if (!Number.isNaN(v)) s += v;
  }
  return s;
};

/**
 * Nets quarter-hour flows per local clock hour across phases (rules above). Hours without any quarter-hour
 * are left out; the answer is in time order. The zone offset is looked up once per hour at most, and
 * reused while it stays the same (whole-hour offsets make every UTC hour a clock hour).
 */
export function netHourly(flows: QuarterFlows, tz: string): NettedHour[] {
  const offsetOf = offsetLookup(tz);
  const out: NettedHour[] = [];
  let cur: NettedHour | null = null;
  let curEnd = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < flows.ts.length; k++) {
    const t = flows.ts[k] as number;
    const i = add(flows.import, k);
    const e = add(flows.export, k);
    if (!cur || t >= curEnd || t < cur.start) {
      const start = clockHourStart(Math.floor(t / Q) * Q, tz, offsetOf);
      cur = { start, importKWh: 0, exportKWh: 0, nettedImportKWh: 0, nettedExportKWh: 0 };
      curEnd = start + HOUR;
      out.push(cur);
    }
    cur.importKWh += i;
    cur.exportKWh += e;
  }
  for (const h of out) {
    const n = h.importKWh - h.exportKWh;
    h.nettedImportKWh = Math.max(n, 0);
    h.nettedExportKWh = Math.max(-n, 0);
  }
  return out;
}
