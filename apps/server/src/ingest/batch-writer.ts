import type { FastifyBaseLogger } from 'fastify';
import { NO_METRICS, type WriterMetrics } from '../metrics/metrics.js';
import type { DeviceBatch, ReadingsRepository } from '../modules/readings/readings.repository.js';

interface Job {
  batch: DeviceBatch;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Most readings merged into one transaction; bigger queues flush in several. */
const MAX_READINGS_PER_FLUSH = 20_000;

function mergeBatches(jobs: readonly Job[]): DeviceBatch[] {
  const byDevice = new Map<number, DeviceBatch>();
  for (const { batch } of jobs) {
    const cur = byDevice.get(batch.deviceId);
    if (!cur) {
      byDevice.set(batch.deviceId, { ...batch, readings: [...batch.readings] });
      continue;
    }
    // Same device from several sources: later submissions win on equal timestamps.
    const byTs = new Map(cur.readings.map((r) => [r.ts, r]));
    for (const r of batch.readings) byTs.set(r.ts, { ts: r.ts, values: { ...(byTs.get(r.ts)?.values ?? {}), ...r.values } });
    cur.readings = [...byTs.values()].sort((a, b) => a.ts - b.ts);
  }
  return [...byDevice.values()];
}

/**
 * The one writer HTTP and MQTT ingest share. Submissions queue while a transaction runs and the next
 * flush commits all of them together, so many small MQTT messages cost one transaction; each promise
 * resolves only after its readings are committed. A failed merged flush is retried job by job, so one
 * bad submission cannot sink the others.
 */
export class BatchWriter {
  private queue: Job[] = [];
  private running = false;
  private idle: Promise<void> = Promise.resolve();
  private markIdle: () => void = () => {};

  /** Readings submitted and not yet taken into a transaction (the metrics' queue depth). */
  private queuedReadings = 0;

  constructor(
    private readonly repo: ReadingsRepository,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: WriterMetrics = NO_METRICS,
  ) {}

  /** Readings waiting for a transaction. */
  get queueDepth(): number {
    return this.queuedReadings;
  }

  write(batch: DeviceBatch): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queuedReadings += batch.readings.length;
      this.queue.push({ batch, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  /** Resolves when everything queued so far is written (used at shutdown). */
  flushed(): Promise<void> {
    return this.running ? this.idle : Promise.resolve();
  }

  /** One transaction, timed for the metrics. */
  private async commit(batches: DeviceBatch[], readings: number): Promise<void> {
    const started = performance.now();
    await this.repo.write(batches);
    this.metrics.commitObserved((performance.now() - started) / 1000, readings);
  }

  private async drain(): Promise<void> {
    this.running = true;
    this.idle = new Promise<void>((r) => {
      this.markIdle = r;
    });
    try {
      while (this.queue.length > 0) {
        const jobs: Job[] = [];
        let count = 0;
        while (
          this.queue.length > 0 &&
          (jobs.length === 0 || count + (this.queue[0]?.batch.readings.length ?? 0) <= MAX_READINGS_PER_FLUSH)
        ) {
          const job = this.queue.shift() as Job;
          count += job.batch.readings.length;
          this.queuedReadings -= job.batch.readings.length;
          jobs.push(job);
        }
        try {
          await this.commit(mergeBatches(jobs), count);
          for (const j of jobs) j.resolve();
        } catch (err) {
          if (jobs.length === 1) {
            jobs[0]?.reject(err);
            continue;
          }
          this.log.warn({ err }, 'merged ingest flush failed; retrying submissions one by one');
          for (const j of jobs) {
            try {
              await this.commit([j.batch], j.batch.readings.length);
              j.resolve();
            } catch (e) {
              j.reject(e);
            }
          }
        }
      }
    } finally {
      this.running = false;
      this.markIdle();
    }
  }
}
