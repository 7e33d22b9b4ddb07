import { addLocalDays, localDate, localParts, zonedTimeToUtc } from '@phasewatch/shared';

const H1 = 3_600_000;
const QUARTER = 900_000;

/** The local midnight starting a calendar date `YYYY-MM-DD` in `tz`. */
export function dayStartOf(date: string, tz: string): number {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number);
  return zonedTimeToUtc(tz, y, m, d);
}

/**
 * The local hours of a local day [start, end): their first instants and their wall-clock hour. A day of
 * 24 hours has them every hour from its midnight; a day the clocks change (23 or 25 hours) is walked
 * quarter-hour by quarter-hour (offsets change on quarter-hour boundaries), keeping each instant whose
 * local minute is 0: the spring day lacks the skipped hour, the autumn day has the repeated one twice.
 */
export function localHours(start: number, end: number, tz: string): { starts: number[]; hours: number[] } {
  const starts: number[] = [];
  const hours: number[] = [];
  if (end - start === 24 * H1) {
    for (let k = 0; k < 24; k++) {
      starts.push(start + k * H1);
      hours.push(k);
    }
    return { starts, hours };
  }
  for (let t = start; t < end; t += QUARTER) {
    const p = localParts(t, tz);
    if (p.minute === 0 || t === start) {
      starts.push(t);
      hours.push(p.hour);
    }
  }
  return { starts, hours };
}

/** Local midnights from `from` (a local midnight) while before `to`, and `to` itself as the last edge. */
export function dayEdges(from: number, to: number, tz: string): number[] {
  const out: number[] = [];
  for (let d = from; d < to; d = addLocalDays(d, 1, tz)) out.push(d);
  out.push(to);
  return out;
}

/** ISO day of the week of a calendar date: 1 Monday … 7 Sunday. */
export function isoWeekday(date: string): number {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

export const pad2 = (n: number) => String(n).padStart(2, '0');

/** Calendar date of a local midnight. */
export const dateOf = (dayStart: number, tz: string) => localDate(dayStart, tz);
