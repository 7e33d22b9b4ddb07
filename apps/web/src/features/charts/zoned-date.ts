import { tzOffsetMs } from '@phasewatch/shared';

/**
 * uPlot's `tzDate` for a timezone: a Date whose local fields show the wall-clock time there. uPlot's own
 * helper formats every instant with `toLocaleString` (a new formatter per call, tens of ms per chart);
 * this one takes the zone's offset once per quarter-hour (offsets change on quarter-hour boundaries).
 */
export function zonedDate(timezone: string): (ts: number) => Date {
  const offsets = new Map<number, number>();
  return (ts) => {
    const q = Math.floor(ts / 900_000);
    let off = offsets.get(q);
    if (off === undefined) {
      off = tzOffsetMs(q * 900_000, timezone);
      offsets.set(q, off);
    }
    const w = new Date(ts + off);
    return new Date(
      w.getUTCFullYear(),
      w.getUTCMonth(),
      w.getUTCDate(),
      w.getUTCHours(),
      w.getUTCMinutes(),
      w.getUTCSeconds(),
      w.getUTCMilliseconds(),
    );
  };
}
