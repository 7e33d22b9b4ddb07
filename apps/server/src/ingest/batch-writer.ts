import type { FastifyBaseLogger } from 'fastify';
import { NO_METRICS, type WriterMetrics } from '../metrics/metrics.js';
import { batchSize, type ReadingsRepository, readingsOf, type WriteBatch } from '../modules/readings/index.js';

interface Job {
  batch: WriteBatch;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Most readings merged into one transaction; bigger queues flush in several. */
const MAX_READINGS_PER_FLUSH = 20_000;

/** The flush's batches: one per device, a device's submissions merged (column-wise batches go as they are when alone). */
function mergeBatches(jobs: readonly Job[]): WriteBatch[] {
  const byDevice = new Map<number, WriteBatch>();
  for (const { batch } of jobs) {
    const cur = byDevice.get(batch.deviceId);
    if (!cur) {
      byDevice.set(batch.deviceId, batch);
      continue;
    }
    // Same device from several sources: later submissions win on equal timestamps.
    const byTs = new Map(readingsOf(cur).map((r) => [r.ts, r]));
    for (const r of readingsOf(batch)) byTs.set(r.ts, { ts: r.ts, values: { ...(byTs.get(r.ts)?.values ?? {}), ...r.values } });
    byDevice.set(batch.deviceId, { deviceId: batch.deviceId, tz: batch.tz, readings: [...byTs.values()].sort((a, b) => a.ts - b.ts) });
  }
  return [...byDevice.values()];
}

/**
 * The one writer HTTP and MQTT ingest share. Submissions queue while transactions run and the next
 * flush commits all of them together, so many small MQTT messages cost one transaction; each promise
 * resolves only after its readings are committed. Up to `concurrency` flushes are under way at once
 * (the repository says how many its storage takes); a device is never in two of them, so one device's
 * submissions commit in the order they came. A failed merged flush is retried job by job, so one bad
 * submission cannot sink the others.
 */
export class BatchWriter {
  private queue: Job[] = [];
  /** Flushes under way, and the devices they hold. */
  private inFlight = 0;
  private readonly busy = new Set<number>();
  private idleWaiters: (() => void)[] = [];

  /** Readings submitted and not yet taken into a transaction (the metrics' queue depth). */
  private queuedReadings = 0;

  constructor(
    private readonly repo: Pick<ReadingsRepository, 'write'>,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: WriterMetrics = NO_METRICS,
    private readonly concurrency = 1,
  ) {}

  /** Readings waiting for a transaction. */
  get queueDepth(): number {
    return this.queuedReadings;
  }

  write(batch: WriteBatch): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queuedReadings += batchSize(batch);
      this.queue.push({ batch, resolve, reject });
      this.pump();
    });
  }

  /** Resolves when everything queued so far is written (used at shutdown). */
  flushed(): Promise<void> {
    if (this.inFlight === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  /** Starts flushes while there is room and work whose devices are free. */
  private pump(): void {
    while (this.inFlight < this.concurrency && this.queue.length > 0) {
      const jobs = this.take();
      if (jobs.length === 0) break;
      this.inFlight++;
      void this.flush(jobs).finally(() => {
        this.inFlight--;
        for (const j of jobs) this.busy.delete(j.batch.deviceId);
        this.pump();
        if (this.inFlight === 0 && this.queue.length === 0) {
          const waiters = this.idleWaiters;
          this.idleWaiters = [];
          for (const w of waiters) w();
        }
      });
    }
  }

  /** The next flush: queued jobs in order, skipping devices another flush holds, up to MAX_READINGS_PER_FLUSH. */
  private take(): Job[] {
    const jobs: Job[] = [];
    const held = new Set<number>();
    /** Devices with a job left behind in this round: their later jobs wait too (order per device). */
    const skipped = new Set<number>();
    const rest: Job[] = [];
    let count = 0;
    for (let i = 0; i < this.queue.length; i++) {
      const job = this.queue[i] as Job;
      const n = batchSize(job.batch);
      const device = job.batch.deviceId;
      if (this.busy.has(device) || skipped.has(device) || (jobs.length > 0 && count + n > MAX_READINGS_PER_FLUSH)) {
        rest.push(job);
        skipped.add(device);
        continue;
      }
      jobs.push(job);
      held.add(device);
      count += n;
      this.queuedReadings -= n;
    }
    if (jobs.length === 0) return jobs;
    for (const d of held) this.busy.add(d);
    this.queue = rest;
    return jobs;
  }

  /** One transaction, timed for the metrics. */
  private async commit(batches: WriteBatch[], readings: number): Promise<void> {
    const started = performance.now();
    await this.repo.write(batches);
    this.metrics.commitObserved((performance.now() - started) / 1000, readings);
  }

  private async flush(jobs: Job[]): Promise<void> {
    const count = jobs.reduce((a, j) => a + batchSize(j.batch), 0);
    try {
      await this.commit(mergeBatches(jobs), count);
      for (const j of jobs) j.resolve();
    } catch (err) {
      if (jobs.length === 1) {
        jobs[0]?.reject(err);
        return;
      }
      this.log.warn({ err }, 'merged ingest flush failed; retrying submissions one by one');
      for (const j of jobs) {
        try {
          await this.commit([j.batch], batchSize(j.batch));
          j.resolve();
        } catch (e) {
          j.reject(e);
        }
      }
    }
  }
}
