import { describe, expect, it } from 'vitest';
import {
  addLocalDays,
  billingPeriod,
  localDate,
  localDayStarts,
  startOfLocalDay,
  startOfLocalMonth,
  zonedTimeInstants,
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
    // Every instant a wall time names, earliest first: both passes of the repeated hour, none in the gap.
    expect(zonedTimeInstants(TZ, 2026, 10, 25, 2, 30)).toEqual([Date.parse('2026-10-25T00:30:00Z'), Date.parse('2026-10-25T01:30:00Z')]);
    expect(zonedTimeInstants(TZ, 2026, 3, 29, 2, 30)).toEqual([]);
    expect(zonedTimeInstants(TZ, 2026, 10, 25, 3, 30)).toEqual([Date.parse('2026-10-25T02:30:00Z')]);
    // South of the equator the repeated hour is in April (Sydney, 03:00 back to 02:00).
    expect(zonedTimeInstants('Australia/Sydney', 2026, 4, 5, 2, 30)).toEqual([
      Date.parse('2026-04-04T15:30:00Z'),
      Date.parse('2026-04-04T16:30:00Z'),
    ]);
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
