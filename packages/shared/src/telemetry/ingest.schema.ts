import { z } from 'zod';
import { isWellFormedText } from '../validation/text.js';
import { type ParameterInfo, parameterInfo, readingValueProblem } from './parameters.js';

/** Most readings one ingest request (or MQTT message) may carry. */
export const MAX_INGEST_BATCH = 5000;
/** Readings stamped further ahead of the server clock than this are rejected (device clock wrong). */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000;

/**
 * One reading: `ts` ISO-8601 with `Z` or an offset, `values` parameter → number. Parameter names and
 * the time window are checked by the server (they depend on the catalogue and the clock).
 */
export const ingestReadingSchema = z.strictObject({
  ts: z
    .string({ error: 'validation.dateTime' })
    .min(1, { error: 'validation.dateTime' })
    .max(40, { error: 'validation.dateTime' })
    .refine(isWellFormedText, { error: 'validation.invalidText' }),
  // A name with a lone surrogate is refused here, on `values`, rather than echoed back in a field name.
  values: z
    .record(z.string(), z.number({ error: 'validation.number' }))
    .refine((v) => Object.keys(v).every(isWellFormedText), { error: 'validation.invalidText' }),
});
export type IngestReading = z.infer<typeof ingestReadingSchema>;

/** `POST /api/ingest` (header `X-Device-Key`) and the MQTT payload (which may add the key as `key`). */
export const ingestRequestSchema = z.strictObject({
  readings: z
    .array(ingestReadingSchema)
    .min(1, { error: 'validation.required' })
    .max(MAX_INGEST_BATCH, { error: `at most ${MAX_INGEST_BATCH} readings per request` }),
});
export type IngestRequest = z.infer<typeof ingestRequestSchema>;

/** MQTT topic a device publishes its readings on (`+` as the MAC subscribes to every device). */
export function mqttReadingsTopic(mac: string): string {
  return `phasewatch/${mac}/readings`;
}

export const ingestResponseSchema = z.object({ accepted: z.number().int() });
export type IngestResponse = z.infer<typeof ingestResponseSchema>;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What one pass over a well-formed request found, apart from what depends on the clock. */
export interface IngestRequestCheck {
  /** Epoch ms of each reading's `ts` (NaN where it is not a valid timestamp). */
  ts: Float64Array;
  /** Smallest and largest of `ts` (meaningful only when `clean`). */
  minTs: number;
  maxTs: number;
  /** Timestamps strictly increasing, reading after reading. */
  ordered: boolean;
  /**
   * Every timestamp parses, every reading has a parameter and every value is acceptable for its
   * parameter: only the time window (clock, retention) is left to check.
   */
  clean: boolean;
}

/**
 * One allocation-light pass over a parsed request: null unless `ingestRequestSchema` accepts `data`
 * as it is in the usual shape (values keyed by catalogue parameters); otherwise the timestamps and
 * what the server would say about the values, so it need not loop over the batch again. zod spends
 * ~4 µs a reading building a copy of a 5,000-reading batch, more than SQLite takes to store it; a
 * body this refuses goes through the schema, which then gives its exact field errors (or accepts it).
 */
export function checkIngestRequest(data: unknown): IngestRequestCheck | null {
  if (!isPlainObject(data)) return null;
  for (const k in data) if (k !== 'readings') return null;
  const readings = data.readings;
  if (!Array.isArray(readings) || readings.length < 1 || readings.length > MAX_INGEST_BATCH) return null;
  const tss = new Float64Array(readings.length);
  let clean = true;
  let ordered = true;
  let minTs = Number.POSITIVE_INFINITY;
  let maxTs = Number.NEGATIVE_INFINITY;
  let prev = Number.NEGATIVE_INFINITY;
  // A batch repeats one set of parameters in one order: the catalogue entries of the previous
  // reading's names, by position, answer for every name equal to the one seen there.
  const seenNames: string[] = [];
  const seenInfos: ParameterInfo[] = [];
  for (let i = 0; i < readings.length; i++) {
    const r: unknown = readings[i];
    if (!isPlainObject(r)) return null;
    let keys = 0;
    for (const k in r) {
      if (k !== 'ts' && k !== 'values') return null;
      keys++;
    }
    const ts = r.ts;
    const values = r.values;
    if (keys !== 2 || typeof ts !== 'string' || ts.length < 1 || ts.length > 40 || !isPlainObject(values)) return null;
    let n = 0;
    for (const name in values) {
      const v = values[name];
      if (typeof v !== 'number' || !Number.isFinite(v)) return null;
      let info: ParameterInfo | undefined;
      if (seenNames[n] === name) info = seenInfos[n];
      else {
        info = parameterInfo(name);
        if (info === undefined) return null;
        seenNames[n] = name;
        seenInfos[n] = info;
      }
      if (clean && readingValueProblem(info as ParameterInfo, v) !== null) clean = false;
      n++;
    }
    if (n === 0) clean = false;
    const t = parseIsoTimestamp(ts);
    if (t === null) {
      tss[i] = Number.NaN;
      clean = false;
      continue;
    }
    tss[i] = t;
    if (t <= prev) ordered = false;
    prev = t;
    if (t < minTs) minTs = t;
    if (t > maxTs) maxTs = t;
  }
  return { ts: tss, minTs, maxTs, ordered, clean };
}

/**
 * True when `data` is a request `ingestRequestSchema` accepts in the usual shape (see
 * `checkIngestRequest`). `true` always implies the schema accepts `data` as it is.
 */
export function isWellFormedIngestRequest(data: unknown): data is IngestRequest {
  return checkIngestRequest(data) !== null;
}

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** True when `YYYY-MM-DD` at the start of `s` is a real calendar date (Date.parse rolls 02-31 into March). */
function realCalendarDate(s: string): boolean {
  const y = Number(s.slice(0, 4));
  const m = Number(s.slice(5, 7));
  const d = Number(s.slice(8, 10));
  return m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Epoch ms of an ISO-8601 timestamp that names its zone (`Z` or an offset); null otherwise. */
export function parseIsoTimestamp(s: string): number | null {
  const fast = parseUtcIsoFast(s);
  if (fast !== undefined) return fast;
  if (!ISO_WITH_ZONE.test(s) || !realCalendarDate(s)) return null;
  const ms = Date.parse(s);
  return Number.isFinite(ms) ? ms : null;
}

let hourPrefix = '';
let hourStart = 0;

const digits = (s: string, at: number, n: number): number => {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
};

/**
 * `YYYY-MM-DDTHH:MM:SS(.sss)Z`, what `toISOString` writes and devices send in batches of consecutive
 * readings: the hour's start is parsed once (by the general path) and cached, minutes, seconds and
 * milliseconds are read as digits. Undefined for any other shape, which the general path then judges,
 * so the answers are the same as regex plus `Date.parse`, only without their cost per reading.
 */
function parseUtcIsoFast(s: string): number | undefined {
  const len = s.length;
  if ((len !== 24 && len !== 20) || s.charCodeAt(len - 1) !== 90 /* Z */ || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58)
    return undefined;
  if (len === 24 && s.charCodeAt(19) !== 46 /* . */) return undefined;
  // Hour 24 parses only as 24:00:00 (the next midnight), so it takes the general path.
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  const ms = len === 24 ? digits(s, 20, 3) : 0;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return undefined;
  // The cached hour answers when `s` starts with it (hourPrefix is empty or 13 characters): no substring per call.
  if (hourPrefix.length !== 13 || !s.startsWith(hourPrefix)) {
    const prefix = s.slice(0, 13);
    const whole = `${prefix}:00:00Z`;
    if (!ISO_WITH_ZONE.test(whole) || !realCalendarDate(whole)) return undefined;
    const start = Date.parse(whole);
    if (!Number.isFinite(start)) return undefined;
    hourPrefix = prefix;
    hourStart = start;
  }
  return hourStart + minute * 60_000 + second * 1000 + ms;
}
