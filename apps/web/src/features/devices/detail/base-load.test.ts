import { describe, expect, it } from 'vitest';
import { baseLoad } from '@/features/charts';
import { BASE_LOAD_WINDOW_MS, baseLoadCoverage, baseLoadRequest, baseLoadSample, partialCoverage } from './base-load';

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

  it('reads a meter that sends energy out at night only (00:00–04:00 local), any other device all week', () => {
    // A week in Warsaw from local midnight (23:00 UTC in winter): 15-minute buckets. The house draws
    // 180 W at night and 300–700 W by day; the solar behind the meter out-produces it from 10:00 to 14:00.
    const start = Date.UTC(2026, 10, 15, 23);
    const ts = Array.from({ length: 672 }, (_, i) => start + i * Q);
    const hourOf = (i: number) => Math.floor((i % 96) / 4);
    const house = ts.map((_, i) => (hourOf(i) < 6 ? 180 : 300 + (i % 5) * 100));
    const net = house.map((w, i) => (hourOf(i) >= 10 && hourOf(i) < 14 ? w - 2_000 : w));

    const all = baseLoadSample(ts, house, 'Europe/Warsaw');
    expect(all.nightOnly).toBe(false);
    expect(all.power).toEqual(house);
    expect(baseLoad(all.power)?.watts).toBe(180);

    // Read as before, the exporting meter's quietest 5 % is an export: 0 W.
    expect(baseLoad(net)?.watts).toBe(0);
    const night = baseLoadSample(ts, net, 'Europe/Warsaw');
    expect(night.nightOnly).toBe(true);
    // 4 of 24 hours a day are kept: 16 buckets a day, 112 in the week.
    expect(night.power.filter((v) => v !== null)).toHaveLength(112);
    expect(baseLoad(night.power)?.watts).toBe(180);
    // The hours are the zone's: Warsaw's night is the day's first 16 buckets; in Istanbul (UTC+3, the
    // week starting at its 02:00) the first 8 and the last 8.
    const kept = (p: (number | null)[]) => p.slice(0, 96).flatMap((v, i) => (v === null ? [] : [i]));
    expect(kept(night.power)).toEqual(Array.from({ length: 16 }, (_, i) => i));
    const istanbul = baseLoadSample(ts, net, 'Europe/Istanbul');
    expect(kept(istanbul.power)).toEqual([...Array.from({ length: 8 }, (_, i) => i), ...Array.from({ length: 8 }, (_, i) => 88 + i)]);
  });
});
