import { Readable } from 'node:stream';
import {
  EXPORT_LIST_LIMIT,
  EXPORT_RETENTION_MS,
  type ExportFormat,
  type ExportJob,
  type ExportRequestParsed,
  isStorableId,
  LANGUAGES,
  type Language,
  PARAMETER_NAMES,
  type ReadingInterval,
} from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import { serverDate } from '../../http/dates.js';
import { ApiError, keyedError, notFound } from '../../http/errors.js';
import type { JobContext, JobQueue, RunningJob } from '../../jobs/job-queue.js';
import { QueueFullError } from '../../jobs/job-queue.js';
import type { JobKinds } from '../../jobs/kinds.js';
import type { JobPool } from '../../jobs/pool.js';
import type { DeviceRow, JobRow } from '../../storage/schema.js';
import { moduleUrl } from '../../storage/worker.js';
import type { DeviceReads } from '../devices/index.js';
import type { ExportJobInput } from './export-job.js';
import type { LedgerSection, TariffCostSection } from './export-pdf.js';
import { EXPORTS_QUEUE, type ExportsRepository } from './exports.repository.js';

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
  /** The worker thread the file was read and rendered on (never the main thread's 0). */
  threadId?: number;
}

/**
 * What the report adds when other modules know it: the device's location and the cost of the period per
 * tariff zone (the tariffs module fills it; until then, no location and no cost section).
 */
export interface ReportExtras {
  locationName(userId: number, device: DeviceRow): Promise<string | null>;
  tariffCosts(userId: number, device: DeviceRow, from: number, to: number): Promise<TariffCostSection | null>;
  /** Issue 33: the prosumer ledger of the device's location over the report's months, when the prosumer module is there. */
  prosumerLedger?(userId: number, device: DeviceRow, from: number, to: number): Promise<LedgerSection | null>;
  /** Issue 30: the power-quality PDF job (modules/power-quality/power-quality.job.ts), when that module is there. */
  powerQuality?: ReportCheck;
}

/**
 * What the exports need of a report that is not a data export (the power-quality PDF): its request checked
 * as its own route checks it (404 / 400), answering the period as UTC epoch ms. The report's module
 * implements it; exports import nothing of it.
 */
export interface ReportCheck {
  check(userId: number, deviceId: number, week: string): Promise<{ from: number; to: number }>;
}

/** The input of a report's job kind (the `power-quality-pdf` kind), as the exports queue it. */
export interface ReportKindInput {
  userId: number;
  attempt: number;
  deviceId: number;
  week: string;
  language: Language;
  /** The request's "now" on the main thread: the week must have started by then, and the report says when it was made. */
  now: number;
}

/** The job kinds of the exports (module URLs; app.ts hands them to the job pool): a data export's file. */
export const EXPORT_JOB_KINDS: JobKinds = { export: moduleUrl(import.meta.url, 'export-job') };

export const NO_EXTRAS: ReportExtras = {
  locationName: async () => null,
  tariffCosts: async () => null,
};

export interface ExportsDeps {
  repo: ExportsRepository;
  devices: DeviceReads;
  queue: JobQueue;
  /** The worker threads the exports' reading and rendering run on. */
  pool: JobPool;
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

  /**
   * Runs an export in the job pool (the `export` kind, export-job.ts): the reading and the file's rendering
   * happen on a worker thread; here only what other modules add to a report is found, and the file's
   * pieces are stored as the worker sends them.
   */
  private async run(job: RunningJob<ExportPayload>, ctx: JobContext): Promise<ExportResult> {
    const p = job.payload;
    if (p.report === 'power-quality' && p.week) {
      // Issue 30's report: loaded and rendered on a job thread (the `power-quality-pdf` kind).
      const pq: ReportKindInput = {
        userId: job.userId,
        attempt: job.attempt,
        deviceId: p.deviceId,
        week: p.week,
        language: p.language,
        now: this.now(),
      };
      return (await this.deps.pool.run('power-quality-pdf', pq, {
        signal: ctx.signal,
        progress: (f) => ctx.progress(f),
        save: (seq, data) => this.repo.saveChunk(job.id, job.attempt, seq, data),
      })) as ExportResult;
    }
    let extras: ExportJobInput['extras'] = null;
    if (p.format === 'pdf') {
      const device = await this.deps.devices.findForUser(job.userId, p.deviceId);
      if (!device) throw new Error('the device was deleted');
      extras = {
        location: await this.extras.locationName(job.userId, device),
        costs: await this.extras.tariffCosts(job.userId, device, p.from, p.to),
        ledger: (await this.extras.prosumerLedger?.(job.userId, device, p.from, p.to)) ?? null,
      };
    }
    const input: ExportJobInput = { userId: job.userId, attempt: job.attempt, payload: p, extras, createdAt: this.now() };
    return (await this.deps.pool.run('export', input, {
      signal: ctx.signal,
      progress: (f) => ctx.progress(f),
      save: (seq, data) => this.repo.saveChunk(job.id, job.attempt, seq, data),
    })) as ExportResult;
  }
}
