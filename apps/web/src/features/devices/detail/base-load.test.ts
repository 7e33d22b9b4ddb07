import { describe, expect, it } from 'vitest';
import { BASE_LOAD_WINDOW_MS, baseLoadCoverage, baseLoadRequest, partialCoverage } from './base-load';

const Q = 15 * 60_000;
const HOUR = 3_600_000;

describe('the "always on" figure\'s week', () => {
  it('asks whole quarter-hours of the last 7 days, the phases for three-phase meters, pave1 for one phase', () => {
    const now = Date.UTC(2026, 10, 26, 10, 7, 30);
    const r = baseLoadRequest(4, 'energy', now);
    expect(r).toEqual({
      deviceId: 4,
      from: Date.UTC(2026, 10, 19, 10),
      to: Date.UTC(2026, 10, 26, 10),
      interval: '15m',
      params: ['power3phases', 'pave1', 'pave2', 'pave3'],
    });
    expect(baseLoadRequest(4, 'thermostat', now).params).toEqual(['pave1']);
    // The same key for the whole quarter-hour (the page and its prefetch ask the same).
    expect(baseLoadRequest(4, 'energy', now + 7 * 60_000)).toEqual(r);
  });

  it('says how much a figure short of a week rests on: days from two days on, else hours or minutes', () => {
    const buckets = (n: number, gapsEvery = 0) =>
      Array.from({ length: 672 }, (_, i) => (i < 672 - n || (gapsEvery && i % gapsEvery === 0) ? null : 100));
    expect(baseLoadCoverage(buckets(672))).toBe(BASE_LOAD_WINDOW_MS);
    expect(partialCoverage(baseLoadCoverage(buckets(672)))).toBeNull();
    // An hour of gaps in the week is still a week.
    expect(partialCoverage(BASE_LOAD_WINDOW_MS - HOUR)).toBeNull();
    expect(partialCoverage(BASE_LOAD_WINDOW_MS - HOUR - Q)).toEqual({ value: 6, unit: 'day' });
    expect(partialCoverage(baseLoadCoverage(buckets(3 * 96 + 10)))).toEqual({ value: 3, unit: 'day' });
    expect(partialCoverage(48 * HOUR)).toEqual({ value: 2, unit: 'day' });
    expect(partialCoverage(47 * HOUR + 3 * Q)).toEqual({ value: 47, unit: 'hour' });
    expect(partialCoverage(baseLoadCoverage(buckets(2)))).toEqual({ value: 30, unit: 'minute' });
    // Buckets without a reading do not count.
    expect(baseLoadCoverage([null, 5, Number.NaN, 0, null])).toBe(2 * Q);
  });
});
