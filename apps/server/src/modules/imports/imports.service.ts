import { unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  type ApiFieldError,
  FALLBACK_TIMEZONE,
  type ImportFormat,
  type ImportJob,
  type ImportMapping,
  importFieldsSchema,
  isStorableId,
} from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { ApiError, keyedError } from '../../http/errors.js';
import { type JobContext, type JobQueue, QueueFullError, type RunningJob } from '../../jobs/job-queue.js';
import type { JobPool } from '../../jobs/pool.js';
import type { Database, JobRow } from '../../storage/schema.js';
import type { DeviceReads } from '../devices/index.js';
import type { ImportKindInput, ImportKindMessage, ImportKindResult } from './import.kind.js';
import type { ImportBatch, ImportSummary } from './import-run.js';
import { storeUpload } from './imports.upload.js';

export const IMPORTS_QUEUE = 'imports';
/** How long a finished import's summary is kept. */
const IMPORT_RETENTION_MS = 7 * 86_400_000;

/** What the job carries (the uploaded file stays on this instance's disk until the job finishes). */
export interface ImportPayload {
  deviceId: number;
  format: ImportFormat;
  mapping?: ImportMapping | undefined;
  dryRun: boolean;
  path: string;
  fileName: string;
}

export interface ImportsDeps {
  db: Kysely<Database>;
  queue: JobQueue;
  devices: DeviceReads;
  /** The job threads the import's reading and checking run on (the `import` kind). */
  pool: JobPool;
  /** Writes a batch of checked rows through the readings write path (the shared batch writer). */
  write(batch: ImportBatch): Promise<void>;
  /** Where uploads wait for their job (DATA_DIR/imports). */
  dir: string;
  maxBytes: number;
  maxRows: number;
  rawRetentionDays: number;
  log: FastifyBaseLogger;
  now?: () => number;
}

/** One multipart part as the route hands it over. */
export type ImportPart =
  | { type: 'file'; fieldname: string; filename: string; file: Readable }
  | { type: 'field'; fieldname: string; value: unknown };

const importNotFound = () => keyedError(404, 'errors.importNotFound');
const deviceNotFound = () => keyedError(404, 'errors.deviceNotFound');

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * History imports (issue 31): an upload is stored and queued (202), the job queue's worker runs it on a job
 * thread (`runImport` in the `import` kind; its rows written here), the summary is stored as it goes and
 * answered by `get`. Another user's device or import answers 404.
 */
export class ImportsService {
  private readonly now: () => number;

  constructor(private readonly deps: ImportsDeps) {
    this.now = deps.now ?? Date.now;
    deps.queue.register<ImportPayload, ImportKindResult>(IMPORTS_QUEUE, {
      run: (job, ctx) => this.run(job, ctx),
      finished: (row) => {
        const p = JSON.parse(row.payload) as ImportPayload;
        unlink(p.path).catch(() => {});
      },
      keepMs: IMPORT_RETENTION_MS,
    });
  }

  /** Reads the form's parts (the file streamed to disk), checks them, and queues the import. */
  async create(userId: number, parts: AsyncIterable<ImportPart>): Promise<{ id: string }> {
    const fields: Record<string, string> = {};
    let file: { path: string; name: string } | null = null;
    try {
      for await (const part of parts) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file' || file) {
            part.file.resume();
            throw keyedError(400, 'errors.unknownField', { field: part.fieldname });
          }
          const stored = await storeUpload(part.file, this.deps.dir, { maxBytes: this.deps.maxBytes, maxRows: this.deps.maxRows });
          file = { path: stored.path, name: path.basename(part.filename || 'import.csv').slice(0, 200) };
        } else {
          fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        }
      }
      if (!file) throw keyedError(400, 'errors.importNoFile', { field: 'file' });
      const parsed = importFieldsSchema.safeParse(fields);
      if (!parsed.success) {
        const errors: ApiFieldError[] = parsed.error.issues.map((i) => ({
          field: i.path.join('.') || (i.code === 'unrecognized_keys' ? i.keys.join(',') : 'body'),
          message: i.code === 'unrecognized_keys' ? 'unknown field' : i.message,
          ...(i.code === 'unrecognized_keys' ? { key: 'errors.unknownField' } : {}),
        }));
        throw new ApiError(400, errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
      }
      const f = parsed.data;
      const device = isStorableId(f.deviceId) ? await this.deps.devices.findForUser(userId, f.deviceId) : undefined;
      if (!device) throw deviceNotFound();
      if (f.format === 'generic' && !f.mapping?.time)
        throw new ApiError(400, 'mapping: a generic CSV needs the time column', [{ field: 'mapping', message: 'needs the time column' }]);
      const payload: ImportPayload = {
        deviceId: device.id,
        format: f.format,
        ...(f.mapping ? { mapping: f.mapping } : {}),
        dryRun: f.dryRun,
        path: file.path,
        fileName: file.name,
      };
      let row: JobRow;
      try {
        row = await this.deps.queue.enqueue(IMPORTS_QUEUE, userId, payload);
      } catch (err) {
        if (err instanceof QueueFullError)
          throw keyedError(503, 'messages.exportBusy', { headers: { 'retry-after': String(err.retryAfterSeconds) } });
        throw err;
      }
      file = null;
      await this.deps.db
        .insertInto('imports')
        .values({ id: row.id, user_id: userId, device_id: device.id, summary: null, updated_at: this.now() })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      return { id: row.id };
    } finally {
      if (file) await unlink(file.path).catch(() => {});
    }
  }

  async get(userId: number, id: string): Promise<ImportJob> {
    const row = await this.deps.db
      .selectFrom('jobs')
      .leftJoin('imports', 'imports.id', 'jobs.id')
      .select([
        'jobs.id',
        'jobs.status',
        'jobs.progress',
        'jobs.payload',
        'jobs.created_at',
        'jobs.finished_at',
        'jobs.result',
        'imports.summary',
      ])
      .where('jobs.id', '=', id)
      .where('jobs.user_id', '=', userId)
      .where('jobs.queue', '=', IMPORTS_QUEUE)
      .executeTakeFirst();
    if (!row) throw importNotFound();
    const p = JSON.parse(row.payload) as ImportPayload;
    const s = (row.result ? JSON.parse(row.result) : row.summary ? JSON.parse(row.summary) : null) as ImportSummary | null;
    return {
      id: row.id,
      status: row.status,
      dryRun: p.dryRun,
      format: p.format,
      deviceId: p.deviceId,
      fileName: p.fileName,
      progress: row.status === 'done' ? 1 : Math.round(Number(row.progress) * 1000) / 1000,
      rows: s?.rows ?? 0,
      imported: s?.imported ?? 0,
      duplicates: s?.duplicates ?? 0,
      refused: s?.refused ?? [],
      refusedCount: s?.refusedCount ?? 0,
      from: iso(s?.from ?? null),
      to: iso(s?.to ?? null),
      parameters: s?.parameters ?? [],
      columns: s?.columns ?? [],
      timezone: s?.timezone ?? p.mapping?.time?.zone ?? FALLBACK_TIMEZONE,
      localTimes: s?.localTimes ?? false,
      problem: s?.problem ?? null,
      createdAt: new Date(Number(row.created_at)).toISOString(),
      finishedAt: row.finished_at === null ? null : new Date(Number(row.finished_at)).toISOString(),
    };
  }

  /**
   * Runs an import in the job pool (the `import` kind, import.kind.ts): the file is read, parsed and checked
   * on a job thread, which looks up the device's existing times through its own read-only connection; the
   * batches of new rows it sends are written here, through the shared readings writer, and the summary so far
   * stored as it comes. A dry run sends no batch.
   */
  private async run(job: RunningJob<ImportPayload>, ctx: JobContext): Promise<ImportKindResult> {
    const p = job.payload;
    const device = await this.deps.devices.findForUser(job.userId, p.deviceId);
    if (!device) throw new Error('the device was deleted');
    const user = await this.deps.db.selectFrom('users').select(['timezone']).where('id', '=', job.userId).executeTakeFirst();
    const tz = user?.timezone ?? FALLBACK_TIMEZONE;
    const now = this.now();
    const save = async (summary: ImportSummary) => {
      await this.deps.db
        .updateTable('imports')
        .set({ summary: JSON.stringify(summary), updated_at: this.now() })
        .where('id', '=', job.id)
        .execute();
    };
    const input: ImportKindInput = {
      path: p.path,
      settings: {
        deviceId: p.deviceId,
        format: p.format,
        mapping: p.mapping,
        dryRun: p.dryRun,
        tz,
        deviceTz: tz,
        now,
        oldest: now - this.deps.rawRetentionDays * 86_400_000,
        maxRows: this.deps.maxRows,
      },
    };
    const result = (await this.deps.pool.run('import', input, {
      signal: ctx.signal,
      progress: (f) => ctx.progress(f),
      save: () => Promise.reject(new Error('an import writes no file')),
      message: async (data) => {
        const m = data as ImportKindMessage;
        if (m.type === 'batch') {
          // A dry run writes nothing, whatever a thread sends.
          if (p.dryRun) throw new Error('a dry run writes nothing');
          await this.deps.write(m.batch);
          return null;
        }
        await save(m.summary);
        return null;
      },
    })) as ImportKindResult;
    await save(result);
    return result;
  }
}
