import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { CounterRules } from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Storage } from '../storage/database.js';
import { moduleWorker } from '../storage/worker.js';
import { JOB_FAILURES, JobFailure, type JobKinds } from './kinds.js';

/** Where a job thread reads: the SQLite data file (read-only), or the PostgreSQL database (a pool of its own). */
export type JobTarget = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

/** The job threads' connection target for the app's storage. */
export function jobTarget(storage: Storage): JobTarget {
  if (storage.sqlite) return { dialect: 'sqlite', file: storage.location };
  const url = (storage.pgPool as pg.Pool & { options: { connectionString?: string } }).options.connectionString;
  if (!url) throw new Error('the job threads need the PostgreSQL connection string');
  return { dialect: 'postgres', url };
}

/** Main thread → job thread. */
export type ToJobThread =
  | { type: 'run'; kind: string; input: unknown }
  | { type: 'cancel' }
  | { type: 'saved'; seq: number; error?: string }
  | { type: 'answer'; seq: number; value?: unknown; error?: string }
  | { type: 'close' };

/** Job thread → main thread. */
export type FromJobThread =
  | { type: 'ready'; threadId: number }
  | { type: 'progress'; fraction: number }
  | { type: 'piece'; seq: number; data: Uint8Array }
  | { type: 'message'; seq: number; data: unknown }
  | { type: 'done'; value: unknown }
  | { type: 'failed'; message: string; key?: string };

/** What the caller of `run` gives the job: its cancel signal, where progress goes, where the file's pieces are saved. */
export interface PoolRunOptions {
  signal: AbortSignal;
  progress(fraction: number): Promise<void> | void;
  save(seq: number, data: Buffer): Promise<void>;
  /**
   * A kind's own message to the main thread (`ctx.send`, e.g. the import's batches of rows, written here:
   * the thread's connection is read-only); what it resolves with is the kind's answer. The kind waits for the
   * answer before its next one, so messages are handled one at a time (as pieces are saved). Kinds that
   * send none need no handler.
   */
  message?(data: unknown): Promise<unknown>;
}

export interface JobPoolOptions {
  /** Threads (`JOB_CONCURRENCY`); each runs one job at a time. */
  size: number;
  target: JobTarget;
  rules: CounterRules;
  /** A thread's heap limit (`JOB_WORKER_MEMORY_MB`): past it the thread ends, its job fails, a new thread starts. */
  maxOldGenerationSizeMb: number;
  log: FastifyBaseLogger;
  /** The kinds the threads run, by name → module URL (kinds.ts; tests add kinds that crash or run out of memory). */
  kinds: JobKinds;
  /** How long a cancelled job may take to stop before its thread is ended. */
  cancelGraceMs?: number;
}

interface Task {
  kind: string;
  input: unknown;
  opts: PoolRunOptions;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  /** The error the thread reported before it exited (out of memory, an uncaught exception). */
  lastError: (Error & { code?: string }) | null;
  cancelTimer: NodeJS.Timeout | null;
}

/**
 * The worker threads jobs run on (the stored queue, jobs/job-queue.ts, decides which job runs when; this
 * pool only runs it off the main event loop). `size` threads start with the first job (or `start`) and then
 * stay, waiting; a job is handed to an idle one at once (nothing polls). A job's kind (jobs/kinds.ts) reads through the thread's
 * own connection and renders there; the file's pieces come back to the main thread, which stores them
 * (the job thread's connection stays read-only) and answers each so the thread never holds more than two.
 * A thread that crashes or exceeds its heap limit fails its job with a reason the user can read
 * (`jobs.failure.*`) and is replaced.
 *
 * Why not piscina: its own task queue would sit behind the stored queue, which already decides how
 * many jobs run (claims, leases, per-user caps); a job here is a conversation (progress, pieces saved
 * one at a time with back-pressure, cancel), which piscina would carry through a MessagePort per task
 * anyway; and its workers load a file by path, while ours start the same way as the readings writer's
 * (storage/worker.ts: `.ts` through tsx under tests and benches). What it would add — replacing a dead
 * thread, resource limits, abort — is the ~200 lines below.
 */
export class JobPool {
  private readonly slots = new Set<Slot>();
  private readonly waiting: Task[] = [];
  private closed = false;
  private started = false;

  constructor(private readonly opts: JobPoolOptions) {}

  /** Starts the threads (they open their connections and wait for jobs). */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    for (let i = 0; i < this.opts.size; i++) this.spawn();
  }

  /** Threads alive and ready (tests wait for the pool to be warm). */
  get readyThreads(): number {
    let n = 0;
    for (const s of this.slots) if (s.ready) n++;
    return n;
  }

  /** Starts the threads and resolves when every one is ready (or after `timeoutMs`). */
  async warm(timeoutMs = 30_000): Promise<void> {
    this.start();
    const deadline = Date.now() + timeoutMs;
    while (this.readyThreads < this.opts.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  /** Runs a job of `kind` on a thread; resolves with what the kind's `run` returned. */
  run(kind: string, input: unknown, opts: PoolRunOptions): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the job pool is closed'));
    if (!this.started) this.start();
    return new Promise((resolve, reject) => {
      const task: Task = { kind, input, opts, resolve, reject };
      if (opts.signal.aborted) {
        reject(opts.signal.reason as Error);
        return;
      }
      opts.signal.addEventListener('abort', () => this.cancel(task), { once: true });
      this.waiting.push(task);
      this.dispatch();
    });
  }

  /** Ends the threads (a running job is cancelled first; the queue hands it back). */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.waiting.splice(0)) t.reject(new Error('the job pool is closed'));
    await Promise.all(
      [...this.slots].map(async (s) => {
        s.worker.removeAllListeners('exit');
        const exited = new Promise<void>((done) => s.worker.once('exit', () => done()));
        s.worker.postMessage({ type: 'close' } satisfies ToJobThread);
        const timer = setTimeout(() => void s.worker.terminate(), 5000);
        await exited;
        clearTimeout(timer);
        if (s.task) s.task.reject(new Error('the job pool is closed'));
      }),
    );
    this.slots.clear();
  }

  private spawn(): void {
    const worker = moduleWorker(import.meta.url, 'job.worker', {
      workerData: { target: this.opts.target, rules: this.opts.rules, kinds: this.opts.kinds },
      resourceLimits: { maxOldGenerationSizeMb: this.opts.maxOldGenerationSizeMb } satisfies ResourceLimits,
    });
    const slot: Slot = { worker, ready: false, task: null, lastError: null, cancelTimer: null };
    this.slots.add(slot);
    worker.on('message', (m: FromJobThread) => this.onMessage(slot, m));
    worker.on('error', (err) => {
      slot.lastError = err;
    });
    worker.on('exit', (code) => this.onExit(slot, code));
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.waiting.length === 0) return;
      if (!slot.ready || slot.task) continue;
      const task = this.waiting.shift() as Task;
      slot.task = task;
      slot.worker.postMessage({ type: 'run', kind: task.kind, input: task.input } satisfies ToJobThread);
    }
  }

  private cancel(task: Task): void {
    const i = this.waiting.indexOf(task);
    if (i >= 0) {
      this.waiting.splice(i, 1);
      task.reject(task.opts.signal.reason as Error);
      return;
    }
    for (const slot of this.slots) {
      if (slot.task !== task) continue;
      slot.worker.postMessage({ type: 'cancel' } satisfies ToJobThread);
      // A job that does not stop (a long synchronous step) ends with its thread.
      slot.cancelTimer = setTimeout(() => void slot.worker.terminate(), this.opts.cancelGraceMs ?? 5000);
      slot.cancelTimer.unref();
    }
  }

  private finish(slot: Slot): Task | null {
    const task = slot.task;
    slot.task = null;
    if (slot.cancelTimer) clearTimeout(slot.cancelTimer);
    slot.cancelTimer = null;
    return task;
  }

  private onMessage(slot: Slot, m: FromJobThread): void {
    switch (m.type) {
      case 'ready':
        slot.ready = true;
        this.dispatch();
        return;
      case 'progress': {
        const p = slot.task?.opts.progress(m.fraction);
        // A lost claim aborts the job through its signal; nothing to do here.
        if (p) p.catch(() => {});
        return;
      }
      case 'piece': {
        const task = slot.task;
        if (!task) return;
        task.opts.save(m.seq, Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength)).then(
          () => slot.worker.postMessage({ type: 'saved', seq: m.seq } satisfies ToJobThread),
          (err: unknown) =>
            slot.worker.postMessage({
              type: 'saved',
              seq: m.seq,
              error: err instanceof Error ? err.message : String(err),
            } satisfies ToJobThread),
        );
        return;
      }
      case 'message': {
        const handle = slot.task?.opts.message;
        const answer = handle ? handle(m.data) : Promise.reject(new Error('no job takes this message'));
        answer.then(
          (value) => slot.worker.postMessage({ type: 'answer', seq: m.seq, value } satisfies ToJobThread),
          (err: unknown) =>
            slot.worker.postMessage({
              type: 'answer',
              seq: m.seq,
              error: err instanceof Error ? err.message : String(err),
            } satisfies ToJobThread),
        );
        return;
      }
      case 'done': {
        this.finish(slot)?.resolve(m.value);
        this.dispatch();
        return;
      }
      case 'failed': {
        const task = this.finish(slot);
        if (task) {
          if (task.opts.signal.aborted) task.reject(task.opts.signal.reason as Error);
          else task.reject(m.key ? new JobFailure(m.key) : new Error(m.message));
        }
        this.dispatch();
        return;
      }
    }
  }

  private onExit(slot: Slot, code: number): void {
    this.slots.delete(slot);
    const task = this.finish(slot);
    if (task) {
      const oom = slot.lastError?.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.opts.log.warn({ code, err: slot.lastError }, oom ? 'job thread ran out of memory' : 'job thread ended');
      if (task.opts.signal.aborted) task.reject(task.opts.signal.reason as Error);
      else task.reject(new JobFailure(oom ? JOB_FAILURES.outOfMemory : JOB_FAILURES.crashed));
    } else if (!this.closed) {
      this.opts.log.warn({ code, err: slot.lastError }, 'idle job thread ended');
    }
    if (this.closed) return;
    // One that ended before it was ready (its connection could not open) is retried after a second, not in a loop.
    if (slot.ready) this.spawn();
    else setTimeout(() => !this.closed && this.spawn(), 1000).unref();
  }
}
