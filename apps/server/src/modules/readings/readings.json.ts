import type { ReadingInterval, ReadingsResponse, Series } from '@phasewatch/shared';
import { giveColumn } from './readings.columns.js';

/** A value column of an answer: one entry per bucket (or raw reading), NaN where the JSON has null. */
export type Column = Float64Array;

export type SeriesColumns =
  | { kind: 'instant'; unit: string; avg: Column; min: Column; max: Column }
  | { kind: 'counter'; unit: string; delta: Column; value?: Column; estimated?: number[] }
  | { kind: 'raw'; unit: string; values: Column };

/**
 * A readings answer as the service builds it: `ReadingsResponse` (readings.schema.ts) with typed columns.
 * A year of quarter-hours is 35,040 numbers a column; as a JS array each column is a large heap object
 * (and with one null, 35,040 boxed numbers), freshly mapped memory on every request, which cost more
 * than everything else a 10-parameter year read does. Float64Arrays reuse malloc'd memory and are
 * written as JSON by `readingsJson`.
 */
export interface ReadingsColumns {
  interval: ReadingInterval;
  from: number;
  to: number;
  timezone: string;
  ts: Column;
  series: Record<string, SeriesColumns>;
}

/** Column keys in the order `JSON.stringify` of a `ReadingsResponse` writes them. */
const COLUMN_KEYS = { instant: ['avg', 'min', 'max'], counter: ['delta', 'value'], raw: ['values'] } as const;

/** Columns up to this length are written through one reused array (a year of quarter-hours is 35,040). */
const REUSED_MAX = 65_536;
const reused: number[] = [];

/**
 * A JSON array of a column: NaN as null, numbers as `JSON.stringify` writes them. Through a plain array
 * of doubles because V8 writes those several times faster than `Float64Array.prototype.join`; one
 * array reused for every column (filled and written synchronously), so no large array is allocated.
 */
function columnJson(col: Column): string {
  const n = col.length;
  const arr = n <= REUSED_MAX ? reused : [];
  // Grown by push and cut by length: a length set far past the elements would make it a sparse array.
  if (arr.length > n) arr.length = n;
  for (let i = 0; i < n; i++) {
    if (i < arr.length) arr[i] = col[i] as number;
    else arr.push(col[i] as number);
  }
  return JSON.stringify(arr);
}

/** The answer as the JSON text of a `ReadingsResponse` (what `JSON.stringify` of `plainReadings(a)` gives). */
export function readingsJson(a: ReadingsColumns): string {
  const parts: string[] = [
    `{"interval":${JSON.stringify(a.interval)},"from":${a.from},"to":${a.to},"timezone":${JSON.stringify(a.timezone)},"ts":${columnJson(a.ts)},"series":{`,
  ];
  let first = true;
  for (const [name, s] of Object.entries(a.series)) {
    parts.push(`${first ? '' : ','}${JSON.stringify(name)}:{"kind":"${s.kind}","unit":${JSON.stringify(s.unit)}`);
    first = false;
    const cols = s as unknown as Record<string, Column | undefined>;
    for (const key of COLUMN_KEYS[s.kind]) {
      const col = cols[key];
      if (col) parts.push(`,"${key}":${columnJson(col)}`);
    }
    if (s.kind === 'counter' && s.estimated) parts.push(`,"estimated":${JSON.stringify(s.estimated)}`);
    parts.push('}');
  }
  parts.push('}}');
  return parts.join('');
}

const plain = (col: Column): (number | null)[] => Array.from(col, (v) => (Number.isNaN(v) ? null : v));

/** The answer with JS arrays (nulls for NaN): what a client reads from `readingsJson`. */
export function plainReadings(a: ReadingsColumns): ReadingsResponse {
  const series: Record<string, Series> = {};
  for (const [name, s] of Object.entries(a.series)) {
    if (s.kind === 'instant') series[name] = { kind: 'instant', unit: s.unit, avg: plain(s.avg), min: plain(s.min), max: plain(s.max) };
    else if (s.kind === 'raw') series[name] = { kind: 'raw', unit: s.unit, values: plain(s.values) };
    else
      series[name] = {
        kind: 'counter',
        unit: s.unit,
        delta: plain(s.delta),
        ...(s.value ? { value: plain(s.value) } : {}),
        ...(s.estimated ? { estimated: s.estimated } : {}),
      };
  }
  return { interval: a.interval, from: a.from, to: a.to, timezone: a.timezone, ts: Array.from(a.ts), series };
}

/** Gives an answer's columns back to the read's column pool (readings.columns.ts) once it is written. */
export function releaseColumns(a: ReadingsColumns): void {
  giveColumn(a.ts);
  for (const s of Object.values(a.series)) for (const col of Object.values(s)) giveColumn(col);
}
