import { addLocalDays, type HeatmapKind, localDate, localParts, zonedTimeToUtc } from '@phasewatch/shared';

/** Local midnight of a calendar date `YYYY-MM-DD`. */
export function dayStart(date: string, tz: string): number {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number);
  return zonedTimeToUtc(tz, y, m, d);
}

export const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

/** The local dates `days` days before the date (negative: after). */
export function shiftDate(date: string, days: number, tz: string): string {
  return localDate(addLocalDays(dayStart(date, tz), days, tz), tz);
}

/** A heatmap's first range: the last 30 days, 12 weeks, this and last year, or the last five years. */
export function defaultHeatmapRange(kind: HeatmapKind, now: number, tz: string): { from: string; to: string } {
  const to = localDate(now, tz);
  const year = localParts(now, tz).year;
  if (kind === 'daily') return { from: shiftDate(to, -29, tz), to };
  if (kind === 'weekly') return { from: shiftDate(to, -83, tz), to };
  if (kind === 'monthly') return { from: `${year - 1}-01-01`, to };
  return { from: `${year - 4}-01-01`, to };
}

/** [from, to) of local dates, both included. */
export function dateRange(from: string, to: string, tz: string): { from: number; to: number } {
  return { from: dayStart(from, tz), to: addLocalDays(dayStart(to, tz), 1, tz) };
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * A date-time range of local dates and optional times (`HH:mm`): from the start's date at its time (00:00
 * without one) to the end's date at its time, or the end of that day without one. Null when a time is
 * malformed or the range is empty.
 */
export function dateTimeRange(from: string, fromTime: string, to: string, toTime: string, tz: string): { from: number; to: number } | null {
  const at = (date: string, time: string) => {
    const m = TIME.exec(time);
    const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
    return m ? zonedTimeToUtc(tz, y, mo, d, Number(m[1]), Number(m[2])) : null;
  };
  if ((fromTime && !TIME.test(fromTime)) || (toTime && !TIME.test(toTime))) return null;
  const start = fromTime ? at(from, fromTime) : dayStart(from, tz);
  const end = toTime ? at(to, toTime) : addLocalDays(dayStart(to, tz), 1, tz);
  return start !== null && end !== null && start < end ? { from: start, to: end } : null;
}

/** This month so far and the same days a year earlier; this year and last year; the last 7 days and the 7 before. */
export function periodPresets(now: number, tz: string) {
  const p = localParts(now, tz);
  const today = localDate(now, tz);
  const monthStart = `${p.year}-${String(p.month).padStart(2, '0')}-01`;
  const lastYear = (d: string) => `${Number(d.slice(0, 4)) - 1}${d.slice(4)}`;
  // 29 February has no day a year earlier: the 28th stands in.
  const safe = (d: string) => (d.endsWith('-02-29') ? `${d.slice(0, 8)}28` : d);
  return {
    // The question people ask first: this month so far against the same days of last month (the 31st of a
    // 30-day month stands at the 30th).
    monthVsLastMonth: [
      { from: monthStart, to: today },
      (() => {
        const y = p.month === 1 ? p.year - 1 : p.year;
        const m = p.month === 1 ? 12 : p.month - 1;
        const length = new Date(Date.UTC(y, m, 0)).getUTCDate();
        const mm = String(m).padStart(2, '0');
        return { from: `${y}-${mm}-01`, to: `${y}-${mm}-${String(Math.min(p.day, length)).padStart(2, '0')}` };
      })(),
    ],
    monthVsLastYear: [
      { from: monthStart, to: today },
      { from: lastYear(monthStart), to: safe(lastYear(today)) },
    ],
    yearVsLastYear: [
      { from: `${p.year}-01-01`, to: today },
      { from: `${p.year - 1}-01-01`, to: safe(lastYear(today)) },
    ],
    weekVsWeek: [
      { from: shiftDate(today, -6, tz), to: today },
      { from: shiftDate(today, -13, tz), to: shiftDate(today, -7, tz) },
    ],
  } as const;
}
