import type { DeviceModel, ModelSnapshot } from './models/device-model.js';
import { MINUTE_MS } from './models/environment.js';
import { ReadingSerializer } from './serialize.js';

/** The ingest endpoint's limit on readings per request. */
export const MAX_BATCH = 5000;

/** Readings generated between turns of the event loop. */
const YIELD_EVERY = 500;

/** One device's share of a backfill. */
export interface BackfillDevice {
  model: DeviceModel;
  /** First reading time (ms, inclusive); the model must not have produced a reading at or after it. */
  fromTs: number;
  /** Last reading time (ms, inclusive). */
  toTs: number;
  /** Sends serialised readings of this device, resolving once the server has committed them. */
  send(readings: readonly string[], signal: AbortSignal): Promise<unknown>;
}

export interface BackfillProgress {
  /** Readings sent and acknowledged so far. */
  sent: number;
  /** Reading slots covered so far (sent plus deliberately skipped gaps) and in all. */
  done: number;
  total: number;
  elapsedMs: number;
  /** Acknowledged readings per second since the start. */
  readingsPerSecond: number;
}

export interface BackfillSummary {
  sent: number;
  requests: number;
  elapsedMs: number;
  readingsPerSecond: number;
}

export interface BackfillOptions {
  devices: readonly BackfillDevice[];
  /** Readings per request, at most 5,000. */
  batchSize?: number;
  /** Requests in flight across the fleet (one per device at most, so each device's readings arrive in order). */
  concurrency?: number;
  /** Spacing of the history, 1 minute by default. */
  stepMs?: number;
  signal?: AbortSignal;
  /** Called after every acknowledged request. */
  onProgress?(p: BackfillProgress): void;
  /** Called after every acknowledged request of a device with the state to resume from (persist it). */
  onCommitted?(deviceIndex: number, snapshot: ModelSnapshot): void;
}

/** A counting semaphore: how many requests may be in flight. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(n: number) {
    this.free = n;
  }

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/**
 * Generates and sends history for a fleet. Each device produces its readings in chunks of one batch,
 * generating the next chunk while the previous request is in flight; requests of different devices run in
 * parallel up to `concurrency`. Readings inside a device's deliberate gaps are stepped (its counters keep
 * counting) but not sent.
 */
export async function runBackfill(options: BackfillOptions): Promise<BackfillSummary> {
  const batchSize = Math.min(MAX_BATCH, Math.max(1, options.batchSize ?? MAX_BATCH));
  const stepMs = options.stepMs ?? MINUTE_MS;
  const slots = new Slots(Math.max(1, options.concurrency ?? 3));
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const signal = controller.signal;
  const started = performance.now();
  let total = 0;
  for (const d of options.devices) total += d.toTs >= d.fromTs ? Math.floor((d.toTs - d.fromTs) / stepMs) + 1 : 0;
  let sent = 0;
  let done = 0;
  let requests = 0;

  const report = () => {
    if (!options.onProgress) return;
    const elapsedMs = performance.now() - started;
    options.onProgress({ sent, done, total, elapsedMs, readingsPerSecond: elapsedMs > 0 ? (sent * 1000) / elapsedMs : 0 });
  };

  const runDevice = async (index: number, device: BackfillDevice) => {
    const { model } = device;
    const serializer = new ReadingSerializer(model);
    let ts = device.fromTs;
    let inFlight: Promise<void> | null = null;
    while (ts <= device.toTs) {
      signal.throwIfAborted();
      const lines: string[] = [];
      let slotsCovered = 0;
      while (ts <= device.toTs && lines.length < batchSize) {
        model.step(ts);
        if (!model.isGap(ts)) lines.push(serializer.reading(ts));
        slotsCovered++;
        ts += stepMs;
        // Embedded in the server, generation shares its event loop: yield every so often (~10 ms of work).
        if (slotsCovered % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      const snapshot = model.snapshot();
      if (inFlight) await inFlight;
      inFlight = (async () => {
        if (lines.length > 0) {
          await slots.acquire();
          try {
            signal.throwIfAborted();
            await device.send(lines, signal);
            requests++;
          } finally {
            slots.release();
          }
        }
        sent += lines.length;
        done += slotsCovered;
        options.onCommitted?.(index, snapshot);
        report();
      })();
      // Let a failure surface at the next await instead of as an unhandled rejection.
      inFlight.catch(() => {});
    }
    if (inFlight) await inFlight;
  };

  try {
    const results = await Promise.allSettled(
      options.devices.map((d, i) =>
        runDevice(i, d).catch((err: unknown) => {
          // One device failing stops the others: the caller decides whether to retry the whole backfill.
          controller.abort(err);
          throw err;
        }),
      ),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw signal.reason ?? failed.reason;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  const elapsedMs = performance.now() - started;
  return { sent, requests, elapsedMs, readingsPerSecond: elapsedMs > 0 ? (sent * 1000) / elapsedMs : 0 };
}
