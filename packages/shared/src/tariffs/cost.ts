import { tzOffsetMs, zonedTimeToUtc } from '../energy/zoned-time.js';
import {
  type DayHours,
  type DayType,
  seasonContains,
  type TariffArea,
  type TariffClock,
  type TariffPrice,
  type ZoneSchedule,
} from './tariff.schema.js';

/**
 * Cost of energy under a tariff, from quarter-hour energies.
 *
 * - A quarter-hour's energy lies in the zone of its **start** on the tariff's clock: the location's wall
 *   clock (`local`), or a meter kept on winter time all year (`cet`, UTC+1). The day type (working day,
 *   Saturday, Sunday, statutory holiday) and the season (calendar dates) are those of the clock's date.
 * - Its cost is its energy × that zone's price **valid on its local date** (the price list with the latest
 *   `validFrom` on or before it), so a later price never changes an earlier period.
 * - The monthly fee is prorated by days: fee × days of the period in a month ÷ days of that month, each
 *   day taking the fee of the price list valid on it.
 * - Days are local days of the location (23 and 25 hours on DST days). Energy before the first price
 *   list is counted but not costed (`unpricedKWh`).
 * - Costs are rounded to 0.01 per figure; energy to 1 mWh.
 */

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** A meter on winter time all year: Central European Time, UTC+1. */
const CET_OFFSET = HOUR;

/** Is a local date `YYYY-MM-DD` a statutory holiday of the tariff's calendar? */
export type HolidayCheck = (date: string) => boolean;
export const NO_HOLIDAYS: HolidayCheck = () => false;

/** Quarter-hour energies: bucket starts (UTC epoch ms, ascending) and their energy in kWh (NaN: none). */
export interface QuarterEnergy {
  ts: ArrayLike<number>;
  kWh: ArrayLike<number>;
}

interface ClockLayout {
  /** Distinct dates of the clock, in order, as `YYYY-MM-DD`. */
  dates: string[];
  /** Per bucket: index into `dates`. */
  date: Int32Array;
  /** Per bucket: hour 0–23 on the clock. */
  hour: Uint8Array;
}

/** Quarter-hours of a period laid out on the calendar of a location, once for any number of tariffs. */
export interface QuarterCalendar {
  timezone: string;
  /** Local dates: `from` inclusive, `to` exclusive. */
  from: string;
  to: string;
  days: string[];
  /** Length of each local day in hours (23 / 24 / 25). */
  dayHours: number[];
  /** Per bucket: its local day (index into `days`). */
  day: Int32Array;
  kWh: Float64Array;
  clocks: Record<TariffClock, ClockLayout>;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** `YYYY-MM-DD` of a day number (days since the epoch). */
const dateOfDay = (d: number) => new Date(d * DAY).toISOString().slice(0, 10);

/** The local dates from `from` (inclusive) to `to` (exclusive). */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`); t < end; t += DAY) out.push(dateOfDay(t / DAY));
  return out;
}

/** Local midnight starting a date `YYYY-MM-DD` in a timezone (UTC epoch ms). */
export function startOfDate(date: string, tz: string): number {
  return zonedTimeToUtc(tz, Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));
}

/**
 * Lays quarter-hours out on a location's calendar: each bucket's local day and, for both clocks, its date
 * and hour. Buckets outside the period and without energy are left out. Offsets are looked up twice a
 * day, and per bucket only on the days a DST change falls on.
 */
export function quarterCalendar(energy: QuarterEnergy, timezone: string, from: string, to: string): QuarterCalendar {
  const days = datesBetween(from, to);
  const starts = [...days, to].map((d) => startOfDate(d, timezone));
  const dayHours = days.map((_, i) => Math.round(((starts[i + 1] as number) - (starts[i] as number)) / HOUR));
  const n = energy.ts.length;
  const keep: number[] = [];
  for (let k = 0; k < n; k++) {
    const e = energy.kWh[k] as number;
    const t = energy.ts[k] as number;
    if (e > 0 && t >= (starts[0] as number) && t < (starts[days.length] as number)) keep.push(k);
  }
  const m = keep.length;
  const day = new Int32Array(m);
  const kWh = new Float64Array(m);
  const layout = (): { map: Map<number, number>; dates: string[]; date: Int32Array; hour: Uint8Array } => ({
    map: new Map(),
    dates: [],
    date: new Int32Array(m),
    hour: new Uint8Array(m),
  });
  const local = layout();
  const cet = layout();
  const place = (l: ReturnType<typeof layout>, j: number, wall: number) => {
    const d = Math.floor(wall / DAY);
    let idx = l.map.get(d);
    if (idx === undefined) {
      idx = l.dates.length;
      l.map.set(d, idx);
      l.dates.push(dateOfDay(d));
    }
    l.date[j] = idx;
    l.hour[j] = Math.floor((wall - d * DAY) / HOUR);
  };
  let i = 0;
  let offStart = Number.NaN;
  let offEnd = Number.NaN;
  let offsetsOf = -1;
  for (let j = 0; j < m; j++) {
    const k = keep[j] as number;
    const t = energy.ts[k] as number;
    while (t >= (starts[i + 1] as number)) i++;
    if (offsetsOf !== i) {
      offStart = tzOffsetMs(starts[i] as number, timezone);
      offEnd = tzOffsetMs((starts[i + 1] as number) - 1, timezone);
      offsetsOf = i;
    }
    day[j] = i;
    kWh[j] = energy.kWh[k] as number;
    place(local, j, t + (offStart === offEnd ? offStart : tzOffsetMs(t, timezone)));
    place(cet, j, t + CET_OFFSET);
  }
  const clock = (l: ReturnType<typeof layout>): ClockLayout => ({ dates: l.dates, date: l.date, hour: l.hour });
  return { timezone, from, to, days, dayHours, day, kWh, clocks: { local: clock(local), cet: clock(cet) } };
}

/** The day type of a date `YYYY-MM-DD`: a statutory holiday first, else by weekday. */
export function dayTypeOf(date: string, isHoliday: HolidayCheck): DayType {
  if (isHoliday(date)) return 'holiday';
  const wd = new Date(`${date}T00:00:00Z`).getUTCDay();
  return wd === 0 ? 'sunday' : wd === 6 ? 'saturday' : 'weekday';
}

/** The hours of a date: its season's day of its day type. */
export function hoursOfDate(schedule: ZoneSchedule, date: string, isHoliday: HolidayCheck): DayHours {
  const md = date.slice(5, 10);
  const season = schedule.seasons.find((s) => seasonContains(s, md)) ?? schedule.seasons[0];
  if (!season) throw new Error('a schedule has at least one season');
  return season.days[dayTypeOf(date, isHoliday)];
}

/**
 * The zone an instant falls in (the reference the bulk computation is tested against): the hour and date of
 * `ts` on the tariff's clock, read from the schedule.
 */
export function zoneAt(schedule: ZoneSchedule, clock: TariffClock, ts: number, timezone: string, isHoliday: HolidayCheck): TariffArea {
  const wall = ts + (clock === 'cet' ? CET_OFFSET : tzOffsetMs(ts, timezone));
  const d = Math.floor(wall / DAY);
  const hours = hoursOfDate(schedule, dateOfDay(d), isHoliday);
  return hours[Math.floor((wall - d * DAY) / HOUR)] as TariffArea;
}

/** The price list valid on a local date (the latest `validFrom` on or before it), or undefined before the first. */
export function priceOn(prices: readonly TariffPrice[], date: string): TariffPrice | undefined {
  let found: TariffPrice | undefined;
  for (const p of prices) if (p.validFrom <= date && (!found || p.validFrom > found.validFrom)) found = p;
  return found;
}

/** What a tariff needs for its cost. */
export interface CostTariff {
  schedule: ZoneSchedule;
  clock: TariffClock;
  prices: readonly TariffPrice[];
}

export interface ZoneCost {
  area: TariffArea;
  kWh: number;
  cost: number;
}

export interface TariffCost {
  zones: ZoneCost[];
  kWh: number;
  energyCost: number;
  fixedCost: number;
  totalCost: number;
  unpricedKWh: number;
  days: { date: string; hours: number; zones: ZoneCost[]; kWh: number; fixedCost: number; cost: number }[];
}

export const roundMoney = (x: number) => Math.round((x + Number.EPSILON * Math.abs(x)) * 100) / 100;
const roundKWh = (x: number) => Math.round(x * 1e6) / 1e6;
const daysInMonth = (date: string) => new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0)).getUTCDate();
const areaPrice = (p: TariffPrice, a: TariffArea) => (a === 1 ? p.area1 : a === 2 ? p.area2 : p.area3) ?? 0;

/** The zone of each quarter-hour of a calendar under a schedule read on a clock. */
export function zonesOf(cal: QuarterCalendar, tariff: Pick<CostTariff, 'schedule' | 'clock'>, isHoliday: HolidayCheck): Uint8Array {
  const layout = cal.clocks[tariff.clock];
  const hoursByDate = layout.dates.map((d) => hoursOfDate(tariff.schedule, d, isHoliday));
  const out = new Uint8Array(cal.kWh.length);
  for (let j = 0; j < out.length; j++) out[j] = (hoursByDate[layout.date[j] as number] as DayHours)[layout.hour[j] as number] as TariffArea;
  return out;
}

/**
 * Energy and cost per zone, per local day and in total, of a period's quarter-hours under a tariff (rules
 * at the top of this file). Zones listed are those the schedule uses, plus any that received energy.
 */
export function tariffCost(cal: QuarterCalendar, tariff: CostTariff, isHoliday: HolidayCheck): TariffCost {
  const zone = zonesOf(cal, tariff, isHoliday);
  const prices = cal.days.map((d) => priceOn(tariff.prices, d));
  const nd = cal.days.length;
  const kwh = new Float64Array(nd * 3);
  const cost = new Float64Array(nd * 3);
  let unpriced = 0;
  for (let j = 0; j < cal.kWh.length; j++) {
    const i = cal.day[j] as number;
    const a = zone[j] as TariffArea;
    const e = cal.kWh[j] as number;
    const slot = i * 3 + a - 1;
    kwh[slot] = (kwh[slot] as number) + e;
    const p = prices[i];
    if (p) cost[slot] = (cost[slot] as number) + e * areaPrice(p, a);
    else unpriced += e;
  }
  const used = new Set<TariffArea>();
  for (const s of tariff.schedule.seasons) for (const h of Object.values(s.days)) for (const a of h) used.add(a);
  for (let i = 0; i < nd; i++) for (let a = 1; a <= 3; a++) if ((kwh[i * 3 + a - 1] as number) > 0) used.add(a as TariffArea);
  const areas = [...used].sort();
  const totals = areas.map((area) => ({ area, kWh: 0, cost: 0 }));
  let fixed = 0;
  const days = cal.days.map((date, i) => {
    const p = prices[i];
    const fee = p ? p.fixedMonthly / daysInMonth(date) : 0;
    fixed += fee;
    let dayKWh = 0;
    const zones = areas.map((area, z) => {
      const e = kwh[i * 3 + area - 1] as number;
      const c = cost[i * 3 + area - 1] as number;
      const t = totals[z] as { kWh: number; cost: number };
      t.kWh += e;
      t.cost += c;
      dayKWh += e;
      return { area, kWh: roundKWh(e), cost: roundMoney(c) };
    });
    const feeRounded = roundMoney(fee);
    return {
      date,
      hours: cal.dayHours[i] as number,
      zones,
      kWh: roundKWh(dayKWh),
      fixedCost: feeRounded,
      cost: roundMoney(zones.reduce((s, z) => s + z.cost, 0) + feeRounded),
    };
  });
  const zones = totals.map((t) => ({ area: t.area, kWh: roundKWh(t.kWh), cost: roundMoney(t.cost) }));
  const energyCost = roundMoney(zones.reduce((s, z) => s + z.cost, 0));
  const fixedCost = roundMoney(fixed);
  return {
    zones,
    kWh: roundKWh(totals.reduce((s, t) => s + t.kWh, 0)),
    energyCost,
    fixedCost,
    totalCost: roundMoney(energyCost + fixedCost),
    unpricedKWh: roundKWh(unpriced),
    days,
  };
}

/** A tariff the advisor prices the period under. */
export interface AdvisorCandidate extends CostTariff {
  key: string;
  isHoliday: HolidayCheck;
}

export interface AdvisorFigures {
  key: string;
  cost: TariffCost;
  annualCost: number;
  /** Energy a year to move from the dearer areas into area 2 to match the cheapest; 0 for it; null: cannot. */
  shiftKWhPerYear: number | null;
  shiftShare: number | null;
}

/**
 * The period's cost under each candidate, cheapest first, scaled to a year (`daysWithData` days of data),
 * with the energy that would have to move into the cheap area (2) for each of the others to cost no more
 * than the cheapest. The move is priced at the option's own average prices in the period (what its dearer
 * areas and its cheap area actually cost per kWh) and the cheapest option's cost is held fixed: exact when
 * the cheapest is single-zone, an estimate otherwise.
 */
export function adviseTariffs(cal: QuarterCalendar, candidates: readonly AdvisorCandidate[], daysWithData: number): AdvisorFigures[] {
  const scale = daysWithData > 0 ? 365 / daysWithData : 0;
  const priced = candidates.map((c) => ({ key: c.key, cost: tariffCost(cal, c, c.isHoliday), tariff: c }));
  priced.sort((a, b) => a.cost.totalCost - b.cost.totalCost || a.key.localeCompare(b.key));
  const best = priced[0]?.cost.totalCost ?? 0;
  return priced.map(({ key, cost, tariff }) => {
    const annualCost = roundMoney(cost.totalCost * scale);
    const gap = cost.totalCost - best;
    if (gap <= 0) return { key, cost, annualCost, shiftKWhPerYear: 0, shiftShare: 0 };
    const cheap = cost.zones.find((z) => z.area === 2);
    const dear = cost.zones.filter((z) => z.area !== 2);
    const dearKWh = dear.reduce((s, z) => s + z.kWh, 0);
    if (!cheap || dearKWh <= 0) return { key, cost, annualCost, shiftKWhPerYear: null, shiftShare: null };
    const lastPrice = tariff.prices[tariff.prices.length - 1];
    const cheapPrice = cheap.kWh > 0 ? cheap.cost / cheap.kWh : (lastPrice?.area2 ?? 0);
    const dearPrice = dear.reduce((s, z) => s + z.cost, 0) / dearKWh;
    const shift = dearPrice > cheapPrice ? gap / (dearPrice - cheapPrice) : Number.POSITIVE_INFINITY;
    if (!(shift <= dearKWh)) return { key, cost, annualCost, shiftKWhPerYear: null, shiftShare: null };
    return {
      key,
      cost,
      annualCost,
      shiftKWhPerYear: Math.round(shift * scale * 10) / 10,
      shiftShare: Math.round((shift / dearKWh) * 1000) / 10,
    };
  });
}

/** `YYYY-MM-DD` of a year, month and day (month and day may overflow). */
export function isoDate(year: number, month: number, day: number): string {
  const d = new Date(Date.UTC(year, month - 1, day));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}
