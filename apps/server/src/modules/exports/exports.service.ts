import { once } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  addLocalDays,
  EXPORT_LIST_LIMIT,
  EXPORT_RETENTION_MS,
  type ExportFormat,
  type ExportJob,
  type ExportRequestParsed,
  energyDirection,
  FALLBACK_TIMEZONE,
  isStorableId,
  LANGUAGES,
  type Language,
  PARAMETER_NAMES,
  parameterInfo,
  type ReadingInterval,
  startOfLocalDay,
} from '@phasewatch/shared';
import { stringify } from 'csv-stringify';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, keyedError, notFound } from '../../http/errors.js';
import type { JobContext, JobQueue, RunningJob } from '../../jobs/job-queue.js';
import { QueueFullError } from '../../jobs/job-queue.js';
import type { DeviceRow, JobRow } from '../../storage/schema.js';
import { serverDate } from '../accounts/accounts.service.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { PowerQualityPdfJob } from '../power-quality/power-quality.job.js';
import { releaseColumns } from '../readings/readings.json.js';
import { columnName, type ExportBlock, type ExportSource, exportBlocks, plainNumber, presentParameters } from './export-data.js';
import { type PdfReport, type PdfStat, renderPdf, type TariffCostSection } from './export-pdf.js';
import { ChunkSink, EXPORTS_QUEUE, type ExportsRepository } from './exports.repository.js';
import { ZonedIso } from './zoned-iso.js';

/** What a queued export holds (the job's payload). */
export interface ExportPayload {
  deviceId: number;
  deviceName: string;
  /** Asked-for parameters in catalogue order (empty with `allParameters`). */
  parameters: string[];
  allParameters: boolean;
  from: number;
  to: number;
  interval: ReadingInterval;
  format: ExportFormat;
  fileName: string;
  language: Language;
  /** Issue 30: a report instead of a data export (power-quality: the PDF of the local week starting on `week`). */
  report?: 'power-quality';
  week?: string;
}

/** What a finished export stored (the job's result): where its file is and what it holds. */
export interface ExportResult {
  attempt: number;
  chunks: number;
  size: number;
  parameters: string[];
}

/**
 * What the report adds when other modules know it: the device's location and the cost of the period per
 * tariff zone (the tariffs module fills it; until then, no location and no cost section).
 */
export interface ReportExtras {
  locationName(userId: number, device: DeviceRow): Promise<string | null>;
  tariffCosts(userId: number, device: DeviceRow, from: number, to: number): Promise<TariffCostSection | null>;
  /** Issue 30: the power-quality PDF job (modules/power-quality/power-quality.job.ts), when that module is there. */
  powerQuality?: PowerQualityPdfJob;
}

export const NO_EXTRAS: ReportExtras = {
  locationName: async () => null,
  tariffCosts: async () => null,
};

export interface ExportsDeps {
  repo: ExportsRepository;
  devices: DevicesRepository;
  source: ExportSource;
  queue: JobQueue;
  log: FastifyBaseLogger;
  /** Tells the owner's hub connections that a file is ready. */
  notifyReady(userId: number, job: ExportJob): void;
  extras?: ReportExtras;
  now?: () => number;
}

const deviceNotFound = () => keyedError(404, 'errors.deviceNotFound', { field: 'deviceId' });
const exportNotFound = () => notFound('Export not found');

const downloadUrl = (id: string) => `/api/exports/${id}/download`;

function parse<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** The file name a download carries: `<fileName>.csv|.pdf`. */
export function fileNameOf(job: Pick<ExportPayload, 'fileName' | 'format'>): string {
  return `${job.fileName}.${job.format}`;
}

/**
 * `Content-Disposition` of a download: the UTF-8 name (RFC 6266 / 5987) and a plain ASCII fallback for old
 * clients. Names never hold quotes, slashes or control characters (the request schema refuses them).
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Exports as background jobs (spec sections 2, 4, 8): a request is checked and queued at once (202), the
 * queue's worker writes the file into stored pieces (CSV streamed row by row, PDF rendered), the owner is
 * told through the hub's `exportReady`, and the file can be downloaded again until it expires.
 */
export class ExportsService {
  private readonly repo: ExportsRepository;
  private readonly now: () => number;
  private readonly extras: ReportExtras;

  constructor(private readonly deps: ExportsDeps) {
    this.repo = deps.repo;
    this.now = deps.now ?? Date.now;
    this.extras = deps.extras ?? NO_EXTRAS;
    deps.queue.register<ExportPayload, ExportResult>(EXPORTS_QUEUE, {
      run: (job, ctx) => this.run(job, ctx),
      reset: (id) => this.repo.deleteChunks(id),
      finished: (row) => {
        if (row.status === 'done') this.deps.notifyReady(row.user_id, this.toJob(row));
      },
      keepMs: EXPORT_RETENTION_MS,
    });
  }

  private toJob(row: JobRow): ExportJob {
    const p = parse<ExportPayload>(row.payload) as ExportPayload;
    const result = parse<ExportResult>(row.result);
    return {
      id: row.id,
      status: row.status,
      progress: row.status === 'done' ? 1 : Math.round(row.progress * 1000) / 1000,
      fileName: p.fileName,
      format: p.format,
      deviceId: p.deviceId,
      deviceName: p.deviceName,
      parameters: result?.parameters ?? p.parameters,
      allParameters: p.allParameters,
      interval: p.interval,
      from: p.from,
      to: p.to,
      createdAt: serverDate(row.created_at),
      finishedAt: row.finished_at === null ? null : serverDate(row.finished_at),
      expiresAt: row.expires_at === null ? null : serverDate(row.expires_at),
      size: result?.size ?? null,
      error: row.status === 'failed' ? (row.error ?? 'failed') : null,
      downloadUrl: downloadUrl(row.id),
    };
  }

  /** Checks the request against the user's device and queues it; 503 with Retry-After when the queue is full. */
  async create(userId: number, req: ExportRequestParsed): Promise<ExportJob> {
    const device = isStorableId(req.deviceId) ? await this.deps.devices.findForUser(userId, req.deviceId) : undefined;
    if (!device) throw deviceNotFound();
    const settings = await this.repo.userSettings(userId);
    const language =
      req.language ?? ((LANGUAGES as readonly string[]).includes(settings?.language ?? '') ? (settings?.language as Language) : 'en');
    // ---- issue 30 (power quality): the report's PDF is checked like its route, then queued as an export.
    if (req.report === 'power-quality') {
      const pq = this.extras.powerQuality;
      if (!pq) throw new Error('the power-quality module is not wired into the exports');
      const { from, to } = await pq.check(userId, device.id, req.week);
      return this.enqueue(userId, {
        deviceId: device.id,
        deviceName: device.name,
        parameters: [],
        allParameters: false,
        from,
        to,
        interval: '15m',
        format: 'pdf',
        fileName: req.fileName,
        language,
        report: 'power-quality',
        week: req.week,
      });
    }
    // ---- end of issue 30's edit.
    const asked = new Set(req.parameters);
    const payload: ExportPayload = {
      deviceId: device.id,
      deviceName: device.name,
      parameters: req.allParameters ? [] : PARAMETER_NAMES.filter((p) => asked.has(p)),
      allParameters: req.allParameters === true,
      from: req.from,
      to: req.to,
      interval: req.interval,
      format: req.format,
      fileName: req.fileName,
      language,
    };
    return this.enqueue(userId, payload);
  }

  private async enqueue(userId: number, payload: ExportPayload): Promise<ExportJob> {
    try {
      return this.toJob(await this.deps.queue.enqueue(EXPORTS_QUEUE, userId, payload));
    } catch (err) {
      if (err instanceof QueueFullError)
        throw keyedError(503, 'messages.exportBusy', { headers: { 'retry-after': String(err.retryAfterSeconds) } });
      throw err;
    }
  }

  async list(userId: number): Promise<ExportJob[]> {
    return (await this.repo.listForUser(userId, EXPORT_LIST_LIMIT)).map((r) => this.toJob(r));
  }

  async get(userId: number, id: string): Promise<ExportJob> {
    const row = await this.repo.findForUser(userId, id);
    if (!row) throw exportNotFound();
    return this.toJob(row);
  }

  /** The finished file as a stream of its stored pieces; 409 while it is not ready (or failed). */
  async download(userId: number, id: string): Promise<{ stream: Readable; name: string; format: ExportFormat; size: number }> {
    const row = await this.repo.findForUser(userId, id);
    if (!row) throw exportNotFound();
    const result = parse<ExportResult>(row.result);
    if (row.status !== 'done' || !result) {
      throw new ApiError(409, `The export is ${row.status}, not ready to download`, [{ field: 'id', message: `export is ${row.status}` }]);
    }
    const p = parse<ExportPayload>(row.payload) as ExportPayload;
    const repo = this.repo;
    const { chunks, attempt } = result;
    async function* pieces() {
      for (let seq = 0; seq < chunks; seq++) {
        const data = await repo.readChunk(id, attempt, seq);
        // Expired and swept while being sent: the answer ends short (its length says so).
        if (!data) return;
        yield Buffer.from(data);
      }
    }
    return { stream: Readable.from(pieces(), { objectMode: false }), name: fileNameOf(p), format: p.format, size: result.size };
  }

  private async run(job: RunningJob<ExportPayload>, ctx: JobContext): Promise<ExportResult> {
    const p = job.payload;
    const device = await this.deps.devices.findForUser(job.userId, p.deviceId);
    if (!device) throw new Error('the device was deleted');
    // ---- issue 30 (power quality): the report's PDF, rendered by its module into the job's sink. The lead
    // moves this call into the worker-thread pool with issue 28 (the job takes plain inputs and a sink).
    if (p.report === 'power-quality' && p.week && this.extras.powerQuality) {
      const pqSink = new ChunkSink((seq, data) => this.repo.saveChunk(job.id, job.attempt, seq, data));
      await this.extras.powerQuality.render({ userId: job.userId, deviceId: p.deviceId, week: p.week, language: p.language }, pqSink, {
        signal: ctx.signal,
        progress: (share) => void ctx.progress(share).catch(() => {}),
      });
      await ctx.progress(1);
      return { attempt: job.attempt, chunks: pqSink.chunks, size: pqSink.size, parameters: [] };
    }
    // ---- end of issue 30's edit.
    const tz = (await this.repo.userSettings(job.userId))?.timezone ?? FALLBACK_TIMEZONE;
    const src = this.deps.source;
    const present = await presentParameters(src, { deviceId: p.deviceId, tz, from: p.from, to: p.to });
    // "All parameters" is what the device sent; asked-for ones it never sent stay as empty columns.
    const params = p.allParameters ? present : p.parameters;
    const sink = new ChunkSink((seq, data) => this.repo.saveChunk(job.id, job.attempt, seq, data));
    const range = { deviceId: p.deviceId, tz, params, interval: p.interval, from: p.from, to: p.to };
    if (p.format === 'csv') {
      await writeCsv(exportBlocks(src, range, ctx.signal), params, tz, sink, ctx);
    } else {
      const report = await this.report(job.userId, device, p, tz, params, ctx);
      await pipeline(renderPdf(report), sink, { signal: ctx.signal });
    }
    await ctx.progress(1);
    return { attempt: job.attempt, chunks: sink.chunks, size: sink.size, parameters: params };
  }

  /** Everything the PDF shows, read before it is drawn (a PDF's range is bounded: ~3,000 rows). */
  private async report(
    userId: number,
    device: DeviceRow,
    p: ExportPayload,
    tz: string,
    params: string[],
    ctx: JobContext,
  ): Promise<PdfReport> {
    const src = this.deps.source;
    const ts: number[] = [];
    const cols: number[][] = params.map(() => []);
    for await (const b of exportBlocks(
      src,
      { deviceId: p.deviceId, tz, params, interval: p.interval, from: p.from, to: p.to },
      ctx.signal,
    )) {
      for (let i = 0; i < b.ts.length; i++) {
        ts.push(b.ts[i] as number);
        for (let j = 0; j < params.length; j++) (cols[j] as number[]).push((b.cols[j] as ArrayLike<number>)[i] as number);
      }
      await ctx.progress(b.done * 0.6);
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
    await ctx.progress(0.8);

    return {
      language: p.language,
      tz,
      device: { name: device.name, model: device.model, typeName: device.type_name, mac: device.mac },
      location: await this.extras.locationName(userId, device),
      from: p.from,
      to: p.to,
      interval: p.interval,
      createdAt: this.now(),
      energy: { produced: direction === 'export', kwh: energyTotal },
      costs: await this.extras.tariffCosts(userId, device, p.from, p.to),
      stats,
      chart: { ts: chartTs, bucketMs: chartInterval === '24h' ? 86_400_000 : BUCKET_MS[chartInterval], energy, lines },
      table: { params, ts, cols },
    };
  }
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
  ctx: JobContext,
): Promise<void> {
  const csv = stringify({ record_delimiter: 'windows' });
  const piped = pipeline(csv, sink, { signal: ctx.signal });
  // A failure of the sink ends the writes below through the stringifier's error.
  piped.catch(() => {});
  if (!csv.write(['time', ...params.map(columnName)])) await once(csv, 'drain', { signal: ctx.signal });
  const iso = new ZonedIso(tz);
  for await (const b of blocks) {
    const n = b.ts.length;
    for (let i = 0; i < n; i++) {
      const row = new Array<string>(params.length + 1);
      row[0] = iso.format(b.ts[i] as number);
      for (let j = 0; j < params.length; j++) row[j + 1] = plainNumber((b.cols[j] as ArrayLike<number>)[i] as number);
      if (!csv.write(row)) await once(csv, 'drain', { signal: ctx.signal });
    }
    await ctx.progress(b.done);
  }
  csv.end();
  await piped;
}
