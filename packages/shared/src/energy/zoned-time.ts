/**
 * Calendar maths in an IANA timezone with `Intl` only (no dependency): local midnights, months,
 * years and billing periods as UTC epoch milliseconds. Local days are 23 h or 25 h across DST.
 */

import { BoundedMap } from '../util/bounded-map.js';

const formatters = new BoundedMap<string, Intl.DateTimeFormat>(1024);

/** Zones with a formatter kept (bounded; reported by the server's metrics). */
export function cachedZoneFormatters(): number {
  return formatters.size;
}

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Wall-clock fields of an instant in a timezone (month 1–12). */
export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The local wall-clock fields of `ts` (epoch ms) in `tz`. */
export function localParts(ts: number, tz: string): LocalParts {
  const out: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(ts)) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return {
    year: out.year ?? 0,
    month: out.month ?? 1,
    day: out.day ?? 1,
    hour: out.hour ?? 0,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
  };
}

/** Offset of `tz` from UTC at the instant `ts`, in milliseconds (Warsaw in summer: +7,200,000). */
export function tzOffsetMs(ts: number, tz: string): number {
  const p = localParts(ts, tz);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - (ts - (((ts % 1000) + 1000) % 1000));
}

/**
 * The instants a local wall-clock time names in `tz`, earliest first: two in the hour an autumn change
 * repeats (02:00–03:00 in Warsaw on the last Sunday of October), none inside a spring gap, one otherwise.
 * Month and day may overflow (Date.UTC normalises them).
 */
export function zonedTimeInstants(tz: string, year: number, month: number, day: number, hour = 0, minute = 0): number[] {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // Offsets a day either side bracket any transition near the wall time (none happen closer together).
  // A time is repeated only where the offset falls, so the offset before the change gives the earlier one.
  const before = wall - tzOffsetMs(wall - 86_400_000, tz);
  const after = wall - tzOffsetMs(wall + 86_400_000, tz);
  const instants: number[] = [];
  if (before + tzOffsetMs(before, tz) === wall) instants.push(before);
  if (after !== before && after + tzOffsetMs(after, tz) === wall) instants.push(after);
  return instants;
}

/**
 * The instant of a local wall-clock time. Month and day may overflow (Date.UTC normalises them). A time
 * inside a DST gap resolves to the instant after the gap; an ambiguous one to its first occurrence.
 */
export function zonedTimeToUtc(tz: string, year: number, month: number, day: number, hour = 0, minute = 0): number {
  const [first] = zonedTimeInstants(tz, year, month, day, hour, minute);
  if (first !== undefined) return first;
  // In a gap: the wall time read at the offset before the change lands past the gap.
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  return wall - tzOffsetMs(wall - 86_400_000, tz);
}

/** Local midnight starting the day that contains `ts`. */
export function startOfLocalDay(ts: number, tz: string): number {
  const p = localParts(ts, tz);
  return zonedTimeToUtc(tz, p.year, p.month, p.day);
}

/** Local midnight `n` calendar days after the local day of `ts` (n may be negative). */
export function addLocalDays(ts: number, n: number, tz: string): number {
  const p = localParts(ts, tz);
  return zonedTimeToUtc(tz, p.year, p.month, p.day + n);
}

/** Local midnight of the first day of the month of `ts`. */
export function startOfLocalMonth(ts: number, tz: string): number {
  const p = localParts(ts, tz);
  return zonedTimeToUtc(tz, p.year, p.month, 1);
}

/** Local midnight of 1 January of the year of `ts`. */
export function startOfLocalYear(ts: number, tz: string): number {
  const p = localParts(ts, tz);
  return zonedTimeToUtc(tz, p.year, 1, 1);
}

/** Starts of the local days overlapping [from, to), in order; the first is the day containing `from`. */
export function localDayStarts(from: number, to: number, tz: string): number[] {
  const out: number[] = [];
  let d = startOfLocalDay(from, tz);
  while (d < to) {
    out.push(d);
    d = addLocalDays(d, 1, tz);
  }
  return out;
}

/** Local date `YYYY-MM-DD` of an instant. */
export function localDate(ts: number, tz: string): string {
  const p = localParts(ts, tz);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A billing-period anchor `months` months after the anchor date, its day clamped to the month's length. */
function shiftMonths(year: number, month: number, day: number, months: number): { year: number; month: number; day: number } {
  const idx = year * 12 + (month - 1) + months;
  const y = Math.floor(idx / 12);
  const m = (idx % 12) + 1;
  return { year: y, month: m, day: Math.min(day, daysInMonth(y, m)) };
}

/**
 * The billing period containing `now`: periods start at local midnight of `billingStartDate`
 * (`YYYY-MM-DD`) and every `periodMonths` months after it (a 31st becomes the month's last day).
 * Before the first start, the first period is returned.
 */
export function billingPeriod(now: number, tz: string, billingStartDate: string, periodMonths: number): { start: number; end: number } {
  const [y = 1970, m = 1, d = 1] = billingStartDate.split('-').map(Number);
  const months = Math.max(1, Math.floor(periodMonths));
  const at = (k: number) => {
    const s = shiftMonths(y, m, d, k * months);
    return zonedTimeToUtc(tz, s.year, s.month, s.day);
  };
  const local = localParts(now, tz);
  // Estimate k from the month distance, then step to the exact period.
  let k = Math.floor((local.year * 12 + local.month - (y * 12 + m)) / months);
  if (k < 0) k = 0;
  while (k > 0 && at(k) > now) k--;
  while (at(k + 1) <= now) k++;
  return { start: at(k), end: at(k + 1) };
}
