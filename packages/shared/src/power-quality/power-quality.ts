/**
 * The EN 50160 weekly voltage report, computed from raw readings (pure maths, no I/O). Method:
 *
 * - 10-minute bins aligned to UTC multiples of 10 minutes; the bins of a week are those starting in
 *   [from, to) (1,008 for a whole week, 1,002 / 1,014 on a DST week). A bin's value per phase is the rms
 *   aggregate √(mean of squares) of the readings' mean voltages (`vave<p>`) in it.
 * - A bin is invalid when its readings cover less than 90 % of it (readings × the device's reporting interval).
 * - Events per phase: a dip / swell is a run of readings whose mean stays inside 207–253 V while its minimum
 *   (`vmin<p>`) is below 207 V / its maximum (`vmax<p>`) above 253 V; an interruption is a run of readings whose
 *   mean is below 5 % Un (11.5 V), short when ≤ 3 min. A run is consecutive readings no further apart than
 *   1.5 reporting intervals; its duration is (last − first) + one interval, so it is resolved to the interval.
 * - A bin touched by an event on a phase is flagged on that phase and left out of that phase's statistics.
 * - Per phase over valid, unflagged bins: N, N1 (outside 207–253 V), N2 (outside 195.5–253 V), min, max,
 *   p05 and p95 (linear interpolation between order statistics). Bin values are rounded to 0.1 V before they
 *   are compared with the limits, so every figure agrees with the values shown.
 * - Verdict: a phase is not assessable when fewer than 95 % of the week's bins are valid or flagged (or N = 0),
 *   else it passes when N1/N ≤ 5 % and N2 = 0. The week is not assessable when any phase is, else it passes
 *   when every phase passes.
 * - Frequency (`frq1`, the meter's own averaging): share of readings in 49.5–50.5 Hz and the count outside 47–52 Hz.
 * - Overvoltage: every bin with enough coverage (valid or flagged) above 253 V, and the count per local day.
 */

import { NOMINAL_VOLTAGE } from '../constants.js';
import { localDate, localParts, tzOffsetMs, zonedTimeToUtc } from '../energy/zoned-time.js';

export const PQ_LIMITS = {
  nominal: NOMINAL_VOLTAGE,
  /** ±10 %: 95 % of the week's 10-minute values. */
  lower95: 207,
  upper: 253,
  /** −15 %: every 10-minute value. */
  lower100: 195.5,
  /** 5 % Un: an interruption. */
  interruption: 11.5,
  binMs: 600_000,
  coverage: 0.9,
  shortInterruptionS: 180,
  maxN1Share: 0.05,
  assessableShare: 0.95,
  frequencyLow: 49.5,
  frequencyHigh: 50.5,
  frequencyMin: 47,
  frequencyMax: 52,
} as const;

const BIN = PQ_LIMITS.binMs;

export type PqPhase = 1 | 2 | 3;
export type PqVerdict = 'pass' | 'fail' | 'not-assessable';
export type PqEventKind = 'dip' | 'swell' | 'interruption';

/** One phase's readings, aligned with the input's `ts` (NaN: absent). */
export interface PqPhaseSeries {
  phase: PqPhase;
  mean: ArrayLike<number>;
  min?: ArrayLike<number> | null;
  max?: ArrayLike<number> | null;
}

export interface PqInput {
  /** The week (or any period) as UTC epoch ms, [from, to). */
  from: number;
  to: number;
  /** Zone of the report's local times and days. */
  tz: string;
  /** The device's reporting interval in seconds. */
  intervalS: number;
  /** Reading times, ascending. */
  ts: ArrayLike<number>;
  phases: readonly PqPhaseSeries[];
  frequency?: ArrayLike<number> | null;
}

export interface PqEvent {
  kind: PqEventKind;
  phase: PqPhase;
  start: string;
  startMs: number;
  durationSeconds: number;
  /** Lowest value of a dip or interruption, highest of a swell (V, 0.1). */
  extreme: number;
  /** Interruptions: short (≤ 3 min) or long. */
  length?: 'short' | 'long';
}

export interface PqPhaseResult {
  phase: PqPhase;
  n: number;
  n1: number;
  n2: number;
  invalid: number;
  flagged: number;
  min: number | null;
  max: number | null;
  p05: number | null;
  p95: number | null;
  /** N1 / N (0–1), null when N = 0. */
  n1Share: number | null;
  verdict: PqVerdict;
}

export interface PqOvervoltage {
  start: string;
  startMs: number;
  phase: PqPhase;
  value: number;
}

export interface PqFrequency {
  readings: number;
  /** Share (0–1) of readings within 49.5–50.5 Hz. */
  withinShare: number;
  /** Readings outside 47–52 Hz. */
  outside47to52: number;
  min: number;
  max: number;
}

export interface PqTrendPhase {
  phase: PqPhase;
  /** Bin values (V, 0.1); null for an invalid bin. */
  values: (number | null)[];
  /** Indexes of the flagged bins. */
  flagged: number[];
}

export interface PqReport {
  from: string;
  to: string;
  fromMs: number;
  toMs: number;
  timezone: string;
  intervalSeconds: number;
  verdict: PqVerdict;
  /** Number of 10-minute bins in the week. */
  bins: number;
  phases: PqPhaseResult[];
  events: PqEvent[];
  overvoltage: PqOvervoltage[];
  overvoltageDays: { date: string; count: number }[];
  frequency: PqFrequency | null;
  trend: { start: string; startMs: number; stepSeconds: number; phases: PqTrendPhase[] };
}

/** Volts to 0.1 V. */
export const round1 = (v: number): number => Math.round(v * 10) / 10;

/** `YYYY-MM-DDTHH:mm:ss±hh:mm` of an instant in a zone. */
export function isoWithOffset(ts: number, tz: string): string {
  const off = tzOffsetMs(ts, tz);
  const sign = off < 0 ? '-' : '+';
  const m = Math.abs(off) / 60_000;
  const zone = `${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return `${new Date(ts + off).toISOString().slice(0, 19)}${zone}`;
}

/** Whether a `YYYY-MM-DD` date is a real calendar date and a Monday. */
export function isMonday(date: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d && back.getUTCDay() === 1;
}

/** The local week starting on a Monday `YYYY-MM-DD`: Monday 00:00 to the next Monday 00:00 in `tz`. */
export function localWeek(monday: string, tz: string): { from: number; to: number } {
  const [y, m, d] = monday.split('-').map(Number) as [number, number, number];
  return { from: zonedTimeToUtc(tz, y, m, d), to: zonedTimeToUtc(tz, y, m, d + 7) };
}

/** The Monday `YYYY-MM-DD` of the local week containing an instant. */
export function mondayOf(ts: number, tz: string): string {
  const p = localParts(ts, tz);
  const dow = new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay();
  const back = (dow + 6) % 7;
  const t = new Date(Date.UTC(p.year, p.month - 1, p.day - back));
  return t.toISOString().slice(0, 10);
}

/** The week's 10-minute bins: the first bin start (a UTC multiple of 10 minutes at or after `from`) and the count. */
export function weekBins(from: number, to: number): { first: number; count: number } {
  const first = Math.ceil(from / BIN) * BIN;
  return { first, count: Math.max(0, Math.ceil((to - first) / BIN)) };
}

/** Index of the 10-minute bin (UTC-aligned) holding `ts`, counted from `first`. */
export const binIndex = (ts: number, first: number): number => Math.floor((ts - first) / BIN);

/** The rms aggregate √(mean of squares) of values (NaN skipped); NaN when none. */
export function rmsAggregate(values: ArrayLike<number>): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (Number.isNaN(v)) continue;
    s += v * v;
    n++;
  }
  return n === 0 ? Number.NaN : Math.sqrt(s / n);
}

/** Percentile p (0–1) of sorted values, linear between order statistics. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return (sorted[lo] as number) + (h - lo) * ((sorted[hi] as number) - (sorted[lo] as number));
}

/** Per-phase verdict of the statistics. */
export function phaseVerdict(s: { n: number; n1: number; n2: number; flagged: number }, bins: number): PqVerdict {
  if (s.n === 0 || s.n + s.flagged < PQ_LIMITS.assessableShare * bins) return 'not-assessable';
  return s.n1 / s.n <= PQ_LIMITS.maxN1Share && s.n2 === 0 ? 'pass' : 'fail';
}

/** The week's verdict: not assessable when a phase is, else pass when every phase passes. */
export function weekVerdict(phases: readonly { verdict: PqVerdict }[]): PqVerdict {
  if (phases.length === 0 || phases.some((p) => p.verdict === 'not-assessable')) return 'not-assessable';
  return phases.every((p) => p.verdict === 'pass') ? 'pass' : 'fail';
}

const KINDS: readonly PqEventKind[] = ['dip', 'swell', 'interruption'];

/** Events of one phase, in time order. */
export function phaseEvents(
  ts: ArrayLike<number>,
  s: PqPhaseSeries,
  intervalS: number,
  from: number,
  to: number,
): Omit<PqEvent, 'start'>[] {
  const out: Omit<PqEvent, 'start'>[] = [];
  const maxGap = intervalS * 1500;
  // Per kind (dip, swell, interruption): the open run's first and last reading time and its extreme (NaN: none open).
  const first = [Number.NaN, Number.NaN, Number.NaN];
  const last = [0, 0, 0];
  const extreme = [0, 0, 0];
  const close = (k: number) => {
    if (Number.isNaN(first[k] as number)) return;
    const kind = KINDS[k] as PqEventKind;
    const durationSeconds = Math.round(((last[k] as number) - (first[k] as number)) / 1000 + intervalS);
    const e: Omit<PqEvent, 'start'> = {
      kind,
      phase: s.phase,
      startMs: first[k] as number,
      durationSeconds,
      extreme: round1(extreme[k] as number),
    };
    if (kind === 'interruption') e.length = durationSeconds <= PQ_LIMITS.shortInterruptionS ? 'short' : 'long';
    out.push(e);
    first[k] = Number.NaN;
  };
  const extend = (k: number, t: number, v: number) => {
    if (!Number.isNaN(first[k] as number) && t - (last[k] as number) <= maxGap) {
      last[k] = t;
      extreme[k] = k === 1 ? Math.max(extreme[k] as number, v) : Math.min(extreme[k] as number, v);
      return;
    }
    close(k);
    first[k] = t;
    last[k] = t;
    extreme[k] = v;
  };
  const { mean: means, min: mins, max: maxes } = s;
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i] as number;
    if (t < from || t >= to) continue;
    const mean = means[i] as number;
    let dip = false;
    let swell = false;
    let interruption = false;
    if (mean < PQ_LIMITS.interruption) {
      interruption = true;
      const lo = mins ? (mins[i] as number) : Number.NaN;
      extend(2, t, Number.isNaN(lo) ? mean : Math.min(lo, mean));
    } else if (mean >= PQ_LIMITS.lower95 && mean <= PQ_LIMITS.upper) {
      if (mins && (mins[i] as number) < PQ_LIMITS.lower95) {
        dip = true;
        extend(0, t, mins[i] as number);
      }
      if (maxes && (maxes[i] as number) > PQ_LIMITS.upper) {
        swell = true;
        extend(1, t, maxes[i] as number);
      }
    }
    if (!dip) close(0);
    if (!swell) close(1);
    if (!interruption) close(2);
  }
  close(0);
  close(1);
  close(2);
  return out.sort((a, b) => a.startMs - b.startMs);
}

/** One phase's 10-minute bins (index: bin from the week's first): readings with a mean, and the sum of their squares. */
export interface PqPhaseBins {
  phase: PqPhase;
  n: ArrayLike<number>;
  sumsq: ArrayLike<number>;
}

/**
 * What a report is made of, however it was gathered: the period, the per-phase bins (the week's `weekBins`),
 * each phase's events (`phaseEvents` over [first bin, end of last bin)) and the frequency figures.
 * `computePowerQuality` gathers them from raw readings; the server also from its 10-minute aggregate.
 */
export interface PqBinsInput {
  from: number;
  to: number;
  tz: string;
  intervalS: number;
  phases: readonly PqPhaseBins[];
  /** Per phase of `phases`, in the same order. */
  events: readonly Omit<PqEvent, 'start'>[][];
  frequency: PqFrequency | null;
}

/** One phase's bins from its readings (time order within a bin: the sums are the same doubles whoever adds them). */
export function phaseBins(ts: ArrayLike<number>, s: PqPhaseSeries, first: number, count: number): PqPhaseBins {
  const end = first + count * BIN;
  const sumsq = new Float64Array(count);
  const n = new Int32Array(count);
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i] as number;
    if (t < first || t >= end) continue;
    const v = s.mean[i] as number;
    if (Number.isNaN(v)) continue;
    const b = binIndex(t, first);
    sumsq[b] = (sumsq[b] as number) + v * v;
    n[b] = (n[b] as number) + 1;
  }
  return { phase: s.phase, n, sumsq };
}

/** The report of a period (normally a local week) from its readings. */
export function computePowerQuality(input: PqInput): PqReport {
  const { from, to, intervalS, ts } = input;
  const { first, count } = weekBins(from, to);
  const end = first + count * BIN;
  return powerQualityFromBins({
    from,
    to,
    tz: input.tz,
    intervalS,
    phases: input.phases.map((s) => phaseBins(ts, s, first, count)),
    events: input.phases.map((s) => phaseEvents(ts, s, intervalS, first, end)),
    frequency: input.frequency ? frequencyShare(ts, input.frequency, from, to) : null,
  });
}

/** The report of a period from its bins, events and frequency figures (see `PqBinsInput`). */
export function powerQualityFromBins(input: PqBinsInput): PqReport {
  const { from, to, tz, intervalS } = input;
  const { first, count } = weekBins(from, to);
  const needed = PQ_LIMITS.coverage * (BIN / 1000);
  const phases: PqPhaseResult[] = [];
  const events: PqEvent[] = [];
  const overvoltage: PqOvervoltage[] = [];
  const trend: PqTrendPhase[] = [];
  input.phases.forEach((s, pi) => {
    const { sumsq, n } = s;
    const flag = new Uint8Array(count);
    for (const e of input.events[pi] ?? []) {
      events.push({ ...e, start: isoWithOffset(e.startMs, tz) });
      const b0 = Math.max(0, binIndex(e.startMs, first));
      const b1 = Math.min(count - 1, binIndex(e.startMs + e.durationSeconds * 1000 - 1, first));
      for (let b = b0; b <= b1; b++) flag[b] = 1;
    }
    const values: (number | null)[] = new Array(count);
    const flaggedIdx: number[] = [];
    const stats: number[] = [];
    let n1 = 0;
    let n2 = 0;
    let invalid = 0;
    for (let b = 0; b < count; b++) {
      const k = n[b] as number;
      const covered = k * intervalS >= needed;
      const v = k > 0 ? round1(Math.sqrt((sumsq[b] as number) / k)) : Number.NaN;
      values[b] = covered || flag[b] ? (Number.isNaN(v) ? null : v) : null;
      if (flag[b]) flaggedIdx.push(b);
      if (covered && v > PQ_LIMITS.upper) {
        const start = first + b * BIN;
        overvoltage.push({ start: isoWithOffset(start, tz), startMs: start, phase: s.phase, value: v });
      }
      if (flag[b]) continue;
      if (!covered) {
        invalid++;
        continue;
      }
      stats.push(v);
      if (v < PQ_LIMITS.lower95 || v > PQ_LIMITS.upper) n1++;
      if (v < PQ_LIMITS.lower100 || v > PQ_LIMITS.upper) n2++;
    }
    const sorted = Float64Array.from(stats).sort();
    const N = sorted.length;
    const r: PqPhaseResult = {
      phase: s.phase,
      n: N,
      n1,
      n2,
      invalid,
      flagged: flaggedIdx.length,
      min: N ? (sorted[0] as number) : null,
      max: N ? (sorted[N - 1] as number) : null,
      p05: N ? round1(percentile(sorted, 0.05)) : null,
      p95: N ? round1(percentile(sorted, 0.95)) : null,
      n1Share: N ? n1 / N : null,
      verdict: 'not-assessable',
    };
    r.verdict = phaseVerdict(r, count);
    phases.push(r);
    trend.push({ phase: s.phase, values, flagged: flaggedIdx });
  });
  events.sort((a, b) => a.startMs - b.startMs || a.phase - b.phase);
  overvoltage.sort((a, b) => a.startMs - b.startMs || a.phase - b.phase);

  const days: { date: string; count: number }[] = [];
  for (let d = from; d < to; ) {
    const date = localDate(d, tz);
    days.push({ date, count: 0 });
    const [y, m, dd] = date.split('-').map(Number) as [number, number, number];
    d = zonedTimeToUtc(tz, y, m, dd + 1);
  }
  const dayIndex = new Map(days.map((d, i) => [d.date, i]));
  for (const o of overvoltage) {
    const i = dayIndex.get(localDate(o.startMs, tz));
    if (i !== undefined) (days[i] as { count: number }).count++;
  }

  return {
    from: isoWithOffset(from, tz),
    to: isoWithOffset(to, tz),
    fromMs: from,
    toMs: to,
    timezone: tz,
    intervalSeconds: intervalS,
    verdict: weekVerdict(phases),
    bins: count,
    phases,
    events,
    overvoltage,
    overvoltageDays: days,
    frequency: input.frequency,
    trend: { start: isoWithOffset(first, tz), startMs: first, stepSeconds: BIN / 1000, phases: trend },
  };
}

/** Frequency counts of readings with a value: how many, within 49.5–50.5 Hz, outside 47–52 Hz, extremes. */
export interface PqFrequencyCounts {
  readings: number;
  within: number;
  outside: number;
  min: number;
  max: number;
}

export const emptyFrequencyCounts = (): PqFrequencyCounts => ({
  readings: 0,
  within: 0,
  outside: 0,
  min: Number.POSITIVE_INFINITY,
  max: Number.NEGATIVE_INFINITY,
});

/** Counts one frequency value (NaN: none). */
export function countFrequency(c: PqFrequencyCounts, v: number): void {
  if (Number.isNaN(v)) return;
  c.readings++;
  if (v >= PQ_LIMITS.frequencyLow && v <= PQ_LIMITS.frequencyHigh) c.within++;
  if (v < PQ_LIMITS.frequencyMin || v > PQ_LIMITS.frequencyMax) c.outside++;
  if (v < c.min) c.min = v;
  if (v > c.max) c.max = v;
}

/** Adds counts `b` (of other readings) to `a`. */
export function addFrequencyCounts(a: PqFrequencyCounts, b: PqFrequencyCounts): void {
  a.readings += b.readings;
  a.within += b.within;
  a.outside += b.outside;
  if (b.min < a.min) a.min = b.min;
  if (b.max > a.max) a.max = b.max;
}

/** The report's frequency figures of counts; null without any reading. */
export function frequencyOf(c: PqFrequencyCounts): PqFrequency | null {
  if (c.readings === 0) return null;
  return {
    readings: c.readings,
    withinShare: c.within / c.readings,
    outside47to52: c.outside,
    min: Math.round(c.min * 100) / 100,
    max: Math.round(c.max * 100) / 100,
  };
}

/** Frequency figures of the readings in [from, to); null without any. */
export function frequencyShare(ts: ArrayLike<number>, f: ArrayLike<number>, from: number, to: number): PqFrequency | null {
  const c = emptyFrequencyCounts();
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i] as number;
    if (t >= from && t < to) countFrequency(c, f[i] as number);
  }
  return frequencyOf(c);
}
