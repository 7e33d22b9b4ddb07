import { DAY_MS } from './models/environment.js';

const PAD2 = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const PAD3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
/** Fraction digits by decimals: index 1 → '0'…'9', 2 → '00'…'99', 3 → '000'…'999'. */
const FRACTIONS = [
  [''],
  Array.from({ length: 10 }, (_, i) => String(i)),
  Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0')),
  PAD3,
];

/**
 * A number rounded to `decimals` as JSON text. Integer-to-string conversion is much cheaper than the
 * shortest-double algorithm, and this runs some 50 times per reading.
 */
export function formatFixed(x: number, decimals: number): string {
  if (!Number.isFinite(x)) return '0';
  const scale = decimals === 0 ? 1 : decimals === 1 ? 10 : decimals === 2 ? 100 : 1000;
  const n = Math.round(Math.abs(x) * scale);
  if (n === 0) return '0';
  const sign = x < 0 ? '-' : '';
  if (scale === 1) return `${sign}${n}`;
  const whole = Math.floor(n / scale);
  const frac = n - whole * scale;
  return frac === 0 ? `${sign}${whole}` : `${sign}${whole}.${FRACTIONS[decimals]?.[frac] ?? ''}`;
}

/**
 * ISO-8601 UTC timestamps (`2026-01-01T00:00:00.000Z`) without a Date per reading: the date part is
 * cached per UTC day, the time part comes from lookup tables.
 */
export class TimestampFormatter {
  private day = Number.NaN;
  private prefix = '';

  format(tsMs: number): string {
    const day = Math.floor(tsMs / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    }
    let rest = tsMs - day * DAY_MS;
    const h = Math.floor(rest / 3_600_000);
    rest -= h * 3_600_000;
    const m = Math.floor(rest / 60_000);
    rest -= m * 60_000;
    const s = Math.floor(rest / 1000);
    const ms = rest - s * 1000;
    return `${this.prefix}${PAD2[h]}:${PAD2[m]}:${PAD2[s]}.${PAD3[ms]}Z`;
  }
}

/** Something that produces readings: parameter names, their decimals, and the current values. */
export interface ReadingSource {
  readonly params: readonly string[];
  readonly decimals: Uint8Array;
  readonly values: Float64Array;
}

/**
 * Writes a source's current values as one ingest reading (`{"ts":…,"values":{…}}`) straight to JSON
 * text: the keys are pre-quoted once and numbers rounded to each parameter's resolution, so a reading
 * costs one string and no intermediate objects.
 */
export class ReadingSerializer {
  private readonly keys: string[];
  private readonly ts = new TimestampFormatter();

  constructor(private readonly source: ReadingSource) {
    this.keys = source.params.map((p, i) => `${i === 0 ? '' : ','}${JSON.stringify(p)}:`);
    if (source.decimals.some((d) => d > 3)) throw new Error('at most 3 decimals');
  }

  /** The reading at `tsMs` with the source's current values, as JSON text. */
  reading(tsMs: number): string {
    const v = this.source.values;
    const d = this.source.decimals;
    let out = `{"ts":"${this.ts.format(tsMs)}","values":{`;
    for (let i = 0; i < this.keys.length; i++) out += `${this.keys[i]}${formatFixed(v[i] ?? 0, d[i] ?? 0)}`;
    return `${out}}}`;
  }
}

/** The ingest request body for serialised readings (`extra` adds top-level fields, e.g. the MQTT key). */
export function ingestBody(readings: readonly string[], extra?: Record<string, string>): string {
  const head = extra
    ? Object.entries(extra)
        .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`)
        .join('')
    : '';
  return `{${head}"readings":[${readings.join(',')}]}`;
}
