import type { Writable } from 'node:stream';
import type { ReadingsRepository, ReadingsService } from '../modules/readings/index.js';
import type { Storage } from '../storage/database.js';

/**
 * What a job kind's `run` gets in its worker thread (see jobs/pool.ts and jobs/job.worker.ts):
 * - `storage`: the thread's own read-only connection (SQLite: a `readonly` better-sqlite3 handle beside the
 *   app's, WAL; PostgreSQL: a pool of one client of its own), with a Kysely `db` over it;
 * - `readings` / `readingsRepo`: the readings service and repository over that connection;
 * - `sink()`: the job's output file, a Writable whose stored pieces (`CHUNK_BYTES` each) the main thread
 *   saves in `export_chunks` (the worker's connection stays read-only; the sink waits while a piece is saved);
 * - `progress(f)`: 0…1, sent to the main thread (stored at most every half second);
 * - `send(data, transfer)`: a message of the kind's own to the main thread's `message` handler (see
 *   `PoolRunOptions.message`), resolved with its answer once handled (the import sends its rows this way to
 *   be written on the main thread); `transfer` hands ArrayBuffers over instead of copying them;
 * - `signal`: aborted when the job is cancelled (server stop, claim lost): stop and throw.
 * `threadId` is the thread the kind runs on (never the main thread's 0): kinds return it in their result,
 * and the structural tests assert it.
 */
export interface JobKindContext {
  storage: Storage;
  readings: ReadingsService;
  readingsRepo: ReadingsRepository;
  sink(): Writable & { readonly chunks: number; readonly size: number };
  progress(fraction: number): void;
  send(data: unknown, transfer?: ArrayBuffer[]): Promise<unknown>;
  signal: AbortSignal;
  threadId: number;
}

/** A kind of job: a module whose `run` does the job's reading and rendering in a worker thread. */
export interface JobKind<I = unknown, R = unknown> {
  run(input: I, ctx: JobKindContext): Promise<R>;
}

/**
 * The kinds a pool runs, by name → the URL of the module exporting its `run` (imported in the thread on first
 * use; see `moduleUrl` in storage/worker.ts). Each feature's front exports its kinds (`EXPORT_JOB_KINDS`,
 * `POWER_QUALITY_JOB_KINDS`, `IMPORT_JOB_KINDS`) and app.ts hands them to the pool: the jobs facility imports
 * no feature. Adding a kind is: write a module exporting `run(input, ctx)`, name it in the feature's kinds,
 * and call `pool.run('<kind>', input, ...)` from the queue handler on the main thread.
 */
export type JobKinds = Record<string, string>;

/** A job's failure the user can read: an i18n key of the web's `jobs` texts, stored as the job's error. */
export class JobFailure extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

/** The reasons a worker fails a job for (the web translates them; see apps/web/src/i18n/locales/jobs). */
export const JOB_FAILURES = {
  crashed: 'jobs.failure.crashed',
  outOfMemory: 'jobs.failure.outOfMemory',
  failed: 'jobs.failure.failed',
} as const;
