import {
  type ApiFieldError,
  BoundedMap,
  checkIngestRequest,
  type IngestRequest,
  type IngestRequestCheck,
  MAX_FUTURE_SKEW_MS,
  parameterInfo,
  parseIsoTimestamp,
  readingValueProblem,
} from '@phasewatch/shared';
import type { EventBus } from '../events/bus.js';
import { ApiError, keyedError, unauthorized } from '../http/errors.js';
import type { FailureCounter } from '../http/rate-limits.js';
import { PerTurn } from '../lib/per-turn.js';
import type { IngestMetrics, IngestSource } from '../metrics/metrics.js';
import type { DevicesService, IngestIdentity } from '../modules/devices/index.js';
import type { BatchWriter } from './batch-writer.js';
import { CommittedColumns, CommittedObjects } from './committed-readings.js';
import { ParsedIngest } from './ingest.bytes.js';

/** Batches up to this size announce every reading on the bus; larger ones (backfills) only the newest. */
const EVENT_EVERY_READING_UP_TO = 50;
const MAX_FIELD_ERRORS = 20;

export interface IngestOptions {
  /** Raw rows older than this many days are not kept, so readings that old are refused. */
  rawRetentionDays: number;
  metrics?: IngestMetrics;
  now?: () => number;
  /** Where a failed status check is reported (the readings are stored by then; the periodic sweep retries). */
  log?: { warn(obj: object, msg: string): void };
  /**
   * Unknown device keys allowed per address in a window (`RATE_LIMIT_INGEST_KEY_FAILURES`): past it the
   * address's keys that are not already known are refused with 429 without a lookup. Null: no limit.
   */
  keyFailures?: FailureCounter | null;
  /** Told of each request refused that way (metrics). */
  onKeyFailuresRefused?: () => void;
}

/** How long a device key's identity is reused without asking the database (a deleted device is forgotten at once). */
const IDENTITY_TTL_MS = 60_000;
/** Keys looked up per query (one turn's lookups are split into queries of at most this many). */
const LOOKUPS_PER_QUERY = 500;

/** A device key asked for, and who waits for its device. */
interface KeyLookup {
  key: string;
  resolve(d: IngestIdentity | undefined): void;
  reject(err: unknown): void;
}
/** A device's status is looked at after a commit at most this often (the periodic sweep covers the rest). */
const STATUS_CHECK_EVERY_MS = 5_000;
/**
 * Commits whose devices' status is looked at together: a fleet coming online is announced in a few
 * rounds instead of one per event-loop turn (each round writes to every connection of the owners: at
 * 2,000 devices of 20 users that was ~100,000 socket writes in the fleet's first seconds).
 */
const STATUS_ROUND_MS = 250;

/** Validation of device readings, the shared writer, and the events after commit. */
export class IngestService {
  private readonly now: () => number;
  /** Bodies `precheck` accepted, with what its pass found (timestamps, whether anything is wrong). */
  private readonly prechecked = new WeakMap<object, IngestRequestCheck>();
  /**
   * Device identities by key: a live device authenticates every second, and a database round trip (and
   * a SHA-256) per reading was a tenth of a live reading's cost. Bounded; entries expire; a deleted
   * device's entry goes at once (on another instance sharing PostgreSQL, within the expiry: its
   * readings are then dropped by the writer, which skips devices that no longer exist).
   */
  private readonly identities = new BoundedMap<string, { identity: IngestIdentity; until: number }>(20_000);
  /** When each device's status was last looked at after a commit. */
  private readonly statusChecked = new BoundedMap<number, number>(20_000);
  /** Keys to look up at the end of this turn, with who waits for each. */
  private readonly lookups = new PerTurn<KeyLookup>((asked) => this.answerLookups(asked));
  /** Devices whose status the next check looks at: one query for all the commits of an event-loop turn. */
  private pendingStatus: { ids: Set<number>; timer: NodeJS.Timeout } | null = null;

  constructor(
    private readonly devices: DevicesService,
    private readonly writer: BatchWriter,
    private readonly events: EventBus,
    private readonly opts: IngestOptions,
  ) {
    this.now = opts.now ?? Date.now;
    events.on('deviceDeleted', ({ deviceId }) => {
      for (const [key, e] of this.identities) if (e.identity.id === deviceId) this.identities.delete(key);
      this.statusChecked.delete(deviceId);
    });
  }

  /**
   * The device of an ingest key; 401 for a missing or unknown key. With the sender's `address` (HTTP),
   * unknown keys count against it: the per-key rate limit never sees made-up keys twice, and each one
   * was a database lookup. Past the limit, keys of that address not already known answer 429 unread
   * (devices behind the same address whose keys were looked up lately go on).
   */
  async authenticate(key: string | undefined, address?: string): Promise<IngestIdentity> {
    if (!key) throw unauthorized('Missing device key');
    const failures = address === undefined ? null : (this.opts.keyFailures ?? null);
    const now = this.now();
    const cached = this.identities.get(key);
    if (cached && cached.until > now) return cached.identity;
    const blockedMs = failures && address !== undefined ? failures.blockedForMs(address, now) : 0;
    if (blockedMs > 0) {
      this.opts.onKeyFailuresRefused?.();
      throw keyedError(429, 'errors.tooManyRequests', { headers: { 'retry-after': String(Math.max(1, Math.ceil(blockedMs / 1000))) } });
    }
    const device = await this.lookUp(key);
    if (!device) {
      this.identities.delete(key);
      if (failures && address !== undefined) failures.fail(address, now);
      throw unauthorized('Unknown device key');
    }
    // Each entry expires at its own time (±25 %): a fleet that started together would otherwise look
    // all its keys up again in the same second, every minute (2,000 queries beside the writes).
    this.identities.set(key, { identity: device, until: now + IDENTITY_TTL_MS * (0.75 + Math.random() * 0.5) });
    return device;
  }

  /**
   * A key's device, looked up together with the other keys asked for in the same turn: a fleet starting
   * (or a server restarting under one) asks for thousands at once, and a query each held the pool's
   * connections from the writes for seconds.
   */
  private lookUp(key: string): Promise<IngestIdentity | undefined> {
    return new Promise((resolve, reject) => this.lookups.add({ key, resolve, reject }));
  }

  /** One turn's key lookups: each key asked once, in statements of `LOOKUPS_PER_QUERY`, its answer shared by its askers. */
  private answerLookups(asked: readonly KeyLookup[]): void {
    const keys = new Map<string, KeyLookup[]>();
    for (const w of asked) {
      const waiting = keys.get(w.key);
      if (waiting) waiting.push(w);
      else keys.set(w.key, [w]);
    }
    const all = [...keys.keys()];
    for (let i = 0; i < all.length; i += LOOKUPS_PER_QUERY) {
      const part = all.slice(i, i + LOOKUPS_PER_QUERY);
      this.devices.byIngestKeys(part).then(
        (found) => {
          for (const k of part) for (const w of keys.get(k) ?? []) w.resolve(found.get(k));
        },
        (err: unknown) => {
          for (const k of part) for (const w of keys.get(k) ?? []) w.reject(err);
        },
      );
    }
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
  async ingest(device: IngestIdentity, body: IngestRequest | ParsedIngest, source: IngestSource = 'http'): Promise<{ accepted: number }> {
    const now = this.now();
    const oldest = now - this.opts.rawRetentionDays * 86_400_000;
    if (body instanceof ParsedIngest) return this.ingestColumns(device, body, now, oldest, source);
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
    // Every reading of the commit, once, for the notification rules (nothing is built when nobody listens).
    if (this.events.listenerCount('readingsCommitted') > 0)
      this.events.emit('readingsCommitted', new CommittedObjects(device.id, device.userId, readings));
    this.afterCommit(device.id, now);
    return { accepted: body.readings.length };
  }

  /**
   * `ingest` of a body read into columns (`parseIngestBytes`: valid values, strictly increasing
   * timestamps): only the time window is left to check, with the same field errors as `checkReadings`.
   */
  private async ingestColumns(
    device: IngestIdentity,
    body: ParsedIngest,
    now: number,
    oldest: number,
    source: IngestSource,
  ): Promise<{ accepted: number }> {
    if (body.minTs < oldest || body.maxTs > now + MAX_FUTURE_SKEW_MS) {
      const errors: ApiFieldError[] = [];
      for (let i = 0; i < body.count && errors.length < MAX_FIELD_ERRORS; i++) {
        const ts = body.ts[i] as number;
        if (ts > now + MAX_FUTURE_SKEW_MS) errors.push({ field: `readings.${i}.ts`, message: 'is more than 5 minutes in the future' });
        else if (ts < oldest)
          errors.push({ field: `readings.${i}.ts`, message: `is older than the raw retention (${this.opts.rawRetentionDays} days)` });
      }
      throw new ApiError(400, errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    }
    await this.writer.write({ deviceId: device.id, tz: device.timezone, index: body.index, ts: body.ts, cols: body.cols });
    this.opts.metrics?.ingested(source, body.count);
    const from = body.count <= EVENT_EVERY_READING_UP_TO ? 0 : body.count - 1;
    for (let i = from; i < body.count; i++)
      this.events.emit('readingCommitted', {
        deviceId: device.id,
        userId: device.userId,
        ts: body.ts[i] as number,
        values: body.values(i),
      });
    if (this.events.listenerCount('readingsCommitted') > 0)
      this.events.emit('readingsCommitted', new CommittedColumns(device.id, device.userId, body.count, body.ts, body.index, body.cols));
    this.afterCommit(device.id, now);
    return { accepted: body.count };
  }

  /**
   * A device coming online (or its signal changing) is announced after its first commit; a device
   * already looked at in the last seconds is left to the next look or the periodic sweep. The answer to
   * the device does not wait for it (statuses shown are computed from the readings; this only announces).
   */
  private afterCommit(deviceId: number, now: number): void {
    const checked = this.statusChecked.get(deviceId);
    if (checked === undefined || now - checked >= STATUS_CHECK_EVERY_MS) {
      this.statusChecked.set(deviceId, now);
      this.checkStatus(deviceId);
    }
  }

  /**
   * Looks at a device's status within STATUS_ROUND_MS, together with the other devices committed
   * meanwhile (one query, one round of announcements). Never fails: the readings are stored by then,
   * and the periodic sweep announces what a failed check missed.
   */
  private checkStatus(deviceId: number): void {
    if (!this.pendingStatus) {
      const ids = new Set<number>();
      const timer = setTimeout(() => {
        this.pendingStatus = null;
        this.devices
          .announceStatusChanges([...ids])
          .catch((err: unknown) => this.opts.log?.warn({ err }, 'status check after ingest failed; the periodic sweep retries'));
      }, STATUS_ROUND_MS);
      timer.unref();
      this.pendingStatus = { ids, timer };
    }
    this.pendingStatus.ids.add(deviceId);
  }

  /** Drops the status round not yet run (at shutdown; the next start's sweep announces what it had). */
  stop(): void {
    if (this.pendingStatus) clearTimeout(this.pendingStatus.timer);
    this.pendingStatus = null;
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
