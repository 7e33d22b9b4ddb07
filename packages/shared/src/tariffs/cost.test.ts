import { describe, expect, it } from 'vitest';
import { zonedTimeToUtc } from '../energy/zoned-time.js';
import { adviseTariffs, type CostTariff, NO_HOLIDAYS, quarterCalendar, startOfDate, tariffCost, zoneAt, zonesOf } from './cost.js';
import { holidayCheck } from './holidays.js';
import { tariffPreset } from './presets.js';
import type { TariffClock, TariffPrice, ZoneSchedule } from './tariff.schema.js';

const WAW = 'Europe/Warsaw';
const PL = holidayCheck('PL');
const Q = 15 * 60_000;

function schedule(id: string): ZoneSchedule {
  const p = tariffPreset(id);
  if (!p) throw new Error(`no preset ${id}`);
  return p.schedule;
}
/** The zone of a Warsaw wall-clock time under a preset (its own clock unless given). */
function zone(id: string, y: number, mo: number, d: number, h: number, mi = 0, clock?: TariffClock, tz = WAW) {
  const p = tariffPreset(id);
  if (!p) throw new Error(`no preset ${id}`);
  return zoneAt(p.schedule, clock ?? p.clock, zonedTimeToUtc(tz, y, mo, d, h, mi), tz, PL);
}

/** Quarter-hours of energy from `from` to `to` (local dates), `kWhAt(ts)` each. */
function quarters(from: string, to: string, tz: string, kWhAt: (ts: number) => number) {
  const ts: number[] = [];
  const kWh: number[] = [];
  for (let t = startOfDate(from, tz); t < startOfDate(to, tz); t += Q) {
    ts.push(t);
    kWh.push(kWhAt(t));
  }
  return { ts, kWh };
}

describe('zone assignment', () => {
  it('puts a quarter-hour on the zone of its start: edges of G12 (13–15 and 22–06 cheap)', () => {
    const at = (h: number, m: number) => zone('tauron-g12', 2026, 1, 14, h, m);
    expect([at(5, 45), at(6, 0), at(12, 45), at(13, 0), at(14, 45), at(15, 0), at(21, 45), at(22, 0), at(0, 0)]).toEqual([
      2, 1, 1, 2, 2, 1, 1, 2, 2,
    ]);
  });

  it('follows the weekend: G12w cheap all Saturday and Sunday, plain G12 not', () => {
    // 2026-01-16 is a Friday, 17 Saturday, 18 Sunday, 19 Monday.
    expect([16, 17, 18, 19].map((d) => zone('tauron-g12w', 2026, 1, d, 10))).toEqual([1, 2, 2, 1]);
    expect([16, 17, 18, 19].map((d) => zone('tauron-g12', 2026, 1, d, 10))).toEqual([1, 1, 1, 1]);
    // PGE G12n: all of Sunday is night, Saturday and Monday only 01–05; 00–01 belongs to the day it falls on.
    expect([
      zone('pge-g12n', 2026, 1, 17, 12, 0, 'local'),
      zone('pge-g12n', 2026, 1, 18, 12, 0, 'local'),
      zone('pge-g12n', 2026, 1, 19, 0, 30, 'local'),
    ]).toEqual([1, 2, 1]);
    expect([
      zone('pge-g12n', 2026, 1, 18, 0, 30, 'local'),
      zone('pge-g12n', 2026, 1, 19, 1, 0, 'local'),
      zone('pge-g12n', 2026, 1, 19, 5, 0, 'local'),
    ]).toEqual([2, 2, 1]);
  });

  it('treats movable feasts and 24 December (from 2025) as statutory holidays', () => {
    // Corpus Christi 2026 is Thursday 4 June; Easter Monday 6 April; Pentecost (a Sunday) 24 May.
    expect([zone('tauron-g12w', 2026, 6, 3, 10), zone('tauron-g12w', 2026, 6, 4, 10), zone('tauron-g12w', 2026, 6, 5, 10)]).toEqual([
      1, 2, 1,
    ]);
    expect(zone('energa-g12w', 2026, 4, 6, 10, 0, 'local')).toBe(2);
    expect(zone('energa-g12w', 2025, 6, 19, 10, 0, 'local')).toBe(2);
    // 24 December: a holiday by law from 2025 (a Wednesday then), a working day in 2024 (a Tuesday).
    expect(zone('tauron-g12w', 2025, 12, 24, 10)).toBe(2);
    expect(zone('tauron-g12w', 2026, 12, 24, 10)).toBe(2);
    expect(zone('tauron-g12w', 2024, 12, 24, 10)).toBe(1);
    // G12n: holidays are night all day, like Sundays.
    expect(zone('pge-g12n', 2026, 6, 4, 12, 0, 'local')).toBe(2);
    // Without a holiday calendar the same Thursday is a working day.
    expect(zoneAt(schedule('tauron-g12w'), 'local', zonedTimeToUtc(WAW, 2026, 6, 4, 10), WAW, NO_HOLIDAYS)).toBe(1);
  });

  it('switches seasons by calendar date: PGE G12 cheap 13–15 in winter, 15–17 in summer (1 April–30 September)', () => {
    const at = (m: number, d: number, h: number) => zone('pge-g12', 2026, m, d, h, 30, 'local');
    expect([at(3, 31, 13), at(3, 31, 15), at(4, 1, 13), at(4, 1, 15)]).toEqual([2, 1, 1, 2]);
    expect([at(9, 30, 13), at(9, 30, 15), at(10, 1, 13), at(10, 1, 15)]).toEqual([1, 2, 2, 1]);
    // TAURON G13: the afternoon peak is 19–22 in summer, 16–21 in winter.
    expect([
      zone('tauron-g13', 2026, 7, 1, 17),
      zone('tauron-g13', 2026, 7, 1, 19),
      zone('tauron-g13', 2026, 1, 14, 17),
      zone('tauron-g13', 2026, 1, 14, 21),
    ]).toEqual([2, 3, 3, 2]);
  });

  it('reads a CET meter clock an hour behind the wall clock in summer, and on its own date', () => {
    // Winter: the same hours. Summer (CEST): night 22–06 CET is 23–07 by the wall clock.
    expect([zone('energa-g12', 2026, 1, 14, 22), zone('energa-g12', 2026, 1, 14, 6)]).toEqual([2, 1]);
    expect([
      zone('energa-g12', 2026, 7, 14, 22),
      zone('energa-g12', 2026, 7, 14, 23),
      zone('energa-g12', 2026, 7, 15, 6, 45),
      zone('energa-g12', 2026, 7, 15, 7),
    ]).toEqual([1, 2, 2, 1]);
    expect([zone('energa-g12', 2026, 7, 14, 22, 0, 'local'), zone('energa-g12', 2026, 7, 15, 6, 45, 'local')]).toEqual([2, 1]);
    // Monday 8 June 2026 06:30 CEST is Monday 05:30 CET: still night. Friday 22:30 CEST is 21:30 CET: day.
    expect([zone('pge-g12w', 2026, 6, 8, 6, 30), zone('pge-g12w', 2026, 6, 8, 6, 30, 'local')]).toEqual([2, 1]);
    expect([zone('pge-g12w', 2026, 6, 12, 22, 30), zone('pge-g12w', 2026, 6, 12, 22, 30, 'local')]).toEqual([1, 2]);
    // The meter's date decides the day type: Monday 00:30 CEST is still Sunday 23:30 on the meter.
    expect([zone('pge-g12n', 2026, 6, 8, 0, 30), zone('pge-g12n', 2026, 6, 8, 0, 30, 'local')]).toEqual([2, 1]);
    // And the season: 1 April 00:30 CEST is 31 March 23:30 CET (winter: 15:00 is... the night is the same),
    // 1 April 15:30 CEST is 14:30 CET (summer: day), 16:30 CEST is 15:30 CET (summer: night).
    expect([zone('pge-g12', 2026, 4, 1, 15, 30), zone('pge-g12', 2026, 4, 1, 16, 30)]).toEqual([1, 2]);
  });

  it('assigns the hours of both DST days: the missing 02:00 and the repeated one', () => {
    // 29 March 2026: 02:00 CET becomes 03:00 CEST. 25 October 2026: 03:00 CEST becomes 02:00 CET.
    const spring = quarters('2026-03-29', '2026-03-30', WAW, () => 1);
    const autumn = quarters('2026-10-25', '2026-10-26', WAW, () => 1);
    expect([spring.ts.length, autumn.ts.length]).toEqual([92, 100]);
    const local = {
      schedule: schedule('tauron-g12'),
      clock: 'local' as const,
      prices: [{ validFrom: '2026-01-01', area1: 1, area2: 0, area3: null, fixedMonthly: 0 }],
    };
    // Local clock: night 0–6 is 5 hours on the short day (0, 1, 3, 4, 5) and 7 on the long one (0, 1, 2, 2, 3, 4, 5).
    const s = tariffCost(quarterCalendar(spring, WAW, '2026-03-29', '2026-03-30'), local, PL);
    const a = tariffCost(quarterCalendar(autumn, WAW, '2026-10-25', '2026-10-26'), local, PL);
    expect(s.days[0]?.hours).toBe(23);
    expect(a.days[0]?.hours).toBe(25);
    expect(s.zones).toEqual([
      { area: 1, kWh: 14 * 4, cost: 56 },
      { area: 2, kWh: 9 * 4, cost: 0 },
    ]);
    expect(a.zones).toEqual([
      { area: 1, kWh: 14 * 4, cost: 56 },
      { area: 2, kWh: 11 * 4, cost: 0 },
    ]);
    // The bulk computation agrees with zoneAt quarter by quarter, for each clock, over a whole year.
    const year = quarters('2026-01-01', '2027-01-01', WAW, () => 1);
    const cal = quarterCalendar(year, WAW, '2026-01-01', '2027-01-01');
    for (const clock of ['local', 'cet'] as const) {
      const sched = schedule('pge-g12w');
      const bulk = zonesOf(cal, { schedule: sched, clock }, PL);
      const differ = year.ts.filter((t, j) => bulk[j] !== zoneAt(sched, clock, t, WAW, PL)).length;
      expect(differ, clock).toBe(0);
      expect(bulk.length).toBe(365 * 96);
    }
  });

  it('reads the Turkish three-time tariff on Istanbul’s clock (puant 17–22 in area 3)', () => {
    const at = (h: number, m = 0) => zone('epdk-t3', 2026, 7, 1, h, m, undefined, 'Europe/Istanbul');
    expect([at(5, 45), at(6), at(16, 45), at(17), at(21, 45), at(22)]).toEqual([2, 1, 1, 3, 3, 2]);
  });
});

describe('cost', () => {
  const p = (validFrom: string, area1: number, area2: number, fixedMonthly: number): TariffPrice => ({
    validFrom,
    area1,
    area2,
    area3: null,
    fixedMonthly,
  });
  const g12: CostTariff = { schedule: schedule('tauron-g12'), clock: 'local', prices: [p('2026-01-01', 1, 0.5, 31)] };
  /** 1 kWh an hour, every hour. */
  const flat = (from: string, to: string) =>
    quarterCalendar(
      quarters(from, to, WAW, () => 0.25),
      WAW,
      from,
      to,
    );

  it('prices each day at the list valid on it: a mid-period change, against hand-computed figures', () => {
    const tariff = { ...g12, prices: [p('2026-01-01', 1, 0.5, 31), p('2026-02-01', 2, 1, 28)] };
    const c = tariffCost(flat('2026-01-30', '2026-02-03'), tariff, PL);
    // A day: 14 kWh in area 1, 10 kWh in area 2. January: 14 × 1 + 10 × 0.5 + 31/31 = 20. February: 14 × 2 + 10 × 1 + 28/28 = 39.
    expect(c.days.map((d) => [d.date, d.cost, d.fixedCost])).toEqual([
      ['2026-01-30', 20, 1],
      ['2026-01-31', 20, 1],
      ['2026-02-01', 39, 1],
      ['2026-02-02', 39, 1],
    ]);
    expect(c.zones).toEqual([
      { area: 1, kWh: 56, cost: 84 },
      { area: 2, kWh: 40, cost: 30 },
    ]);
    expect([c.kWh, c.energyCost, c.fixedCost, c.totalCost, c.unpricedKWh]).toEqual([96, 114, 4, 118, 0]);
  });

  it('never changes an earlier period when a later price is added or changed', () => {
    const january = flat('2026-01-01', '2026-02-01');
    const before = tariffCost(january, g12, PL);
    const added = tariffCost(january, { ...g12, prices: [...g12.prices, p('2026-02-01', 9, 9, 99)] }, PL);
    const changed = tariffCost(january, { ...g12, prices: [...g12.prices, p('2026-02-01', 3, 2, 10)] }, PL);
    const midMonthLater = tariffCost(january, { ...g12, prices: [...g12.prices, p('2026-01-31', 3, 2, 10)] }, PL);
    expect(added).toEqual(before);
    expect(changed).toEqual(before);
    expect(before.totalCost).toBe(31 * 20);
    // A price from 31 January changes 31 January only.
    expect(midMonthLater.days.slice(0, 30)).toEqual(before.days.slice(0, 30));
    expect(midMonthLater.days[30]?.cost).toBe(14 * 3 + 10 * 2 + Math.round((10 / 31) * 100) / 100);
  });

  it('prorates the monthly fee by days of each month, and leaves days before the first price uncosted', () => {
    const fee = (from: string, to: string, prices: TariffPrice[]) => tariffCost(flat(from, to), { ...g12, prices }, PL);
    expect(fee('2026-02-10', '2026-02-17', [p('2026-01-01', 0, 0, 28)]).fixedCost).toBe(7);
    // 12 days of January at 31/31 and 9 of February at 28/28.
    expect(fee('2026-01-20', '2026-02-10', [p('2026-01-01', 0, 0, 31), p('2026-02-01', 0, 0, 28)]).fixedCost).toBe(21);
    // A fee of 30 over a 23-hour day is still one day of March: 30/31.
    expect(fee('2026-03-29', '2026-03-30', [p('2026-01-01', 0, 0, 30)]).fixedCost).toBe(0.97);
    const early = fee('2026-01-30', '2026-02-02', [p('2026-02-01', 1, 1, 28)]);
    expect([early.unpricedKWh, early.energyCost, early.fixedCost, early.kWh]).toEqual([48, 24, 1, 72]);
  });
});

describe('advisor', () => {
  const day = '2026-01-15';
  const next = '2026-01-16';
  const candidates = (cal: ReturnType<typeof quarterCalendar>) =>
    adviseTariffs(
      cal,
      ['tauron-g11', 'tauron-g12'].map((id) => {
        const preset = tariffPreset(id);
        if (!preset) throw new Error(id);
        return {
          key: id,
          schedule: preset.schedule,
          clock: preset.clock,
          prices: [{ validFrom: '2026-01-01', ...preset.referencePrices }],
          isHoliday: PL,
        };
      }),
      1,
    );

  it('ranks presets cheapest first and says how much energy would have to move into the cheap zone', () => {
    // 24 kWh between 10:00 and 11:00: G11 24 × 1.10 + 35/31 = 27.53; G12 24 × 1.25 + 38/31 = 31.23.
    const daytime = quarterCalendar(
      quarters(day, next, WAW, (t) => (t >= zonedTimeToUtc(WAW, 2026, 1, 15, 10) && t < zonedTimeToUtc(WAW, 2026, 1, 15, 11) ? 6 : 0)),
      WAW,
      day,
      next,
    );
    const [first, second] = candidates(daytime);
    expect([first?.key, first?.cost.totalCost, second?.key, second?.cost.totalCost]).toEqual(['tauron-g11', 27.53, 'tauron-g12', 31.23]);
    // G12 wins when (31.23 − 27.53) / (1.25 − 0.72) = 6.981 kWh of the 24 move to the night: 2,548.1 kWh a year, 29.1 %.
    expect([second?.shiftKWhPerYear, second?.shiftShare, first?.shiftKWhPerYear]).toEqual([2548.1, 29.1, 0]);
    expect(second?.annualCost).toBe(Math.round(31.23 * 365 * 100) / 100);
    // Spread evenly over the day, G12 is the cheaper one and a single-zone G11 cannot catch up by moving energy.
    const even = quarterCalendar(
      quarters(day, next, WAW, () => 0.25),
      WAW,
      day,
      next,
    );
    const [a, b] = candidates(even);
    expect([a?.key, b?.key, b?.shiftKWhPerYear]).toEqual(['tauron-g12', 'tauron-g11', null]);
  });
});
