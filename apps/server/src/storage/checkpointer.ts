import type { Worker } from 'node:worker_threads';
import { moduleWorker } from './worker.js';

export interface CheckpointerData {
  file: string;
  everyMs: number;
}

/** How often the thread looks at the WAL (and checkpoints it if it changed). */
const CHECKPOINT_EVERY_MS = 1000;

/**
 * Checkpoints of a SQLite file's WAL on a thread of their own. SQLite checkpoints on the connection
 * whose commit takes the WAL past `wal_autocheckpoint`: on the readings writer thread that was a stall
 * of ~300 ms every 64 MB of WAL (two fsyncs of ~100 ms and the copy), in which no ingest committed; on
 * the app's connection it would hold the event loop. Here a passive checkpoint runs every second the
 * WAL changed, beside the writers (it never blocks them). What it copies the writers' own automatic
 * checkpoint (left as it was, the safety net if this thread stops) no longer has to: when that still
 * comes (the WAL restarts from its start only after a checkpoint that copied every frame), it finds
 * only the last second's frames to copy.
 */
export class Checkpointer {
  private worker: Worker | null;
  private stopped = false;
  /** Counts of the thread's reports, for tests and logs. */
  readonly stats = { checkpoints: 0, errors: 0, lastError: '' };

  constructor(file: string, everyMs = CHECKPOINT_EVERY_MS) {
    const worker = moduleWorker(import.meta.url, 'checkpointer.worker', {
      workerData: { file, everyMs } satisfies CheckpointerData,
      // It holds a connection and a timer: the least memory V8 allows.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
    worker.on('message', (m: { log?: number; error?: string }) => {
      if (m.error !== undefined) {
        this.stats.errors++;
        this.stats.lastError = m.error;
      } else if (m.log !== undefined) this.stats.checkpoints++;
    });
    // A failed thread leaves the writers' automatic checkpoints doing the work, as before.
    worker.on('error', () => {
      this.worker = null;
    });
    worker.unref();
    this.worker = worker;
  }

  /** Stops the thread (its connection closed first). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 2000);
      worker.on('message', (m: { stopped?: boolean }) => {
        if (!m.stopped) return;
        clearTimeout(t);
        resolve();
      });
      worker.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
      worker.postMessage({ cmd: 'stop' });
    });
    await worker.terminate();
  }
}
