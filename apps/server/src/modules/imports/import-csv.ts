import { tzOffsetMs } from '@phasewatch/shared';

/*
 * The text side of an import: fields of a CSV line, numbers as people's spreadsheets write them, and times
 * with or without a zone. No I/O here (import-run.ts reads the file).
 */

/** The field separator of a header line: `;`, tab or `,` (whichever the header has most of). */
export function detectDelimiter(header: string): string {
  let best = ',';
  let most = 0;
  for (const d of [',', ';', '\t']) {
    let n = 0;
    for (let i = header.indexOf(d); i >= 0; i = header.indexOf(d, i + 1)) n++;
    if (n > most) {
      most = n;
      best = d;
    }
  }
  return best;
}

/** The fields of one line (RFC 4180 quotes within the line; a quoted field never spans lines here). */
export function splitLine(line: string, delimiter: string, out: string[] = []): string[] {
  out.length = 0;
  if (!line.includes('"')) {
    let start = 0;
    for (let i = line.indexOf(delimiter); i >= 0; i = line.indexOf(delimiter, start)) {
      out.push(line.slice(start, i));
      start = i + 1;
    }
    out.push(line.slice(start));
    return out;
  }
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted) {
      if (c === '"') {
        if (line[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

/**
 * A number as a CSV cell holds it: decimal point, or decimal comma where the separator is not a comma;
 * spaces (thousands) left out. NaN for an empty cell, null for text that is no number.
 */
export function parseNumber(text: string, decimalComma: boolean): number | null {
  let t = text.trim();
  if (t === '') return Number.NaN;
  if (decimalComma && t.includes(',')) t = t.replace(',', '.');
  if (t.includes(' ') || t.includes('\u00a0')) t = t.replace(/[ \u00a0]/g, '');
  const v = Number(t);
  return Number.isFinite(v) && !/^0x/i.test(t) && t !== '' ? v : null;
}

/** A time as written: a wall clock (ms as if UTC) with the offset it carries (null: none, local time). */
export interface ParsedTime {
  wall: number;
  offset: number | null;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?$/;

/** ISO 8601 (`T` or a space, seconds and fractions optional, `Z`/offset optional) or epoch seconds / ms. */
export function parseTime(text: string): ParsedTime | null {
  const t = text.trim();
  if (/^\d{9,13}(\.\d+)?$/.test(t)) {
    const n = Number(t);
    return { wall: n >= 1e11 ? Math.round(n) : Math.round(n * 1000), offset: 0 };
  }
  const m = ISO.exec(t);
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0', frac, zone] = m.slice(1) as string[];
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 59) return null;
  const ms = frac ? Math.round(Number(`0.${frac}`) * 1000) : 0;
  const wall = Date.UTC(Number(y), month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls 31 February over into March: such a date was not a date.
  if (new Date(wall - ms).getUTCDate() !== day && hour !== 24) return null;
  let offset: number | null = null;
  if (zone !== undefined) {
    if (zone === 'Z' || zone === 'z' || zone === 'UTC') offset = 0;
    else {
      const sign = zone[0] === '-' ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      offset = sign * (Number(digits.slice(0, 2)) * 3_600_000 + Number(digits.slice(2) || '0') * 60_000);
    }
  }
  return { wall, offset };
}

const QUARTER = 900_000;

/**
 * Wall-clock times of one zone to instants, in file order. A wall time the clock passed twice (the autumn
 * change) is read in order: its first occurrence unless that is not after the previous instant read, then
 * the second; a wall time the clock skipped (the spring change) is refused. Offsets are looked up per
 * quarter-hour of wall time and kept for the next rows (Intl costs ~10 µs a call; a file's rows come in order).
 */
export class LocalTimes {
  private key = Number.NaN;
  private candidates: number[] = [];
  /** The previous instant read (per series: Home Assistant files hold several statistics one after another). */
  private readonly last = new Map<string, number>();

  constructor(readonly tz: string) {}

  /** Wall day (UTC-numbered) whose offset is one all day, and that offset. */
  private day = Number.NaN;
  private dayOffset: number | null = null;

  /** The offsets a wall time may have been at (0: skipped by the clock, 1, or 2: passed twice), earliest instant first. */
  private offsetsOf(wall: number): number[] {
    const day = Math.floor(wall / 86_400_000);
    if (day !== this.day) {
      this.day = day;
      const a = tzOffsetMs(day * 86_400_000 - 43_200_000, this.tz);
      const b = tzOffsetMs(day * 86_400_000 + 129_600_000, this.tz);
      this.dayOffset = a === b ? a : null;
    }
    if (this.dayOffset !== null) {
      if (this.candidates.length !== 1 || this.candidates[0] !== this.dayOffset) {
        this.candidates = [this.dayOffset];
        this.key = Number.NaN;
      }
      return this.candidates;
    }
    const key = Math.floor(wall / QUARTER);
    if (key === this.key) return this.candidates;
    const out: number[] = [];
    const base = key * QUARTER;
    for (const probe of [base - 86_400_000, base + 86_400_000]) {
      const off = tzOffsetMs(probe, this.tz);
      if (tzOffsetMs(base - off, this.tz) === off && !out.includes(off)) out.push(off);
    }
    // Earliest instant first: the larger offset.
    out.sort((x, y) => y - x);
    this.key = key;
    this.candidates = out;
    return out;
  }

  /** The instant of a wall time, or null inside a gap. `series` keeps the order of one series apart from others. */
  resolve(wall: number, series = ''): number | null {
    const offs = this.offsetsOf(wall);
    if (offs.length === 0) return null;
    let ts = wall - (offs[0] as number);
    if (offs.length > 1) {
      const prev = this.last.get(series);
      if (prev !== undefined && ts <= prev) ts = wall - (offs[1] as number);
    }
    this.last.set(series, ts);
    return ts;
  }

  /** Notes an instant read with an explicit offset (order of later local rows). */
  saw(ts: number, series = ''): void {
    this.last.set(series, ts);
  }
}

/** Whether a zone name is one Intl knows. */
export function isKnownZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
