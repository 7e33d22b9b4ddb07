import { zonedTimeToUtc } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import { periodPresets } from './analytics-dates';

const TZ = 'Europe/Warsaw';

describe('sum comparison presets', () => {
  it('this month vs last month compares the same days: 1st to today against the 1st to the same day', () => {
    expect(periodPresets(zonedTimeToUtc(TZ, 2026, 11, 27, 12), TZ).monthVsLastMonth).toEqual([
      { from: '2026-11-01', to: '2026-11-27' },
      { from: '2026-10-01', to: '2026-10-27' },
    ]);
    // January against December of the year before; the 31st against a 30-day month's last day.
    expect(periodPresets(zonedTimeToUtc(TZ, 2027, 1, 5, 12), TZ).monthVsLastMonth[1]).toEqual({ from: '2026-12-01', to: '2026-12-05' });
    expect(periodPresets(zonedTimeToUtc(TZ, 2026, 12, 31, 12), TZ).monthVsLastMonth[1]).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(periodPresets(zonedTimeToUtc(TZ, 2026, 3, 30, 12), TZ).monthVsLastMonth[1]).toEqual({ from: '2026-02-01', to: '2026-02-28' });
  });
});
