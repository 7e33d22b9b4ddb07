import {
  type ApiFieldError,
  checkIngestRequest,
  type IngestRequest,
  type IngestRequestCheck,
  MAX_FUTURE_SKEW_MS,
  parameterInfo,
  parseIsoTimestamp,
  readingValueProblem,
} from '@phasewatch/shared';
import type { EventBus } from '../events/bus.js';
import { ApiError, unauthorized } from '../http/errors.js';
import type { IngestMetrics } from '../metrics/metrics.js';
import type { IngestIdentity } from '../modules/devices/devices.repository.js';
import type { DevicesService } from '../modules/devices/devices.service.js';
import type { BatchWriter } from './batch-writer.js';

/** Batches up to this size announce every reading on the bus; larger ones (backfills) only the newest. */
const EVENT_EVERY_READING_UP_TO = 50;
const MAX_FIELD_ERRORS = 20;

export interface IngestOptions {
  /** Raw rows older than this many days are not kept, so readings that old are refused. */
  rawRetentionDays: number;
  metrics?: IngestMetrics;
  now?: () => number;
}

/** Validation of device readings, the shared writer, and the events after commit. */
export class IngestService {
  private readonly now: () => number;
  /** Bodies `precheck` accepted, with what its pass found (timestamps, whether anything is wrong). */
  private readonly prechecked = new WeakMap<object, IngestRequestCheck>();

  constructor(
    private readonly devices: DevicesService,
    private readonly writer: BatchWriter,
    private readonly events: EventBus,
    private readonly opts: IngestOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** The device of an ingest key; 401 for a missing or unknown key. */
  async authenticate(key: string | undefined): Promise<IngestIdentity> {
    if (!key) throw unauthorized('Missing device key');
    const device = await this.devices.byIngestKey(key);
    if (!device) throw unauthorized('Unknown device key');
    return device;
  }

  /**
   * True when `body` is a request the schema accepts in the usual shape (`isWellFormedIngestRequest`);
   * the pass also parses the timestamps and judges the values, and `ingest` of this body then uses
   * that instead of looping over the batch again.
   */
  precheck(body: unknown): body is IngestRequest {
    const check = checkIngestRequest(body);
    if (check === null) return false;
    this.prechecked.set(body as object, check);
    return true;
  }

  /**
   * Checks every reading (catalogue names, timestamps within the window), then writes all of them in
   * one transaction; any bad reading rejects the whole request with 400 and nothing is written.
   */
  async ingest(device: IngestIdentity, body: IngestRequest, source: 'http' | 'mqtt' = 'http'): Promise<{ accepted: number }> {
    const now = this.now();
    const oldest = now - this.opts.rawRetentionDays * 86_400_000;
    const list = body.readings;
    const check = this.prechecked.get(body);
    // A prechecked batch with nothing wrong needs only its time range compared with the window; any
    // other goes through the loop below, which also names every bad field.
    const { ts: tss, ordered } =
      check?.clean && check.ts.length === list.length && check.minTs >= oldest && check.maxTs <= now + MAX_FUTURE_SKEW_MS
        ? check
        : this.checkReadings(list, now, oldest);
    let readings: { ts: number; values: Record<string, number> }[];
    // Strictly increasing timestamps (the usual batch) need no merging or sorting, and each reading's
    // values object is used as parsed instead of copied.
    if (ordered) {
      readings = list.map((r, i) => ({ ts: tss[i] as number, values: r.values }));
    } else {
      // Repeated timestamps within one request merge, later values winning.
      const byTs = new Map<number, Record<string, number>>();
      list.forEach((r, i) => {
        const ts = tss[i] as number;
        const had = byTs.get(ts);
        byTs.set(ts, had ? { ...had, ...r.values } : r.values);
      });
      readings = [...byTs.entries()].map(([ts, values]) => ({ ts, values })).sort((a, b) => a.ts - b.ts);
    }
    await this.writer.write({ deviceId: device.id, tz: device.timezone, readings });
    this.opts.metrics?.ingested(source, body.readings.length);

    const announce = readings.length <= EVENT_EVERY_READING_UP_TO ? readings : readings.slice(-1);
    for (const r of announce)
      this.events.emit('readingCommitted', { deviceId: device.id, userId: device.userId, ts: r.ts, values: r.values });
    await this.devices.announceStatusChanges([device.id]);
    return { accepted: body.readings.length };
  }

  /** Every reading's epoch ms and whether they are strictly increasing; 400 naming the bad fields (at most 20). */
  private checkReadings(list: IngestRequest['readings'], now: number, oldest: number): { ts: ArrayLike<number>; ordered: boolean } {
    const errors: ApiFieldError[] = [];
    const tss = new Array<number>(list.length);
    let ordered = true;
    let prev = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < list.length && errors.length < MAX_FIELD_ERRORS; i++) {
      const r = list[i] as IngestRequest['readings'][number];
      const ts = parseIsoTimestamp(r.ts);
      if (ts === null) errors.push({ field: `readings.${i}.ts`, message: 'must be an ISO-8601 timestamp with Z or an offset' });
      else if (ts > now + MAX_FUTURE_SKEW_MS) errors.push({ field: `readings.${i}.ts`, message: 'is more than 5 minutes in the future' });
      else if (ts < oldest)
        errors.push({ field: `readings.${i}.ts`, message: `is older than the raw retention (${this.opts.rawRetentionDays} days)` });
      let names = 0;
      for (const name in r.values) {
        names++;
        const info = parameterInfo(name);
        const problem = info ? readingValueProblem(info, r.values[name] as number) : 'is not a known parameter';
        if (problem) errors.push({ field: `readings.${i}.values.${name}`, message: problem });
      }
      if (names === 0) errors.push({ field: `readings.${i}.values`, message: 'needs at least one parameter' });
      if (ts === null) continue;
      tss[i] = ts;
      if (ts <= prev) ordered = false;
      prev = ts;
    }
    if (errors.length > 0) {
      throw new ApiError(400, errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    }
    return { ts: tss, ordered };
  }
}
