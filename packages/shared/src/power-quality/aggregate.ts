/**
 * The 10-minute power-quality aggregate: per UTC-aligned 10-minute bin exactly what the weekly report needs
 * of its readings, so a week is 1,008 bins instead of up to 120,960 raw rows (one every 5 s):
 *
 * - `rows`: readings in the bin (any columns: a reading without voltage still ends an event run);
 * - per phase `n` (readings with a mean voltage) and `sumsq` (the sum of the squared means, added in time
 *   order, so √(sumsq / n) is the same double the raw computation gives);
 * - `cand`: readings that are an event candidate on some phase (`eventCandidate`): the report reads raw rows
 *   only for bins that hold one, events needing each reading's time;
 * - frequency counts: readings with `frq1`, within 49.5–50.5 Hz, outside 47–52 Hz, its minimum and maximum.
 *
 * The server stores it one row per device and UTC hour (6 bins; readings.repository.ts keeps it with the
 * other rollups) and `PqAggregate` is both the builder of those rows and the week's bins as read back.
 */

import {
  binIndex,
  countFrequency,
  emptyFrequencyCounts,
  PQ_LIMITS,
  type PqFrequencyCounts,
  type PqPhase,
  type PqPhaseBins,
} from './power-quality.js';

/** Raw columns the aggregate is built from and the report reads: mean, minimum, maximum per phase, then frequency. */
export const PQ_COLUMNS = ['vave1', 'vmin1', 'vmax1', 'vave2', 'vmin2', 'vmax2', 'vave3', 'vmin3', 'vmax3', 'frq1'] as const;

/** Span of one stored row (an hour, whole bins) and its bins. */
export const PQ_ROW_MS = 3_600_000;
export const PQ_ROW_SLOTS = PQ_ROW_MS / PQ_LIMITS.binMs;

const BIN = PQ_LIMITS.binMs;
/** Sections of the figures: rows, n × 3, sumsq × 3, cand, frequency (n, within, outside, min, max). */
const ROWS = 0;
const N = 1;
const SUMSQ = 4;
const CAND = 7;
const FN = 8;
const FIN = 9;
const FOUT = 10;
const FMIN = 11;
const FMAX = 12;
const SECTIONS = 13;

/**
 * Whether a reading starts or extends an event run of `phaseEvents` on a phase: an interruption (mean below
 * 5 % Un), or a mean inside 207–253 V with its minimum below 207 V (dip) or its maximum above 253 V (swell).
 */
export function eventCandidate(mean: number, min: number, max: number): boolean {
  if (mean < PQ_LIMITS.interruption) return true;
  return mean >= PQ_LIMITS.lower95 && mean <= PQ_LIMITS.upper && (min < PQ_LIMITS.lower95 || max > PQ_LIMITS.upper);
}

/** Figures of `count` consecutive bins from `first` (a multiple of 10 minutes), section-major. */
export class PqAggregate {
  readonly data: Float64Array;

  constructor(
    readonly first: number,
    readonly count: number,
  ) {
    this.data = new Float64Array(SECTIONS * count);
    this.data.fill(Number.POSITIVE_INFINITY, FMIN * count, (FMIN + 1) * count);
    this.data.fill(Number.NEGATIVE_INFINITY, FMAX * count, (FMAX + 1) * count);
  }

  get end(): number {
    return this.first + this.count * BIN;
  }

  private section(s: number): Float64Array {
    return this.data.subarray(s * this.count, (s + 1) * this.count);
  }

  /**
   * Folds readings in [lo, hi) (and in the bins) into the bins: `cols` in `PQ_COLUMNS` order (NaN: absent),
   * `ts` ascending. A bin must get all its readings from one call.
   */
  add(ts: ArrayLike<number>, cols: readonly ArrayLike<number>[], lo = this.first, hi = this.end): void {
    const d = this.data;
    const c = this.count;
    const a = Math.max(lo, this.first);
    const z = Math.min(hi, this.end);
    const f = emptyFrequencyCounts();
    const freq = cols[9] as ArrayLike<number>;
    for (let i = 0; i < ts.length; i++) {
      const t = ts[i] as number;
      if (t < a || t >= z) continue;
      const b = binIndex(t, this.first);
      d[ROWS * c + b] = (d[ROWS * c + b] as number) + 1;
      let cand = false;
      for (let p = 0; p < 3; p++) {
        const mean = (cols[3 * p] as ArrayLike<number>)[i] as number;
        if (Number.isNaN(mean)) continue;
        d[(N + p) * c + b] = (d[(N + p) * c + b] as number) + 1;
        d[(SUMSQ + p) * c + b] = (d[(SUMSQ + p) * c + b] as number) + mean * mean;
        if (eventCandidate(mean, (cols[3 * p + 1] as ArrayLike<number>)[i] as number, (cols[3 * p + 2] as ArrayLike<number>)[i] as number))
          cand = true;
      }
      if (cand) d[CAND * c + b] = (d[CAND * c + b] as number) + 1;
      const v = freq[i] as number;
      if (Number.isNaN(v)) continue;
      f.readings = d[FN * c + b] as number;
      f.within = d[FIN * c + b] as number;
      f.outside = d[FOUT * c + b] as number;
      f.min = d[FMIN * c + b] as number;
      f.max = d[FMAX * c + b] as number;
      countFrequency(f, v);
      d[FN * c + b] = f.readings;
      d[FIN * c + b] = f.within;
      d[FOUT * c + b] = f.outside;
      d[FMIN * c + b] = f.min;
      d[FMAX * c + b] = f.max;
    }
  }

  /** Readings in bin `b`. */
  rows(b: number): number {
    return this.data[ROWS * this.count + b] as number;
  }

  /** Event-candidate readings in bin `b`. */
  candidates(b: number): number {
    return this.data[CAND * this.count + b] as number;
  }

  /** A phase's bins as the report takes them (views, not copies). */
  phaseBins(phase: PqPhase): PqPhaseBins {
    return { phase, n: this.section(N + phase - 1), sumsq: this.section(SUMSQ + phase - 1) };
  }

  /** Frequency counts of the bins wholly inside [lo, hi). */
  frequency(lo: number, hi: number): PqFrequencyCounts {
    const out = emptyFrequencyCounts();
    const c = this.count;
    const d = this.data;
    for (let b = 0; b < c; b++) {
      const start = this.first + b * BIN;
      if (start < lo || start + BIN > hi || d[FN * c + b] === 0) continue;
      out.readings += d[FN * c + b] as number;
      out.within += d[FIN * c + b] as number;
      out.outside += d[FOUT * c + b] as number;
      if ((d[FMIN * c + b] as number) < out.min) out.min = d[FMIN * c + b] as number;
      if ((d[FMAX * c + b] as number) > out.max) out.max = d[FMAX * c + b] as number;
    }
    return out;
  }

  /**
   * The stored row of the hour starting at `hour` (its bins inside these): SECTIONS × 6 doubles, slot-minor;
   * null when the hour holds no reading. Empty figures have one encoding (zeros, also a bin's frequency
   * extremes without a frequency), so the same readings give the same bytes whatever order they came in.
   */
  encodeHour(hour: number): Float64Array | null {
    const b0 = binIndex(hour, this.first);
    const c = this.count;
    const out = new Float64Array(SECTIONS * PQ_ROW_SLOTS);
    let any = false;
    for (let s = 0; s < PQ_ROW_SLOTS; s++) {
      const b = b0 + s;
      if (b < 0 || b >= c || this.data[ROWS * c + b] === 0) continue;
      any = true;
      const hasF = this.data[FN * c + b] !== 0;
      for (let k = 0; k < SECTIONS; k++) {
        out[k * PQ_ROW_SLOTS + s] = (k === FMIN || k === FMAX) && !hasF ? 0 : (this.data[k * c + b] as number);
      }
    }
    return any ? out : null;
  }

  /** Sets the bins in [lo, hi) from the stored row of the hour starting at `hour`. */
  decodeHour(hour: number, row: Float64Array, lo = this.first, hi = this.end): void {
    if (row.length !== SECTIONS * PQ_ROW_SLOTS) throw new Error(`power-quality row of ${row.length} values`);
    const c = this.count;
    for (let s = 0; s < PQ_ROW_SLOTS; s++) {
      const start = hour + s * BIN;
      if (start < lo || start >= hi || start < this.first || start >= this.end) continue;
      const b = binIndex(start, this.first);
      const rows = row[ROWS * PQ_ROW_SLOTS + s] as number;
      if (rows === 0) continue;
      const hasF = row[FN * PQ_ROW_SLOTS + s] !== 0;
      for (let k = 0; k < SECTIONS; k++) {
        if ((k === FMIN || k === FMAX) && !hasF) continue;
        this.data[k * c + b] = row[k * PQ_ROW_SLOTS + s] as number;
      }
    }
  }
}
