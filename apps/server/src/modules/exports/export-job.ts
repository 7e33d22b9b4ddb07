import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { addLocalDays, energyDirection, FALLBACK_TIMEZONE, parameterInfo, type ReadingInterval, startOfLocalDay } from '@phasewatch/shared';
import { stringify } from 'csv-stringify';
import type { JobKindContext } from '../../jobs/kinds.js';
import type { DeviceRow } from '../../storage/schema.js';
import { DevicesRepository } from '../devices/index.js';
import { releaseColumns } from '../readings/index.js';
import { columnName, type ExportBlock, type ExportSource, exportBlocks, plainNumber, presentParameters } from './export-data.js';
import type { LedgerSection, PdfReport, PdfStat, TariffCostSection } from './export-pdf.js';
import { ExportsRepository } from './exports.repository.js';
import type { ExportPayload, ExportResult } from './exports.service.js';
import { ZonedIso } from './zoned-iso.js';

/**
 * The `export` job kind (jobs/kinds.ts): reads the range through the worker thread's own connection and
 * writes the CSV (streamed row by row) or the PDF (rendered) into the job's sink. Runs in a worker thread
 * of the job pool, never on the main thread (exports.test.ts asserts the thread it ran on).
 */
export interface ExportJobInput {
  userId: number;
  attempt: number;
  payload: ExportPayload;
  /**
   * What the report adds from other modules (location, tariff costs, the location's prosumer ledger), found
   * on the main thread; null for a CSV.
   */
  extras: { location: string | null; costs: TariffCostSection | null; ledger?: LedgerSection | null } | null;
  /** The report's "created" time. */
  createdAt: number;
}

export async function run(input: ExportJobInput, ctx: JobKindContext): Promise<ExportResult> {
  const p = input.payload;
  const db = ctx.storage.db;
  const device = await new DevicesRepository(db, ctx.storage.dialect).findForUser(input.userId, p.deviceId);
  if (!device) throw new Error('the device was deleted');
  const tz = (await new ExportsRepository(db).userSettings(input.userId))?.timezone ?? FALLBACK_TIMEZONE;
  const src: ExportSource = { readings: ctx.readings, repo: ctx.readingsRepo };
  const present = await presentParameters(src, { deviceId: p.deviceId, tz, from: p.from, to: p.to });
  // "All parameters" is what the device sent; asked-for ones it never sent stay as empty columns.
  const params = p.allParameters ? present : p.parameters;
  const sink = ctx.sink();
  const range = { deviceId: p.deviceId, tz, params, interval: p.interval, from: p.from, to: p.to };
  if (p.format === 'csv') {
    await writeCsv(exportBlocks(src, range, ctx.signal), params, tz, sink, ctx.signal, ctx.progress);
  } else {
    const r = await report(input, device, tz, params, src, ctx);
    // pdfkit and its fonts load with the first PDF: a thread that only writes CSV starts without them.
    const { renderPdf } = await import('./export-pdf.js');
    await pipeline(renderPdf(r), sink, { signal: ctx.signal });
  }
  ctx.progress(1);
  return { attempt: input.attempt, chunks: sink.chunks, size: sink.size, parameters: params, threadId: ctx.threadId };
}

/** Everything the PDF shows, read before it is drawn (a PDF's range is bounded: ~3,000 rows). */
async function report(
  input: ExportJobInput,
  device: DeviceRow,
  tz: string,
  params: string[],
  src: ExportSource,
  ctx: JobKindContext,
): Promise<PdfReport> {
  const p = input.payload;
  const ts: number[] = [];
  const cols: number[][] = params.map(() => []);
  for await (const b of exportBlocks(src, { deviceId: p.deviceId, tz, params, interval: p.interval, from: p.from, to: p.to }, ctx.signal)) {
    for (let i = 0; i < b.ts.length; i++) {
      ts.push(b.ts[i] as number);
      for (let j = 0; j < params.length; j++) (cols[j] as number[]).push((b.cols[j] as ArrayLike<number>)[i] as number);
    }
    ctx.progress(b.done * 0.6);
  }
  const direction = energyDirection(device.type_code);
  const energyCounters = await src.readings.energyCounters(p.deviceId, direction);
  const instants = params.filter((x) => parameterInfo(x)?.kind !== 'counter');
  const counters = params.filter((x) => parameterInfo(x)?.kind === 'counter');
  const lineUnit = instants.length ? parameterInfo(instants[0] as string)?.unit : undefined;
  const lineParams = instants.filter((x) => parameterInfo(x)?.unit === lineUnit).slice(0, 3);

  // Chart buckets: the export's interval (raw rows drawn as quarter-hours).
  const chartInterval = p.interval === 'raw' ? '15m' : p.interval;
  const chartParams = [...new Set([...energyCounters, ...lineParams, ...counters])];
  const chartAnswer = await src.readings.readings(p.deviceId, tz, {
    from: p.from,
    to: p.to,
    interval: chartInterval,
    params: chartParams,
  });
  const chartTs = Array.from(chartAnswer.ts);
  const column = (name: string, key: 'delta' | 'avg'): (number | null)[] | null => {
    const s = chartAnswer.series[name] as Record<string, unknown> | undefined;
    const c = s?.[key] as Float64Array | undefined;
    return c ? Array.from(c, (v) => (Number.isNaN(v) ? null : v)) : null;
  };
  let energy: (number | null)[] | null = null;
  for (const c of energyCounters) {
    const d = column(c, 'delta');
    if (!d) continue;
    const sum: (number | null)[] = energy ?? chartTs.map(() => null);
    d.forEach((v, i) => {
      if (v !== null) sum[i] = Math.round(((sum[i] ?? 0) + v) * 1e6) / 1e6;
    });
    energy = sum;
  }
  const lines = lineParams.flatMap((x) => {
    const values = column(x, 'avg');
    return values ? [{ param: x, unit: parameterInfo(x)?.unit ?? '', values }] : [];
  });
  const perBucket = new Map(counters.map((c) => [c, column(c, 'delta')]));
  releaseColumns(chartAnswer);

  // Exact figures over the whole period: one bucket of the stored level the interval reads.
  const edges = statsEdges(p.interval, p.from, p.to, tz);
  const whole = await src.readings.readingsOver(p.deviceId, tz, edges.edges, edges.source, [...new Set([...params, ...energyCounters])]);
  const one = (name: string, key: 'avg' | 'min' | 'max' | 'delta'): number | null => {
    const s = whole.series[name] as Record<string, unknown> | undefined;
    const v = (s?.[key] as Float64Array | undefined)?.[0];
    return v === undefined || Number.isNaN(v) ? null : v;
  };
  const stats: PdfStat[] = params.map((x) => {
    const unit = parameterInfo(x)?.unit ?? '';
    if (parameterInfo(x)?.kind !== 'counter')
      return { param: x, unit, min: one(x, 'min'), max: one(x, 'max'), avg: one(x, 'avg'), total: null };
    const b = (perBucket.get(x) ?? []).filter((v): v is number => v !== null);
    return {
      param: x,
      unit,
      min: b.length ? Math.min(...b) : null,
      max: b.length ? Math.max(...b) : null,
      avg: b.length ? Math.round((b.reduce((a, c) => a + c, 0) / b.length) * 1e6) / 1e6 : null,
      total: one(x, 'delta'),
    };
  });
  const energyTotal = energyCounters.reduce<number | null>((acc, c) => {
    const v = one(c, 'delta');
    return v === null ? acc : Math.round(((acc ?? 0) + v) * 1e6) / 1e6;
  }, null);
  releaseColumns(whole);
  ctx.progress(0.8);

  return {
    language: p.language,
    tz,
    device: { name: device.name, model: device.model, typeName: device.type_name, mac: device.mac },
    location: input.extras?.location ?? null,
    from: p.from,
    to: p.to,
    interval: p.interval,
    createdAt: input.createdAt,
    energy: { produced: direction === 'export', kwh: energyTotal },
    costs: input.extras?.costs ?? null,
    ledger: input.extras?.ledger ?? null,
    stats,
    chart: { ts: chartTs, bucketMs: chartInterval === '24h' ? 86_400_000 : BUCKET_MS[chartInterval], energy, lines },
    table: { params, ts, cols },
  };
}

const BUCKET_MS = { '15m': 900_000, '30m': 1_800_000, '1h': 3_600_000 } as const;

/** One bucket covering the period on a stored level: its exact minimum, maximum, mean and energy. */
function statsEdges(interval: ReadingInterval, from: number, to: number, tz: string): { edges: number[]; source: '15m' | '1h' | 'day' } {
  if (interval === '24h') return { edges: [startOfLocalDay(from, tz), addLocalDays(startOfLocalDay(to - 1, tz), 1, tz)], source: 'day' };
  const w = interval === '1h' ? 3_600_000 : 900_000;
  return { edges: [Math.floor(from / w) * w, Math.ceil(to / w) * w], source: interval === '1h' ? '1h' : '15m' };
}

/**
 * Writes the CSV's records through csv-stringify into the sink: the header, then a row per reading or
 * bucket, a block at a time (progress reported per block). Records are written synchronously while the
 * stringifier takes them, waiting only when it asks to (a promise per record, as an async generator
 * gives, cost more than formatting the record).
 */
async function writeCsv(
  blocks: AsyncIterable<ExportBlock>,
  params: readonly string[],
  tz: string,
  sink: Writable,
  signal: AbortSignal,
  progress: (fraction: number) => void,
): Promise<void> {
  const csv = stringify({ record_delimiter: 'windows' });
  const piped = pipeline(csv, sink, { signal });
  // A failure of the sink ends the writes below through the stringifier's error.
  piped.catch(() => {});
  if (!csv.write(['time', ...params.map(columnName)])) await once(csv, 'drain', { signal });
  const iso = new ZonedIso(tz);
  for await (const b of blocks) {
    const n = b.ts.length;
    for (let i = 0; i < n; i++) {
      const row = new Array<string>(params.length + 1);
      row[0] = iso.format(b.ts[i] as number);
      for (let j = 0; j < params.length; j++) row[j + 1] = plainNumber((b.cols[j] as ArrayLike<number>)[i] as number);
      if (!csv.write(row)) await once(csv, 'drain', { signal });
    }
    progress(b.done);
  }
  csv.end();
  await piped;
}
