import { describe, expect, it } from 'vitest';
import {
  binIndex,
  computePowerQuality,
  isMonday,
  localWeek,
  mondayOf,
  type PqInput,
  percentile,
  phaseEvents,
  rmsAggregate,
  weekBins,
} from './power-quality.js';
import { powerQualityQuerySchema } from './power-quality.schema.js';

const TZ = 'Europe/Warsaw';
const BIN = 600_000;

/** A week of readings every `step` s on one or three phases, the mean given per instant (NaN: no reading). */
function week(
  monday: string,
  opts: {
    step?: number;
    phases?: number;
    mean?: (t: number, p: number) => number;
    min?: (t: number, p: number) => number;
    max?: (t: number, p: number) => number;
  } = {},
): PqInput {
  const { from, to } = localWeek(monday, TZ);
  const step = opts.step ?? 60;
  const phases = opts.phases ?? 3;
  const ts: number[] = [];
  for (let t = from; t < to; t += step * 1000) ts.push(t);
  const col = (f: ((t: number, p: number) => number) | undefined, p: number, dflt: number) =>
    Float64Array.from(ts, (t) => (f ? f(t, p) : dflt));
  return {
    from,
    to,
    tz: TZ,
    intervalS: step,
    ts,
    phases: Array.from({ length: phases }, (_, i) => {
      const p = (i + 1) as 1 | 2 | 3;
      const mean = col(opts.mean, p, 230);
      return { phase: p, mean, min: opts.min ? col(opts.min, p, 0) : mean, max: opts.max ? col(opts.max, p, 0) : mean };
    }),
  };
}

describe('calendar', () => {
  it('knows Mondays and the local week, 1,008 bins, 1,002 and 1,014 on the DST weeks of Europe/Warsaw 2026', () => {
    expect(isMonday('2026-11-23')).toBe(true);
    expect(isMonday('2026-11-24')).toBe(false);
    expect(isMonday('2026-02-30')).toBe(false);
    expect(mondayOf(Date.parse('2026-11-29T22:59:00Z'), TZ)).toBe('2026-11-23'); // Sunday 23:59 local
    expect(mondayOf(Date.parse('2026-11-29T23:00:00Z'), TZ)).toBe('2026-11-30'); // Monday 00:00 local
    const w = localWeek('2026-11-23', TZ);
    expect(new Date(w.from).toISOString()).toBe('2026-11-22T23:00:00.000Z');
    expect(weekBins(w.from, w.to).count).toBe(1008);
    const spring = localWeek('2026-03-23', TZ); // 29 March: 02:00 → 03:00
    expect(weekBins(spring.from, spring.to).count).toBe(1002);
    const autumn = localWeek('2026-10-19', TZ); // 25 October: 03:00 → 02:00
    expect(weekBins(autumn.from, autumn.to).count).toBe(1014);
    expect(computePowerQuality(week('2026-03-23')).bins).toBe(1002);
    const a = computePowerQuality(week('2026-10-19'));
    expect(a.bins).toBe(1014);
    expect(a.from).toBe('2026-10-19T00:00:00+02:00');
    expect(a.to).toBe('2026-10-26T00:00:00+01:00');
    expect(a.verdict).toBe('pass');
    expect(a.phases.map((p) => p.n)).toEqual([1014, 1014, 1014]);
    expect(a.overvoltageDays.map((d) => d.date)).toEqual([
      '2026-10-19',
      '2026-10-20',
      '2026-10-21',
      '2026-10-22',
      '2026-10-23',
      '2026-10-24',
      '2026-10-25',
    ]);
  });

  it('aligns bins to UTC multiples of 10 minutes', () => {
    const first = Date.parse('2026-11-22T23:00:00Z');
    expect(binIndex(first, first)).toBe(0);
    expect(binIndex(first + BIN - 1, first)).toBe(0);
    expect(binIndex(first + BIN, first)).toBe(1);
    // Kathmandu (+05:45): local midnight is not on a UTC 10-minute boundary; the first bin starts after it.
    const k = localWeek('2026-11-23', 'Asia/Kathmandu');
    const { first: kf, count } = weekBins(k.from, k.to);
    expect(kf % BIN).toBe(0);
    expect(kf - k.from).toBe(5 * 60_000);
    expect(count).toBe(1008);
  });

  it('takes a date YYYY-MM-DD in the query (whether it is a Monday is checked by the service)', () => {
    expect(powerQualityQuerySchema.safeParse({ week: '2026-11-23' }).success).toBe(true);
    const bad = powerQualityQuerySchema.safeParse({ week: 'monday' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('validation.date');
  });
});

describe('aggregation', () => {
  it('aggregates a bin as the rms of its readings, not their mean', () => {
    expect(rmsAggregate([220, 240])).toBeCloseTo(Math.sqrt((220 ** 2 + 240 ** 2) / 2), 12);
    expect(rmsAggregate([220, 240])).not.toBe(230);
    expect(rmsAggregate([Number.NaN, 230])).toBe(230);
    const input = week('2026-11-23', { phases: 1, mean: (t) => ((t / 60_000) % 2 === 0 ? 200 : 260) });
    const r = computePowerQuality(input);
    const expected = Math.round(Math.sqrt((200 ** 2 + 260 ** 2) / 2) * 10) / 10;
    expect(r.trend.phases[0]?.values[0]).toBe(expected);
    expect(r.phases[0]?.min).toBe(expected);
  });

  it('marks a bin covered below 90 % invalid (by the reporting interval)', () => {
    const { from } = localWeek('2026-11-23', TZ);
    // Bin 0: 9 of 10 minute readings (90 %): valid; bin 1: 8 of 10: invalid.
    const input = week('2026-11-23', {
      phases: 1,
      mean: (t) => (t === from || t === from + BIN || t === from + BIN + 60_000 ? Number.NaN : 230),
    });
    const r = computePowerQuality(input);
    expect(r.trend.phases[0]?.values.slice(0, 2)).toEqual([230, null]);
    expect(r.phases[0]).toMatchObject({ n: 1007, invalid: 1, flagged: 0, verdict: 'pass' });
  });

  it('interpolates percentiles between order statistics', () => {
    expect(percentile([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(percentile([0, 10], 0.05)).toBeCloseTo(0.5, 12);
    expect(percentile([0, 10], 0.95)).toBeCloseTo(9.5, 12);
  });
});

describe('verdicts', () => {
  /** The first `k` bins of phase 2 at `v`. */
  const lowBins = (k: number, v: number) => {
    const { from } = localWeek('2026-11-23', TZ);
    return week('2026-11-23', { mean: (t, p) => (p === 2 && t < from + k * BIN ? v : 230) });
  };

  it('passes 4.9 % of bins outside ±10 % and fails 5.1 %', () => {
    const pass = computePowerQuality(lowBins(49, 205)); // 49 / 1008 = 4.86 %
    expect(pass.phases[1]).toMatchObject({ n: 1008, n1: 49, n2: 0, verdict: 'pass' });
    expect(pass.verdict).toBe('pass');
    const fail = computePowerQuality(lowBins(52, 205)); // 52 / 1008 = 5.16 %
    expect(fail.phases[1]).toMatchObject({ n1: 52, n2: 0, verdict: 'fail' });
    expect(fail.phases[0]?.verdict).toBe('pass');
    expect(fail.verdict).toBe('fail');
  });

  it('fails on N2 from one bin below 195.5 V, and p05 / p95 / min / max follow', () => {
    const r = computePowerQuality(lowBins(1, 195.4));
    expect(r.phases[1]).toMatchObject({ n1: 1, n2: 1, min: 195.4, max: 230, verdict: 'fail' });
    expect(r.verdict).toBe('fail');
    const edge = computePowerQuality(lowBins(1, 195.5));
    expect(edge.phases[1]).toMatchObject({ n1: 1, n2: 0, verdict: 'pass' });
  });

  it('lists bins above 253 V as overvoltage, with the count per local day', () => {
    const { from } = localWeek('2026-11-23', TZ);
    const day2 = from + 86_400_000;
    const r = computePowerQuality(
      week('2026-11-23', { mean: (t, p) => (p === 1 && t >= day2 + 12 * 3_600_000 && t < day2 + 12 * 3_600_000 + 3 * BIN ? 254 : 230) }),
    );
    expect(r.overvoltage).toEqual([
      { start: '2026-11-24T12:00:00+01:00', startMs: day2 + 12 * 3_600_000, phase: 1, value: 254 },
      { start: '2026-11-24T12:10:00+01:00', startMs: day2 + 12 * 3_600_000 + BIN, phase: 1, value: 254 },
      { start: '2026-11-24T12:20:00+01:00', startMs: day2 + 12 * 3_600_000 + 2 * BIN, phase: 1, value: 254 },
    ]);
    expect(r.overvoltageDays.map((d) => d.count)).toEqual([0, 3, 0, 0, 0, 0, 0]);
    expect(r.phases[0]).toMatchObject({ n1: 3, n2: 3, max: 254, verdict: 'fail' });
  });

  it('is not assessable with a day missing', () => {
    const { from } = localWeek('2026-11-23', TZ);
    const r = computePowerQuality(
      week('2026-11-23', { mean: (t) => (t >= from + 2 * 86_400_000 && t < from + 3 * 86_400_000 ? Number.NaN : 230) }),
    );
    expect(r.phases.map((p) => [p.n, p.invalid, p.verdict])).toEqual([
      [864, 144, 'not-assessable'],
      [864, 144, 'not-assessable'],
      [864, 144, 'not-assessable'],
    ]);
    expect(r.verdict).toBe('not-assessable');
  });

  it('summarises frequency as indicative shares', () => {
    const input = week('2026-11-23', { phases: 1 });
    input.frequency = Float64Array.from(input.ts, (_, i) => (i === 0 ? 46.9 : i < 100 ? 49.4 : 50));
    const r = computePowerQuality(input);
    expect(r.frequency).toMatchObject({ readings: 10_080, outside47to52: 1, min: 46.9, max: 50 });
    expect(r.frequency?.withinShare).toBeCloseTo(9980 / 10_080, 12);
  });
});

describe('events', () => {
  const t0 = Date.parse('2026-11-24T10:00:00Z');

  it('tells a 3-minute interruption (short) from a 4-minute one (long), and flags the bins they touch', () => {
    const outage = (minutes: number) =>
      week('2026-11-23', {
        step: 5,
        phases: 1,
        mean: (t) => (t >= t0 + 2 * 60_000 && t < t0 + (2 + minutes) * 60_000 ? 0.4 : 230),
      });
    const short = computePowerQuality(outage(3));
    expect(short.events).toEqual([
      {
        kind: 'interruption',
        phase: 1,
        start: '2026-11-24T11:02:00+01:00',
        startMs: t0 + 120_000,
        durationSeconds: 180,
        extreme: 0.4,
        length: 'short',
      },
    ]);
    const long = computePowerQuality(outage(4));
    expect(long.events[0]).toMatchObject({ durationSeconds: 240, length: 'long' });
    // 10:02–10:06 UTC stays in one bin; the bin is flagged, left out of N, not counted as N1/N2.
    expect(long.phases[0]).toMatchObject({ n: 1007, flagged: 1, n1: 0, n2: 0, verdict: 'pass' });
    expect(long.trend.phases[0]?.flagged).toEqual([binIndex(t0, long.trend.startMs)]);
    // Across a bin boundary: two bins flagged.
    const across = computePowerQuality(
      week('2026-11-23', { step: 5, phases: 1, mean: (t) => (t >= t0 + 8 * 60_000 && t < t0 + 12 * 60_000 ? 0 : 230) }),
    );
    expect(across.phases[0]).toMatchObject({ n: 1006, flagged: 2 });
  });

  it('sees a dip or swell where vmin / vmax cross while the mean stays inside; a mean outside is no event', () => {
    const input = week('2026-11-23', {
      step: 5,
      phases: 3,
      mean: (t, p) => (p === 3 && t >= t0 && t < t0 + 20_000 ? 200 : 230),
      min: (t, p) => (p === 1 && t >= t0 && t < t0 + 10_000 ? 180.26 : p === 3 && t >= t0 && t < t0 + 20_000 ? 150 : 228),
      max: (t, p) => (p === 2 && t === t0 + 30_000 ? 262.04 : 232),
    });
    const r = computePowerQuality(input);
    expect(r.events.map(({ kind, phase, durationSeconds, extreme }) => ({ kind, phase, durationSeconds, extreme }))).toEqual([
      { kind: 'dip', phase: 1, durationSeconds: 10, extreme: 180.3 },
      { kind: 'swell', phase: 2, durationSeconds: 5, extreme: 262 },
    ]);
    expect(r.phases.map((p) => p.flagged)).toEqual([1, 1, 0]);
    expect(r.phases[2]?.n).toBe(1008);
  });

  it('breaks a run at a missing reading', () => {
    const ts = [0, 5000, 20_000, 25_000];
    const mean = [0, 0, 0, 0];
    const ev = phaseEvents(ts, { phase: 1, mean }, 5, 0, 60_000);
    expect(ev.map((e) => [e.startMs, e.durationSeconds])).toEqual([
      [0, 10],
      [20_000, 10],
    ]);
  });
});
