import { describe, expect, it } from 'vitest';
import { bucketEnergy, counterDelta, mergeCounterSummaries, spansEnergy, summarizeCounter } from './counter.js';
import {
  addLocalDays,
  billingPeriod,
  localDate,
  localDayStarts,
  startOfLocalDay,
  startOfLocalMonth,
  zonedTimeToUtc,
} from './zoned-time.js';

const TZ = 'Europe/Warsaw';
const H = 3_600_000;

describe('local days', () => {
  it('2026-03-29 in Warsaw is 23 hours, 2026-10-25 is 25 hours', () => {
    const spring = zonedTimeToUtc(TZ, 2026, 3, 29);
    expect(new Date(spring).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(addLocalDays(spring, 1, TZ) - spring).toBe(23 * H);
    const autumn = zonedTimeToUtc(TZ, 2026, 10, 25);
    expect(new Date(autumn).toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(addLocalDays(autumn, 1, TZ) - autumn).toBe(25 * H);
    expect(addLocalDays(autumn, 2, TZ) - addLocalDays(autumn, 1, TZ)).toBe(24 * H);
  });

  it('finds the day, month and the days of a range around DST', () => {
    const t = Date.parse('2026-03-29T12:00:00Z');
    expect(startOfLocalDay(t, TZ)).toBe(Date.parse('2026-03-28T23:00:00Z'));
    expect(startOfLocalMonth(t, TZ)).toBe(Date.parse('2026-02-28T23:00:00Z'));
    const days = localDayStarts(Date.parse('2026-03-28T10:00:00Z'), Date.parse('2026-03-30T10:00:00Z'), TZ);
    expect(days.map((d) => localDate(d, TZ))).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    // The local hour 02:00–03:00 on the spring day does not exist: it resolves after the gap.
    expect(zonedTimeToUtc(TZ, 2026, 3, 29, 2, 30)).toBe(Date.parse('2026-03-29T01:30:00Z'));
    // 02:30 twice in autumn: the first occurrence (still summer time).
    expect(zonedTimeToUtc(TZ, 2026, 10, 25, 2, 30)).toBe(Date.parse('2026-10-25T00:30:00Z'));
  });

  it('billing periods step by months from the start date, clamping the day', () => {
    const p = billingPeriod(Date.parse('2026-05-10T12:00:00Z'), TZ, '2025-01-15', 2);
    expect(localDate(p.start, TZ)).toBe('2026-05-15'.replace('05-15', '03-15'));
    expect(localDate(p.end, TZ)).toBe('2026-05-15');
    const q = billingPeriod(Date.parse('2026-02-28T12:00:00Z'), TZ, '2026-01-31', 1);
    expect(localDate(q.start, TZ)).toBe('2026-02-28');
    expect(localDate(q.end, TZ)).toBe('2026-03-31');
    const before = billingPeriod(Date.parse('2024-01-01T00:00:00Z'), TZ, '2025-01-15', 1);
    expect(localDate(before.start, TZ)).toBe('2025-01-15');
  });
});

describe('counter energy', () => {
  it('a counter that goes down is a reset: the next reading counts from zero', () => {
    expect(counterDelta(100, 104.5)).toBeCloseTo(4.5);
    expect(counterDelta(100, 3)).toBe(3);
    expect(counterDelta(null, 50)).toBe(0);
  });

  it('sum of hourly buckets equals the counter difference plus what was counted across a mid-day reset', () => {
    // Every 15 minutes for a day, 0.25 kWh each; the meter is swapped at 13:00 and restarts at 0.
    const start = zonedTimeToUtc(TZ, 2026, 6, 10);
    const samples = [];
    let value = 1000;
    for (let i = 0; i <= 96; i++) {
      const ts = start + i * 15 * 60_000;
      if (i > 0) value += 0.25;
      if (i === 52) value = 0.25; // reset: 0.25 counted since the swap
      samples.push({ ts, value });
    }
    const edges = Array.from({ length: 25 }, (_, h) => start + h * H);
    const buckets = bucketEnergy(samples, edges);
    expect(buckets.every((e) => e >= 0)).toBe(true);
    const sum = buckets.reduce((a, b) => a + b, 0);
    // Before the reset: 1000 → 1012.75 (51 steps); after: 0.25 → 11.25 at the last reading before the end edge.
    const beforeReset = 1012.75 - 1000;
    const afterReset = (samples[95]?.value ?? 0) - 0 /* counts from zero */;
    expect(sum).toBeCloseTo(beforeReset + afterReset, 9);
    expect(sum).toBeCloseTo(95 * 0.25, 9);
  });

  it('a gap of several hours puts its energy into the bucket of the first reading after it', () => {
    const start = Date.parse('2026-06-10T00:00:00Z');
    const samples = [
      { ts: start, value: 10 },
      { ts: start + 1 * H, value: 11 },
      { ts: start + 6 * H, value: 20 },
      { ts: start + 7 * H, value: 21 },
    ];
    const edges = Array.from({ length: 9 }, (_, h) => start + h * H);
    expect(bucketEnergy(samples, edges)).toEqual([0, 1, 0, 0, 0, 0, 9, 1]);
  });

  it('summaries merge like the raw series across buckets, resets and DST days', () => {
    const tzStart = zonedTimeToUtc(TZ, 2026, 10, 24);
    const days = localDayStarts(tzStart, zonedTimeToUtc(TZ, 2026, 10, 27), TZ);
    expect(days.length).toBe(3);
    const end = zonedTimeToUtc(TZ, 2026, 10, 27);
    const edges = [...days, end];
    const at = (i: number) => edges[i] ?? Number.NaN;
    const samples = [];
    let v = 5;
    for (let ts = tzStart - H; ts < end; ts += 20 * 60_000) {
      v += 0.1;
      if (ts === zonedTimeToUtc(TZ, 2026, 10, 25, 12)) v = 0.05;
      samples.push({ ts, value: v });
    }
    const expected = bucketEnergy(samples, edges);
    // Same answer from 5-minute-style summaries merged into days.
    const before = samples.filter((s) => s.ts < at(0));
    const spans = days.map((d, i) => {
      const inDay = samples.filter((s) => s.ts >= d && s.ts < at(i + 1));
      const halves = [inDay.slice(0, 10), inDay.slice(10)].map((part) => summarizeCounter(part.map((s) => s.value)));
      return mergeCounterSummaries(halves[0] ?? null, halves[1] ?? null);
    });
    const got = spansEnergy(before[before.length - 1]?.value, spans);
    for (const [i, e] of got.entries()) expect(e).toBeCloseTo(expected[i] ?? Number.NaN, 9);
    // 25-hour day holds 75 readings of 0.1 less the reset step.
    expect(samples.filter((s) => s.ts >= at(1) && s.ts < at(2)).length).toBe(75);
  });
});
