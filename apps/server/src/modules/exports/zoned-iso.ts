import { tzOffsetMs } from '@phasewatch/shared';

const DAY = 86_400_000;
const QUARTER = 900_000;

function offsetText(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const m = Math.abs(offsetMs) / 60_000;
  return `${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/**
 * Formats instants as ISO 8601 local time with the zone's UTC offset (`2026-10-25T02:30:00+01:00`), so
 * the repeated hour of the autumn change stays unambiguous. Rows come in time order and the offset
 * changes at most once a day: it is looked up (Intl) at both ends of each UTC day and, only on a day
 * whose ends differ, per quarter-hour (offsets change on quarter-hour boundaries), not per row.
 */
export class ZonedIso {
  private day = Number.NaN;
  private dayOffset: number | null = null;
  private readonly quarters = new Map<number, number>();

  constructor(private readonly tz: string) {}

  offsetAt(ts: number): number {
    const d = Math.floor(ts / DAY);
    if (d !== this.day) {
      this.day = d;
      this.quarters.clear();
      const a = tzOffsetMs(d * DAY, this.tz);
      const b = tzOffsetMs(d * DAY + DAY - 1, this.tz);
      this.dayOffset = a === b ? a : null;
    }
    if (this.dayOffset !== null) return this.dayOffset;
    const q = Math.floor(ts / QUARTER);
    let off = this.quarters.get(q);
    if (off === undefined) {
      off = tzOffsetMs(q * QUARTER, this.tz);
      this.quarters.set(q, off);
    }
    return off;
  }

  /** `YYYY-MM-DDTHH:mm:ss±hh:mm` (milliseconds shown only when not zero). */
  format(ts: number): string {
    const off = this.offsetAt(ts);
    const iso = new Date(ts + off).toISOString();
    const ms = ts % 1000 !== 0;
    return `${iso.slice(0, ms ? 23 : 19)}${offsetText(off)}`;
  }
}
