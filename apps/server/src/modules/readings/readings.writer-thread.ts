import type { Worker } from 'node:worker_threads';
import type { CounterRules } from '@phasewatch/shared';
import { Checkpointer } from '../../storage/checkpointer.js';
import { moduleUrl, moduleWorker } from '../../storage/worker.js';

/** The writer thread's young generation (MB). */
const WRITER_YOUNG_GENERATION_MB = 12;

/** The writes the thread runs, by name, with their arguments (see readings.writer.worker.ts). */
export interface WriterOps {
  close: [];
  write: [flush: import('./readings.batches.js').EncodedFlush];
  compactDue: [target: number, budgetMs: number];
  backfillPq: [budgetMs: number];
  statementCount: [];
  rebuildDaysStep: [deviceId: number, tz: string, cursor: number | null];
  recordStatuses: [changes: import('./readings.repository.js').StatusChange[]];
  deleteDevice: [deviceId: number];
  deleteRawBefore: [cutoff: number, deviceIds: number[]];
  /**
   * A write of another feature on the thread's connection (SQLite: notification alarm changes, off the app's
   * connection): `module` is a `WriterExtension` module's URL (see `writerExtensionUrl`), imported on the
   * thread at its first call; `method` and `args` are handed to its `onWriter`.
   */
  extension: [module: string, method: string, args: unknown[]];
}

/**
 * What a feature plugs into the writer thread: a module (loaded on the thread by its URL, never imported by
 * the readings module) exporting `onWriter`, run with the thread's storage. The thread calls features only
 * through this; the feature is handed the `WriterThread` at wiring and calls `call('extension', ...)`.
 */
export interface WriterExtension {
  onWriter(storage: import('../../storage/database.js').Storage, method: string, args: unknown[]): Promise<unknown>;
}

/** The URL of a `WriterExtension` module named `name` beside `base` (an `import.meta.url`; see `moduleUrl`). */
export const writerExtensionUrl = moduleUrl;

export interface WriterRequest {
  id: number;
  op: keyof WriterOps;
  args: unknown[];
}

export type WriterReply = { id: number; ok: true; value?: unknown } | { id: number; ok: false; message: string; stack?: string };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

/** Where the thread writes: the SQLite data file, or a PostgreSQL database through a small pool of its own. */
export type WriterTarget = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string; poolSize: number };

/**
 * The writes of readings and rollups, run on a worker thread with its own connection(s). Reads stay on
 * the main thread's connections, and a write's promise resolves once it is committed, so what the
 * caller answers afterwards is stored. If the thread dies, pending calls fail and the next call starts
 * a new one.
 *
 * SQLite: better-sqlite3 is synchronous; on the main thread a 5,000-reading write held the event loop
 * (HTTP, the realtime hub, MQTT) for tens of milliseconds; on its own thread it runs beside them, on the
 * second core (WAL: readers never wait for the writer). Calls run one at a time in the order made.
 *
 * PostgreSQL: a transaction is five or six round trips, and each answer waits for its thread's event
 * loop. On the main thread, busy with 2,000 live devices' requests and their hub frames, every round
 * trip waited for the loop (p50 20-50 ms when it fell behind), so a transaction of ten readings took
 * 150 ms, the queue grew, and the writes never caught up again. On this thread the round trips wait for
 * nothing else, and the queries' encoding and their socket writes leave the main thread too. Calls run
 * at once, side by side (the caller bounds the writes; row locks order them per device).
 */
export class WriterThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private checkpointer: Checkpointer | null = null;

  constructor(
    private readonly target: WriterTarget,
    private readonly rules: CounterRules,
  ) {}

  private start(): Worker {
    // A small young generation: the writer's garbage is a flush's columns, and V8's default (up to 48 MB
    // here, as for the main thread) is memory a server holds for nothing.
    const worker = moduleWorker(import.meta.url, 'readings.writer.worker', {
      workerData: { target: this.target, rules: this.rules },
      resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_GENERATION_MB },
    });
    // The WAL this thread fills is checkpointed beside it, not in its commits (see storage/checkpointer.ts).
    if (this.target.dialect === 'sqlite') this.checkpointer ??= new Checkpointer(this.target.file);
    worker.on('message', (reply: WriterReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.value);
      else {
        const err = new Error(reply.message);
        if (reply.stack) err.stack = reply.stack;
        p.reject(err);
      }
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`readings writer thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  /** Runs a write on the thread; resolves after its commit (with what it returns). `transfer`: buffers handed over, not copied. */
  call<K extends keyof WriterOps>(op: K, args: WriterOps[K], transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('readings writer thread is closed'));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, op, args } satisfies WriterRequest, transfer);
    });
  }

  /** Stops the thread once the calls made so far are done. */
  async close(): Promise<void> {
    if (this.closed) return;
    const drained = [...this.pending.values()].map(
      (p) =>
        new Promise<void>((done) => {
          const { resolve, reject } = p;
          p.resolve = (value) => {
            resolve(value);
            done();
          };
          p.reject = (err) => {
            reject(err);
            done();
          };
        }),
    );
    this.closed = true;
    await Promise.all(drained);
    const worker = this.worker;
    if (worker) {
      // The thread's own connections close cleanly (a PostgreSQL pool ends its sessions) before it stops.
      await new Promise<void>((done) => {
        const id = this.nextId++;
        this.pending.set(id, { resolve: () => done(), reject: () => done() });
        worker.postMessage({ id, op: 'close', args: [] } satisfies WriterRequest);
      });
    }
    this.worker = null;
    await this.checkpointer?.stop();
    this.checkpointer = null;
    if (worker) {
      worker.removeAllListeners('exit');
      await worker.terminate();
    }
  }
}
