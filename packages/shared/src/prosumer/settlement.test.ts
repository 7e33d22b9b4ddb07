import { describe, expect, it } from 'vitest';
import { zonedTimeToUtc } from '../energy/zoned-time.js';
import { netHourly, type QuarterFlows } from './netting.js';
import { energyPriceOfHour } from './pricing.js';
import { RCEM_TABLE, rcemFor } from './rcem.js';
import {
  addMonths,
  bankLedger,
  bankRatio,
  depositLedger,
  hourlyRce,
  type MonthFlows,
  type MonthPricing,
  monthlyFlows,
  toGrosz,
} from './settlement.js';

const TZ = 'Europe/Warsaw';
const Q = 15 * 60_000;
const HOUR = 3_600_000;

/**
 * The note's worked example (prosumer-settlement.md §5): 15 June 2025, G11, six non-zero hours. The energy is
 * spread over phases and quarters so that only netting per hour across phases gives the note's figures:
 * the export sits on phases 2 and 3, the import on phase 1.
 */
const EXAMPLE: [hour: number, imp: number, exp: number, rce: number[]][] = [
  [0, 1.2, 0, [420, 420, 420, 420]],
  [7, 0.8, 0.3, [480, 480, 480, 480]],
  [11, 0.4, 6.1, [95, 95, 95, 95]],
  [12, 0.2, 7.6, [40, -20, -60, -40]],
  [13, 0.5, 4.0, [60, 60, 60, 60]],
  [19, 2.5, 0, [650, 650, 650, 650]],
];
const DAY = zonedTimeToUtc(TZ, 2025, 6, 15);

function exampleFlows(): QuarterFlows {
  const n = 96;
  const ts = Array.from({ length: n }, (_, k) => DAY + k * Q);
  const i1 = new Float64Array(n);
  const e2 = new Float64Array(n);
  const e3 = new Float64Array(n).fill(Number.NaN);
  const zero = new Float64Array(n);
  for (const [h, imp, exp] of EXAMPLE) {
    for (let q = 0; q < 4; q++) {
      i1[h * 4 + q] = imp / 4;
      e2[h * 4 + q] = (exp * 0.6) / 4;
      e3[h * 4 + q] = (exp * 0.4) / 4;
    }
  }
  return { ts, import: [i1, zero, zero], export: [zero, e2, e3] };
}

const rceOfHour = new Map(EXAMPLE.map(([h, , , q]) => [DAY + h * HOUR, q]));
const pricing = (over: Partial<MonthPricing> = {}): MonthPricing => ({
  energyPrice: () => ({ price: 0.5 * 1.23, estimated: false }),
  exportPrice: (_h, month) => rcemFor(month, 'latest')?.price ?? null,
  coefficient: () => 1.23,
  monthly: true,
  ...over,
});
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

describe('hourly netting', () => {
  it('nets per clock hour across phases: the worked example (raw 5.6 / 18.0, netted 4.2 / 16.6)', () => {
    const hours = netHourly(exampleFlows(), TZ);
    expect(hours).toHaveLength(24);
    expect(r6(sum(hours.map((h) => h.importKWh)))).toBe(5.6);
    expect(r6(sum(hours.map((h) => h.exportKWh)))).toBe(18);
    expect(r6(sum(hours.map((h) => h.nettedImportKWh)))).toBe(4.2);
    expect(r6(sum(hours.map((h) => h.nettedExportKWh)))).toBe(16.6);
    const h12 = hours.find((h) => h.start === DAY + 12 * HOUR);
    expect(r6(h12?.nettedExportKWh ?? -1)).toBe(7.4);
    expect(h12?.nettedImportKWh).toBe(0);
  });

  it('does not net across hours: import at 10:45 and export at 11:00 both count', () => {
    const ts = [DAY + 10 * HOUR + 45 * 60_000, DAY + 11 * HOUR];
    const hours = netHourly({ ts, import: [[1, 0]], export: [[0, 1]] }, TZ);
    expect(hours.map((h) => [h.nettedImportKWh, h.nettedExportKWh])).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it('keeps the two 02:00 hours of the autumn DST day apart (25 hours) and the spring day has 23', () => {
    const autumn = zonedTimeToUtc(TZ, 2025, 10, 26);
    const n = 100;
    const ts = Array.from({ length: n }, (_, k) => autumn + k * Q);
    const imp = new Float64Array(n);
    const exp = new Float64Array(n);
    // First 02:00–03:00 (CEST, UTC 00:00–01:00): import 1 kWh; the repeated one (CET, UTC 01:00–02:00): export 1 kWh.
    for (let q = 0; q < 4; q++) {
      imp[8 + q] = 0.25;
      exp[12 + q] = 0.25;
    }
    const hours = netHourly({ ts, import: [imp], export: [exp] }, TZ);
    expect(hours).toHaveLength(25);
    expect(hours[2]?.nettedImportKWh).toBe(1);
    expect(hours[3]?.nettedExportKWh).toBe(1);
    expect((hours[3]?.start ?? 0) - (hours[2]?.start ?? 0)).toBe(HOUR);

    const spring = zonedTimeToUtc(TZ, 2025, 3, 30);
    const m = 92;
    const springHours = netHourly(
      { ts: Array.from({ length: m }, (_, k) => spring + k * Q), import: [new Float64Array(m).fill(0.1)], export: [] },
      TZ,
    );
    expect(springHours).toHaveLength(23);
    expect(r6(springHours[2]?.importKWh ?? 0)).toBe(0.4);
  });

  it('puts hours in half-hour-offset zones on their local clock hour', () => {
    const t = Date.UTC(2025, 0, 1, 0, 0); // 05:30 in Kolkata: the clock hour 05:00–06:00 began at 23:30 UTC
    const hours = netHourly({ ts: [t, t + Q, t + 2 * Q], import: [[1, 1, 1]], export: [] }, 'Asia/Kolkata');
    expect(hours.map((h) => h.start)).toEqual([t - 30 * 60_000, t + 30 * 60_000]);
    expect(hours.map((h) => h.importKWh)).toEqual([2, 1]);
  });
});

describe('the worked example, to the grosz', () => {
  const hours = netHourly(exampleFlows(), TZ);

  it('(a) net-metering 0.8: 13.28 kWh enter the bank, 4.2 are taken, 9.08 are left', () => {
    expect(bankRatio(9.9)).toBe(0.8);
    expect(bankRatio(10)).toBe(0.8);
    expect(bankRatio(10.5)).toBe(0.7);
    const [m] = bankLedger(monthlyFlows(hours, TZ, '2025-06', '2025-06', pricing()), 0.8);
    expect(m?.bankCreditedKWh).toBe(13.28);
    expect(m?.bankUsedKWh).toBe(4.2);
    expect(m?.bankKWh).toBe(9.08);
    // The whole energy cost (4.2 × 0.615 = 2.583) is saved: nothing to pay for energy.
    expect(m?.energyCost).toBe(2.58);
    expect(m?.used).toBe(2.58);
    expect(m?.cashForEnergy).toBe(0);
  });

  it('(b) net-billing RCEm June 2025: 2.58 paid from a 3.00 deposit, 0.42 left, new tranche 2.78 (2.26 without 1.23)', () => {
    const flows = monthlyFlows(hours, TZ, '2025-05', '2025-07', pricing());
    const june = flows[1] as MonthFlows;
    expect(june.price).toBe(136.3);
    expect(r6(june.nettedExportKWh)).toBe(16.6);
    const ledger = depositLedger(flows, 0.2, [{ made: '2025-04', value: 3 }]);
    const [may, jun, jul] = ledger;
    expect(may?.balance).toBe(3);
    expect(jun).toMatchObject({ month: '2025-06', energyCost: 2.58, used: 2.58, cashForEnergy: 0, credited: 2.78, balance: 0.42 });
    // The June tranche is assigned in July.
    expect(jul?.balance).toBe(3.2);
    const without = monthlyFlows(hours, TZ, '2025-06', '2025-06', pricing({ coefficient: () => 1 }));
    expect(depositLedger(without, 0.2)[0]?.credited).toBe(2.26);
  });

  it('(b) the real-invoice checks: 456 kWh × 262.88 × 1.23 = 147.44, 435 kWh × 294.53 × 1.23 = 157.59', () => {
    const flow = (month: string, kWh: number): MonthFlows => {
      const price = rcemFor(month, 'latest')?.price ?? Number.NaN;
      return {
        month,
        nettedImportKWh: 0,
        nettedExportKWh: kWh,
        energyCost: 0,
        exportValue: (kWh * price * 1.23) / 1000,
        unpricedExportKWh: 0,
        price,
        energyEstimated: false,
      };
    };
    const ledger = depositLedger([flow('2026-07', 456), flow('2026-08', 435)], 0.2);
    expect(ledger.map((m) => m.credited)).toEqual([147.44, 157.59]);
  });

  it('(c) net-billing RCE: 1.02 zeroing each quarter first, 0.92 averaging first', () => {
    expect(hourlyRce([40, -20, -60, -40], 'quarter')).toBe(10);
    expect(hourlyRce([40, -20, -60, -40], 'hour')).toBe(0);
    expect(hourlyRce([], 'quarter')).toBeNull();
    for (const [clamp, value] of [
      ['quarter', 1.02],
      ['hour', 0.92],
    ] as const) {
      const p = pricing({ monthly: false, exportPrice: (h) => hourlyRce(rceOfHour.get(h) ?? [], clamp) });
      const [m] = depositLedger(monthlyFlows(hours, TZ, '2025-06', '2025-06', p), 0.2);
      expect(m?.credited).toBe(value);
      expect(m?.missingPrice).toBe(false);
    }
  });

  it('skipping hourly netting gives other (wrong) figures: the trap', () => {
    const raw = 18 * 0.1363 * 1.23;
    expect(toGrosz(raw) / 100).not.toBe(2.78);
  });
});

describe('deposit ledger', () => {
  const month = (m: string, energyCost: number, exportValue: number | null = 0): MonthFlows => ({
    month: m,
    nettedImportKWh: 0,
    nettedExportKWh: exportValue === null ? 1 : 0,
    energyCost,
    exportValue,
    unpricedExportKWh: exportValue === null ? 1 : 0,
    price: null,
    energyEstimated: false,
  });

  it('refunds up to the cap of the tranche and loses the rest: 10.00 with 4.00 unused → 2.00 / 2.00 (20 %), 3.00 / 1.00 (30 %)', () => {
    // Made in 2024-05, assigned 2024-06, usable to 2025-05, expires at the start of 2025-06.
    const opening = [{ made: '2024-05', value: 10, left: 4 }];
    for (const [cap, refunded, lost] of [
      [0.2, 2, 2],
      [0.3, 3, 1],
    ] as const) {
      const ledger = depositLedger([month('2025-05', 0), month('2025-06', 1)], cap, opening);
      expect(ledger[0]).toMatchObject({ balance: 4, expiringNext: 4, refunded: 0, lost: 0 });
      expect(ledger[1]).toMatchObject({ refunded, lost, used: 0, cashForEnergy: 1, balance: 0 });
    }
  });

  it('uses tranches oldest first and expires each 12 months after its assignment (FIFO)', () => {
    const months: MonthFlows[] = [month('2025-01', 0, 5), month('2025-02', 0, 7)];
    for (let m = '2025-03'; m <= '2026-03'; m = addMonths(m, 1)) months.push(month(m, m === '2025-03' ? 3 : 0));
    const ledger = depositLedger(months, 0.2);
    const by = new Map(ledger.map((r) => [r.month, r]));
    expect(by.get('2025-01')).toMatchObject({ credited: 5, balance: 0 });
    expect(by.get('2025-02')).toMatchObject({ credited: 7, balance: 5 });
    // March: 3.00 taken from January's tranche (the older), leaving 2 + 7.
    expect(by.get('2025-03')).toMatchObject({ used: 3, balance: 9 });
    // January's tranche is usable through January 2026, expires at the start of February 2026.
    expect(by.get('2026-01')).toMatchObject({ balance: 9, expiringNext: 2, refunded: 0 });
    expect(by.get('2026-02')).toMatchObject({ refunded: 1, lost: 1, balance: 7, expiringNext: 7 });
    expect(by.get('2026-03')).toMatchObject({ refunded: 1.4, lost: 5.6, balance: 0 });
  });

  it('credits nothing for a month without a price and says so', () => {
    const [m] = depositLedger([month('2025-05', 0, null)], 0.2);
    expect(m).toMatchObject({ credited: 0, missingPrice: true, unpricedExportKWh: 1 });
  });

  it('keeps every figure in whole grosz (no drift over many small amounts)', () => {
    const months: MonthFlows[] = [];
    for (let m = '2025-01'; m <= '2025-12'; m = addMonths(m, 1)) months.push(month(m, 0.105, 0.335));
    const ledger = depositLedger(months, 0.2);
    for (const r of ledger) for (const v of [r.balance, r.used, r.credited]) expect(Math.round(v * 100) / 100).toBe(v);
    // Eleven tranches of 0.34 assigned by December, 0.11 × 12 months used (the first month paid nothing).
    expect(ledger.at(-1)?.balance).toBe(Math.round(11 * 34 - 11 * 11) / 100);
  });
});

describe('net-metering bank', () => {
  it('loses what is left 12 billing months after it entered, oldest first', () => {
    const flows: MonthFlows[] = [];
    for (let m = '2025-01'; m <= '2026-02'; m = addMonths(m, 1))
      flows.push({
        month: m,
        nettedImportKWh: m === '2025-02' ? 3 : 0,
        nettedExportKWh: m === '2025-01' ? 10 : m === '2025-02' ? 5 : 0,
        energyCost: m === '2025-02' ? 3 : 0,
        exportValue: null,
        unpricedExportKWh: 0,
        price: null,
        energyEstimated: false,
      });
    const by = new Map(bankLedger(flows, 0.8).map((r) => [r.month, r]));
    expect(by.get('2025-01')?.bankKWh).toBe(8);
    // February: 4 enter, 3 taken from January's 8 (oldest first).
    expect(by.get('2025-02')).toMatchObject({ bankKWh: 9, bankUsedKWh: 3, used: 3, cashForEnergy: 0 });
    expect(by.get('2025-12')?.bankKWh).toBe(9);
    expect(by.get('2026-01')).toMatchObject({ bankLostKWh: 5, bankKWh: 4 });
    expect(by.get('2026-02')).toMatchObject({ bankLostKWh: 4, bankKWh: 0 });
  });
});

describe('RCEm table', () => {
  it('ships each value with its source and publication date, corrections as later versions', () => {
    for (const [month, versions] of Object.entries(RCEM_TABLE)) {
      expect(month).toMatch(/^\d{4}-\d{2}$/);
      for (const v of versions) {
        expect(v.price).toBeGreaterThan(0);
        expect(v.source).toMatch(/^https:\/\//);
        expect(v.publishedAt > month).toBe(true);
      }
    }
    expect(RCEM_TABLE['2025-06']?.[0]?.price).toBe(136.3);
    expect(RCEM_TABLE['2024-04']).toBeUndefined();
    expect(rcemFor('2024-04', 'latest')).toBeNull();
  });

  it('an RCEm correction recomputes its tranche ("latest" vs "as first published"; a user value wins)', () => {
    const flows = (price: number): MonthFlows[] => [
      {
        month: '2022-06',
        nettedImportKWh: 0,
        nettedExportKWh: 100,
        energyCost: 0,
        exportValue: (100 * price) / 1000,
        unpricedExportKWh: 0,
        price,
        energyEstimated: false,
      },
    ];
    const first = rcemFor('2022-06', 'first');
    const latest = rcemFor('2022-06', 'latest');
    expect(first).toMatchObject({ price: 659.29, version: 1, versions: 3, source: 'shipped' });
    expect(latest).toMatchObject({ price: 656.04, version: 3 });
    expect(depositLedger(flows(first?.price ?? 0), 0.2)[0]?.credited).toBe(65.93);
    expect(depositLedger(flows(latest?.price ?? 0), 0.2)[0]?.credited).toBe(65.6);
    const own = rcemFor('2022-06', 'latest', new Map([['2022-06', { price: 648.16, enteredAt: '2023-01-05' }]]));
    expect(own).toMatchObject({ price: 648.16, source: 'user' });
    expect(depositLedger(flows(own?.price ?? 0), 0.2)[0]?.credited).toBe(64.82);
  });

  it('monthlyFlows prices each month with its own RCEm and leaves a month without one unpriced', () => {
    const d = zonedTimeToUtc(TZ, 2024, 4, 10, 12);
    const hours = [{ start: d, importKWh: 0, exportKWh: 2, nettedImportKWh: 0, nettedExportKWh: 2 }];
    const [apr] = monthlyFlows(hours, TZ, '2024-04', '2024-04', pricing());
    expect(apr).toMatchObject({ price: null, exportValue: null, unpricedExportKWh: 2 });
  });

  it('assigns an hour to its local month (the first hours of 1 April in Warsaw are April)', () => {
    const start = zonedTimeToUtc(TZ, 2024, 4, 1, 0); // 31 March 2024 was a DST day (23 hours)
    const hours = [
      { start: start - HOUR, importKWh: 1, exportKWh: 0, nettedImportKWh: 1, nettedExportKWh: 0 },
      { start, importKWh: 2, exportKWh: 0, nettedImportKWh: 2, nettedExportKWh: 0 },
      { start: start + HOUR, importKWh: 4, exportKWh: 0, nettedImportKWh: 4, nettedExportKWh: 0 },
    ];
    const flows = monthlyFlows(hours, TZ, '2024-03', '2024-04', pricing());
    expect(flows.map((f) => f.nettedImportKWh)).toEqual([1, 6]);
  });
});

describe('energy part of the price per hour', () => {
  const allDay = (a: 1 | 2) => Array.from({ length: 24 }, (_, h) => (h >= 22 || h < 6 ? 2 : a)) as (1 | 2)[];
  const days = { weekday: allDay(1), saturday: allDay(1), sunday: allDay(1), holiday: allDay(1) };
  const tariff = {
    schedule: { seasons: [{ name: 'all', from: '01-01', to: '12-31', days }] },
    clock: 'local' as const,
    prices: [
      { validFrom: '2025-01-01', area1: 1.0, area2: 0.6, area3: null, fixedMonthly: 0, energyArea1: 0.62, energyArea2: 0.4 },
      { validFrom: '2025-07-01', area1: 1.1, area2: 0.7, area3: null, fixedMonthly: 0 },
    ],
  };
  const at = energyPriceOfHour(tariff, TZ, () => false);

  it('takes the zone of the hour and the list valid on its local date; the whole price (estimated) without an energy part', () => {
    expect(at(zonedTimeToUtc(TZ, 2025, 6, 30, 12))).toEqual({ price: 0.62, estimated: false });
    expect(at(zonedTimeToUtc(TZ, 2025, 6, 30, 23))).toEqual({ price: 0.4, estimated: false });
    expect(at(zonedTimeToUtc(TZ, 2025, 7, 1, 0))).toEqual({ price: 0.7, estimated: true });
    expect(at(zonedTimeToUtc(TZ, 2024, 12, 31, 12))).toBeNull();
  });
});
