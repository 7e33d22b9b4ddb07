import { BoundedMap, startOfLocalDay } from '@phasewatch/shared';
import { H1 } from './readings.rollup.js';

/* Local days of a zone, cached: their edges decide which rollup_day rows a write touches. */

/** Recently used local days per zone, [start, end) (Intl calls cost ~10 µs each; a write needs a few). */
const recentDays = new BoundedMap<string, [number, number][]>(64);

/** Start and end of the local day holding `ts` in `tz`. */
export function localDayOf(ts: number, tz: string): [number, number] {
  let days = recentDays.get(tz);
  if (!days) {
    days = [];
    recentDays.set(tz, days);
  }
  for (const d of days) if (ts >= d[0] && ts < d[1]) return d;
  const start = startOfLocalDay(ts, tz);
  const day: [number, number] = [start, endOfDay(start, tz)];
  days.unshift(day);
  if (days.length > 16) days.pop();
  return day;
}

/** Start of the local day after the one containing `ts` (local days last 23 to 25 hours). */
export function endOfDay(ts: number, tz: string): number {
  return startOfLocalDay(startOfLocalDay(ts, tz) + 26 * H1, tz);
}

/** Local day edges from the day holding `lo` to the end of the day holding `hi - 1`. */
export function dayEdges(lo: number, hi: number, tz: string): number[] {
  const edges: number[] = [];
  let day = localDayOf(lo, tz);
  for (;;) {
    edges.push(day[0]);
    if (hi <= day[1]) break;
    day = localDayOf(day[1], tz);
  }
  edges.push(day[1]);
  return edges;
}
