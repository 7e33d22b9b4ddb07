import { zonedTimeToUtc } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import { dateTimeRange, periodPresets } from './analytics-dates';

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

describe('consumption table date-time range', () => {
  it('takes a date and an optional time at each end, in the local zone', () => {
    expect(dateTimeRange('2026-11-26', '', '2026-11-27', '', TZ)).toEqual({
      from: zonedTimeToUtc(TZ, 2026, 11, 26),
      to: zonedTimeToUtc(TZ, 2026, 11, 28),
    });
    expect(dateTimeRange('2026-11-26', '06:30', '2026-11-27', '18:00', TZ)).toEqual({
      from: zonedTimeToUtc(TZ, 2026, 11, 26, 6, 30),
      to: zonedTimeToUtc(TZ, 2026, 11, 27, 18),
    });
    // Within one day; across the autumn DST change the local hours still count.
    expect(dateTimeRange('2026-10-25', '01:00', '2026-10-25', '04:00', TZ)).toEqual({
      from: zonedTimeToUtc(TZ, 2026, 10, 25, 1),
      to: zonedTimeToUtc(TZ, 2026, 10, 25, 4),
    });
    expect(dateTimeRange('2026-11-27', '18:00', '2026-11-27', '06:00', TZ)).toBeNull();
    expect(dateTimeRange('2026-11-27', '25:00', '2026-11-27', '', TZ)).toBeNull();
  });
});
