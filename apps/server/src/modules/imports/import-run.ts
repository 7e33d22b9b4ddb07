import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import {
  IMPORT_MAX_LINE_BYTES,
  IMPORT_REFUSED_LISTED,
  type ImportFormat,
  type ImportMapping,
  type ImportProblem,
  type ImportProblemKey,
  type ImportRefusal,
  type ImportRefusalKey,
  type ImportUnit,
  importMessage,
  MAX_FUTURE_SKEW_MS,
  PARAMETER_NAMES,
  type ParameterInfo,
  parameterInfo,
  readingValueProblem,
} from '@phasewatch/shared';
import { detectDelimiter, isKnownZone, LocalTimes, parseNumber, parseTime, splitLine } from './import-csv.js';

/*
 * The work of one import, self-contained so it can run wherever jobs run (a job thread of the pool: the
 * `import` kind, import.kind.ts, whose store sends its writes to the main thread): a file path and plain
 * settings in, readings out through `ImportStore`, a summary through the progress callback. The file is read as a stream, a chunk of rows at
 * a time, so memory does not grow with the file (Home Assistant statistics excepted: hourly rows of several
 * statistics one after another are gathered by time first, bounded by the row limit).
 */

export interface ImportSettings {
  deviceId: number;
  format: ImportFormat;
  mapping?: ImportMapping | undefined;
  dryRun: boolean;
  /** The user's timezone: times without a zone are read in it (unless the mapping names a zone). */
  tz: string;
  /** The device's rollups' zone (its owner's): local days are built in it. */
  deviceTz: string;
  now: number;
  /** Readings before this are refused (raw retention). */
  oldest: number;
  /** Data rows read at most; the rest are refused. */
  maxRows: number;
}

/** A chunk of readings as the readings writer takes it (sorted, unique timestamps; NaN: no value). */
export interface ImportBatch {
  deviceId: number;
  tz: string;
  index: number[];
  ts: Float64Array;
  cols: Float64Array[];
}

/** Where an import reads what the device has and writes what it brings. */
export interface ImportStore {
  /** Times in [from, to] the device has a reading at. */
  existing(deviceId: number, from: number, to: number): Promise<ArrayLike<number>>;
  /** Writes a chunk through the readings write path (late readings and whole hours roll up there). */
  write(batch: ImportBatch): Promise<void>;
}

export interface ImportSummary {
  rows: number;
  imported: number;
  duplicates: number;
  refused: ImportRefusal[];
  refusedCount: number;
  from: number | null;
  to: number | null;
  parameters: string[];
  columns: string[];
  timezone: string;
  localTimes: boolean;
  problem: ImportProblem | null;
}

/**
 * Rows per chunk written (one transaction each). 2,000 rather than 4,000: a shorter transaction keeps live
 * ingest's waits behind it short (PostgreSQL, an import beside 200 meters: ingest p99 197 → 130 ms, other
 * users' 150 → 94 ms) at a small cost in rate (the year's import 60 → 52 % of batch ingest; 1,000 was
 * slower still and no better for other users: 114 ms).
 */
export const CHUNK_ROWS = 2_000;
/**
 * After each chunk is stored the import waits this many times as long as the store took before its next
 * chunk: it keeps the writer and the database busy at most half the time, so live ingest and other users'
 * reads come first (PostgreSQL, 200 meters posting: other users' p99 170 ms during an import without it).
 */
export const IMPORT_GIVE_WAY = 1;
/** How often progress is reported (rows). */
const PROGRESS_EVERY_ROWS = 20_000;
const HOUR = 3_600_000;

interface ColumnPlan {
  field: number;
  param: number;
  scale: number;
  info: ParameterInfo;
  name: string;
}

interface RowPlan {
  kind: 'rows';
  time: number;
  zone: string | null;
  columns: ColumnPlan[];
}

interface HaPlan {
  kind: 'ha';
  id: number;
  start: number;
  sum: number;
  state: number;
  mean: number;
  unit: number;
  mapping: Map<string, { param: number; unit?: ImportUnit | undefined }>;
}

class Problem extends Error {
  constructor(
    readonly key: ImportProblemKey,
    readonly values: { value?: string; column?: string } = {},
  ) {
    super(key);
  }
}

/**
 * The factor a value in `unit` takes to the catalogue's unit (W, kWh): positive multiplies, negative
 * divides (1234500 Wh / 1000 is 1234.5 exactly; × 0.001 is not).
 */
function unitScale(unit: ImportUnit | undefined, info: ParameterInfo): number {
  if (!unit) return 1;
  if (info.unit === 'W') return unit === 'kW' ? 1000 : 1;
  if (info.unit === 'kWh') return unit === 'Wh' ? -1000 : 1;
  return 1;
}

const HEADER_PARAM = /^\s*([A-Za-z0-9_]+)\s*(?:\[([^\]]*)\])?\s*$/;
const CATALOGUE_INDEX = new Map(PARAMETER_NAMES.map((p, i) => [p, i]));

function planOf(header: string[], s: ImportSettings): RowPlan | HaPlan {
  const names = header.map((h) => h.trim());
  const lower = names.map((h) => h.toLowerCase());
  if (s.format === 'home-assistant') {
    const id = lower.indexOf('statistic_id');
    const start = lower.indexOf('start');
    const sum = lower.indexOf('sum');
    const state = lower.indexOf('state');
    const mean = lower.indexOf('mean');
    if (id < 0 || start < 0 || (sum < 0 && state < 0 && mean < 0)) throw new Problem('imports.problem.notHomeAssistant');
    const mapping = new Map<string, { param: number; unit?: ImportUnit | undefined }>();
    for (const c of s.mapping?.columns ?? []) mapping.set(c.column, { param: CATALOGUE_INDEX.get(c.parameter) as number, unit: c.unit });
    const unit = lower.findIndex((h) => h === 'unit' || h === 'unit_of_measurement');
    return { kind: 'ha', id, start, sum, state, mean, unit, mapping };
  }
  if (s.format === 'phasewatch') {
    const time = lower.indexOf('time');
    if (time < 0) throw new Problem('imports.problem.noTimeColumn');
    const columns: ColumnPlan[] = [];
    names.forEach((h, field) => {
      if (field === time) return;
      const m = HEADER_PARAM.exec(h);
      const param = m ? CATALOGUE_INDEX.get(m[1] as string) : undefined;
      if (param === undefined) return;
      const info = parameterInfo(m?.[1] as string) as ParameterInfo;
      columns.push({ field, param, scale: 1, info, name: h });
    });
    if (columns.length === 0) throw new Problem('imports.problem.noParameters');
    return { kind: 'rows', time, zone: null, columns };
  }
  const mapping = s.mapping;
  if (!mapping?.time) throw new Problem('imports.problem.needsMapping');
  const find = (column: string) => {
    const i = names.indexOf(column.trim());
    if (i < 0) throw new Problem('imports.problem.mappingColumn', { column });
    return i;
  };
  const time = find(mapping.time.column);
  const zone = mapping.time.zone ?? null;
  if (zone !== null && zone !== 'UTC' && !isKnownZone(zone)) throw new Problem('imports.problem.zone', { value: zone });
  const columns = mapping.columns.map((c) => {
    const info = parameterInfo(c.parameter) as ParameterInfo;
    return {
      field: find(c.column),
      param: CATALOGUE_INDEX.get(c.parameter) as number,
      scale: unitScale(c.unit, info),
      info,
      name: c.column,
    };
  });
  return { kind: 'rows', time, zone, columns };
}

/** Default parameter of a Home Assistant statistic without a mapping: energy import / export, or power. */
function haDefault(statisticId: string, hasSum: boolean): number | undefined {
  const id = statisticId.toLowerCase();
  if (hasSum) {
    if (/export|return|feed|produc|inject|solar|pv/.test(id)) return CATALOGUE_INDEX.get('energy3phases_export');
    return CATALOGUE_INDEX.get('energy3phases_import');
  }
  if (/power/.test(id)) return CATALOGUE_INDEX.get('power3phases');
  return undefined;
}

/** Reads the file line by line (the line limit bounds memory), calling `onLine` with each line and its number. */
async function readLines(
  path: string,
  onLine: (line: string, lineNo: number) => Promise<void> | void,
  onBytes: (read: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  let lineNo = 0;
  let read = 0;
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  for await (const buf of stream as AsyncIterable<Buffer>) {
    signal?.throwIfAborted();
    read += buf.length;
    const text = carry + decoder.write(buf);
    let start = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
      const end = i > start && text.charCodeAt(i - 1) === 13 ? i - 1 : i;
      lineNo++;
      const r = onLine(text.slice(start, end), lineNo);
      if (r) await r;
      start = i + 1;
    }
    carry = text.slice(start);
    if (carry.length > IMPORT_MAX_LINE_BYTES) throw new Error(`line ${lineNo + 1} is longer than ${IMPORT_MAX_LINE_BYTES} bytes`);
    onBytes(read);
  }
  carry += decoder.end();
  if (carry.length > 0) {
    lineNo++;
    const r = onLine(carry.endsWith('\r') ? carry.slice(0, -1) : carry, lineNo);
    if (r) await r;
  }
}

/** Rows of a chunk: their line, time and values (one Float64Array per catalogue parameter in use). */
class Chunk {
  lines: number[] = [];
  ts: number[] = [];
  /** Catalogue index → values by row (NaN: none). */
  values = new Map<number, number[]>();

  get size(): number {
    return this.ts.length;
  }

  add(line: number, ts: number): number {
    this.lines.push(line);
    this.ts.push(ts);
    return this.ts.length - 1;
  }

  set(row: number, param: number, v: number): void {
    let col = this.values.get(param);
    if (!col) {
      col = [];
      this.values.set(param, col);
    }
    while (col.length < row) col.push(Number.NaN);
    col[row] = v;
  }
}

/**
 * Reads the file at `path` into the device's readings (or, for a dry run, only counts what it would).
 * Rows refused are counted and the first IMPORT_REFUSED_LISTED listed with their line and reason; rows at a
 * time the device already has are skipped (never overwritten). A file that cannot be read at all ends with
 * `problem` set and nothing written.
 */
export async function runImport(
  path: string,
  s: ImportSettings,
  store: ImportStore,
  onProgress: (summary: ImportSummary, fraction: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<ImportSummary> {
  const summary: ImportSummary = {
    rows: 0,
    imported: 0,
    duplicates: 0,
    refused: [],
    refusedCount: 0,
    from: null,
    to: null,
    parameters: [],
    columns: [],
    timezone: s.mapping?.time?.zone ?? s.tz,
    localTimes: false,
    problem: null,
  };
  const size = (await stat(path)).size;
  let bytes = 0;
  const params = new Set<number>();
  const refuse = (line: number, key: ImportRefusalKey, values: { value?: string; column?: string; parameter?: string } = {}) => {
    summary.refusedCount++;
    if (summary.refused.length < IMPORT_REFUSED_LISTED)
      summary.refused.push({
        line,
        key,
        reason: importMessage(key, values),
        ...(values.value !== undefined ? { value: values.value.slice(0, 80) } : {}),
        ...(values.column !== undefined ? { column: values.column.slice(0, 80) } : {}),
      });
  };

  let pending: Promise<void> | null = null;
  // When the next chunk may go to the database: each write is followed by a pause of IMPORT_GIVE_WAY times
  // its own time, so the import leaves the writer and the database to live ingest and other users' reads.
  let resumeAt = 0;
  const flush = async (chunk: Chunk) => {
    if (chunk.size === 0) return;
    const n = chunk.size;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (chunk.ts[a] as number) - (chunk.ts[b] as number) || a - b);
    const keep: number[] = [];
    for (const i of order) {
      const prev = keep[keep.length - 1];
      if (prev !== undefined && chunk.ts[prev] === chunk.ts[i]) refuse(chunk.lines[i] as number, 'imports.refused.repeated');
      else keep.push(i);
    }
    // What an earlier chunk wrote must be stored before this one asks what the device has.
    if (pending) await pending;
    pending = null;
    const rest = resumeAt - Date.now();
    if (rest > 0) await new Promise((r) => setTimeout(r, rest));
    const lo = chunk.ts[keep[0] as number] as number;
    const hi = chunk.ts[keep[keep.length - 1] as number] as number;
    const have = new Set(Array.from(await store.existing(s.deviceId, lo, hi)));
    const rows = have.size ? keep.filter((i) => !have.has(chunk.ts[i] as number)) : keep;
    summary.duplicates += keep.length - rows.length;
    if (rows.length === 0) return;
    const index = [...chunk.values.keys()].sort((a, b) => a - b);
    const ts = Float64Array.from(rows, (i) => chunk.ts[i] as number);
    const cols = index.map((p) => {
      const src = chunk.values.get(p) as number[];
      return Float64Array.from(rows, (i) => (i < src.length ? (src[i] as number) : Number.NaN));
    });
    const used = index.map((_, j) => (cols[j] as Float64Array).some((v) => !Number.isNaN(v)));
    for (let j = 0; j < index.length; j++) if (used[j]) params.add(index[j] as number);
    summary.imported += rows.length;
    summary.from = Math.min(summary.from ?? Number.POSITIVE_INFINITY, ts[0] as number);
    summary.to = Math.max(summary.to ?? Number.NEGATIVE_INFINITY, ts[ts.length - 1] as number);
    if (s.dryRun) return;
    const batch: ImportBatch = {
      deviceId: s.deviceId,
      tz: s.deviceTz,
      index: index.filter((_, j) => used[j]),
      ts,
      cols: cols.filter((_, j) => used[j]),
    };
    const sent = Date.now();
    pending = store.write(batch).then(() => {
      resumeAt = Date.now() + (Date.now() - sent) * IMPORT_GIVE_WAY;
    });
    // Awaited before the next chunk's question (or at the end); a failure surfaces there.
    pending.catch(() => {});
  };

  let plan: RowPlan | HaPlan | null = null;
  let delimiter = ',';
  let decimalComma = false;
  const fields: string[] = [];
  let chunk = new Chunk();
  let lastProgress = 0;
  const local = new LocalTimes(summary.timezone);
  /** Home Assistant: readings gathered by time (statistics come one after another). */
  const haRows = new Map<number, { line: number; values: Map<number, number> }>();
  const haUnmapped = new Set<string>();

  const timeOf = (text: string, line: number, zone: string | null, series = ''): number | null => {
    const t = parseTime(text);
    if (!t) {
      refuse(line, 'imports.refused.time', { value: text });
      return null;
    }
    let ts: number | null;
    if (t.offset !== null) {
      ts = t.wall - t.offset;
      local.saw(ts, series);
    } else if (zone === 'UTC') ts = t.wall;
    else {
      summary.localTimes = true;
      ts = local.resolve(t.wall, series);
      if (ts === null) {
        refuse(line, 'imports.refused.dstGap', { value: text });
        return null;
      }
    }
    if (ts < s.oldest) {
      refuse(line, 'imports.refused.retention', { value: text });
      return null;
    }
    if (ts > s.now + MAX_FUTURE_SKEW_MS) {
      refuse(line, 'imports.refused.future', { value: text });
      return null;
    }
    return ts;
  };

  const value = (text: string, info: ParameterInfo, scale: number, line: number, column: string): number | null | undefined => {
    const v = parseNumber(text, decimalComma);
    if (v !== null && Number.isNaN(v)) return undefined;
    const scaled = v === null ? Number.NaN : scale < 0 ? v / -scale : v * scale;
    if (v === null || readingValueProblem(info, scaled) !== null) {
      refuse(line, 'imports.refused.value', { value: text, column, parameter: info.name });
      return null;
    }
    return scaled;
  };

  const onLine = async (raw: string, lineNo: number) => {
    if (plan === null) {
      const header = lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (header.trim() === '') return;
      delimiter = detectDelimiter(header);
      decimalComma = delimiter !== ',';
      summary.columns = splitLine(header, delimiter).map((c) => c.trim().slice(0, 200));
      plan = planOf(summary.columns, s);
      return;
    }
    if (raw.trim() === '') return;
    summary.rows++;
    if (summary.rows > s.maxRows) {
      refuse(lineNo, 'imports.refused.tooManyRows');
      return;
    }
    splitLine(raw, delimiter, fields);
    if (plan.kind === 'ha') {
      const p = plan;
      const id = (fields[p.id] ?? '').trim();
      const hasSum = p.sum >= 0 && (fields[p.sum] ?? '').trim() !== '';
      const mapped = p.mapping.get(id);
      const param = mapped?.param ?? (p.mapping.size === 0 ? haDefault(id, hasSum) : undefined);
      if (param === undefined) {
        haUnmapped.add(id);
        refuse(lineNo, 'imports.refused.statistic', { column: id });
        return;
      }
      const info = parameterInfo(PARAMETER_NAMES[param] as string) as ParameterInfo;
      const counter = info.kind === 'counter';
      const start = timeOf(fields[p.start] ?? '', lineNo, null, id);
      if (start === null) return;
      // A counter is the cumulative `sum` at the end of the hour; an instantaneous value the hour's mean.
      const field = counter ? (hasSum ? p.sum : p.state) : p.mean >= 0 ? p.mean : p.state;
      const unitText = p.unit >= 0 ? (fields[p.unit] ?? '').trim() : '';
      const unit = mapped?.unit ?? ((['W', 'kW', 'Wh', 'kWh'] as string[]).includes(unitText) ? (unitText as ImportUnit) : undefined);
      const v = value(fields[field] ?? '', info, unitScale(unit, info), lineNo, id);
      if (v === undefined) {
        refuse(lineNo, 'imports.refused.empty');
        return;
      }
      if (v === null) return;
      const ts = counter ? start + HOUR : start;
      let row = haRows.get(ts);
      if (!row) {
        row = { line: lineNo, values: new Map() };
        haRows.set(ts, row);
      }
      row.values.set(param, v);
      return;
    }
    const p = plan;
    if (fields.length < summary.columns.length && fields.length <= Math.max(p.time, ...p.columns.map((c) => c.field))) {
      refuse(lineNo, 'imports.refused.columns', { value: String(fields.length), column: String(summary.columns.length) });
      return;
    }
    const ts = timeOf(fields[p.time] ?? '', lineNo, p.zone);
    if (ts === null) return;
    let any = false;
    const vals: [number, number][] = [];
    for (const c of p.columns) {
      const v = value(fields[c.field] ?? '', c.info, c.scale, lineNo, c.name);
      if (v === null) return;
      if (v === undefined) continue;
      vals.push([c.param, v]);
      any = true;
    }
    if (!any) {
      refuse(lineNo, 'imports.refused.empty');
      return;
    }
    const row = chunk.add(lineNo, ts);
    for (const [param, v] of vals) chunk.set(row, param, v);
    if (chunk.size >= CHUNK_ROWS) {
      const full = chunk;
      chunk = new Chunk();
      await flush(full);
    }
    if (summary.rows - lastProgress >= PROGRESS_EVERY_ROWS) {
      lastProgress = summary.rows;
      await onProgress(snapshot(), Math.min(0.99, bytes / Math.max(1, size)));
    }
  };

  const snapshot = (): ImportSummary => ({
    ...summary,
    refused: [...summary.refused],
    parameters: PARAMETER_NAMES.filter((_, i) => params.has(i)),
  });

  try {
    await readLines(
      path,
      onLine,
      (n) => {
        bytes = n;
      },
      signal,
    );
    if (plan === null) throw new Problem('imports.problem.empty');
    if ((plan as RowPlan | HaPlan).kind === 'ha') {
      const times = [...haRows.keys()].sort((a, b) => a - b);
      for (const ts of times) {
        const r = haRows.get(ts) as { line: number; values: Map<number, number> };
        const row = chunk.add(r.line, ts);
        for (const [param, v] of r.values) chunk.set(row, param, v);
        if (chunk.size >= CHUNK_ROWS) {
          const full = chunk;
          chunk = new Chunk();
          await flush(full);
        }
      }
      haRows.clear();
    }
    await flush(chunk);
    if (pending) await pending;
  } catch (err) {
    if (!(err instanceof Problem)) throw err;
    summary.problem = { key: err.key, message: importMessage(err.key, err.values), ...err.values };
    summary.imported = 0;
  }
  const out = snapshot();
  await onProgress(out, 1);
  return out;
}
