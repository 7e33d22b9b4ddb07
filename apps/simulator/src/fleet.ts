import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, PhasewatchClient } from './api-client.js';
import { type BackfillDevice, type BackfillProgress, type BackfillSummary, runBackfill } from './backfill.js';
import type { DeviceModel, ModelOptions, ModelSnapshot } from './models/device-model.js';
import { DAY_MS, MINUTE_MS } from './models/environment.js';
import { createModel, KIND_MODELS, KIND_TYPE_CODES, type SimulatedKind } from './models/index.js';
import { connectMqtt, type MqttPublisher } from './mqtt-publisher.js';
import { hash32 } from './random.js';
import { ReadingSerializer } from './serialize.js';
import { type DeviceState, loadState, type PendingHistory, type SimulatorState, saveState } from './state.js';

/** One device of a simulated fleet. `slot` identifies it across starts; `seed` makes its data reproducible. */
export interface FleetDeviceSpec {
  slot: string;
  kind: SimulatedKind;
  name: string;
  seed: number;
  /** A grid meter behind rooftop PV: the PV device's seed (its output is netted from the meter's load; issue 33). */
  rooftopSolarSeed?: number;
}

/** What a running fleet reports: set-up steps, backfill progress, its end, and errors it survived or not. */
export type FleetEvent =
  | { type: 'setup'; message: string; devices: number; historyDays: number; resumed: boolean }
  | { type: 'backfill'; progress: BackfillProgress }
  | { type: 'backfill-done'; summary: BackfillSummary }
  | { type: 'error'; during: 'setup' | 'backfill' | 'live'; error: unknown };

export interface FleetOptions {
  baseUrl: string;
  email: string;
  password: string;
  /** JSON file remembering devices, ingest keys and where each model stopped (written mode 0600). */
  stateFile: string;
  devices: readonly FleetDeviceSpec[];
  /** Days of 1-minute history a new device gets. */
  historyDays: number;
  /** Live reading interval; 0 sends no live readings. */
  liveIntervalMs: number;
  /** Send live readings over MQTT instead of HTTP. */
  mqttUrl?: string;
  batchSize?: number;
  concurrency?: number;
  /** Model options shared by the fleet (site, time zone, gap and reset rates). */
  modelOptions?: Omit<ModelOptions, 'seed'>;
  onProgress?(event: FleetEvent): void;
  signal?: AbortSignal;
  /** The clock (tests move it). */
  now?(): number;
}

export interface FleetHandle {
  /** The fleet's devices, once registered or found again. */
  ready: Promise<readonly DeviceState[]>;
  /** Resolves when the history is complete up to now, with the backfill's figures; rejects if set-up or backfill failed. */
  backfillDone: Promise<BackfillSummary>;
  /** Stops backfill and live readings, saves the state and closes connections. */
  stop(): Promise<void>;
}

/** How often the state file is rewritten while data flows. */
const SAVE_EVERY_MS = 5_000;
/** Catch-up passes after the first backfill, each covering the time the previous one took. */
const MAX_CATCH_UP_PASSES = 3;

/**
 * The billing start of a simulated device: the day half a month ago, one month further back (`YYYY-MM-DD`,
 * day 28 at most). A demo device's billing period then began on a day of the last few weeks, never today
 * (a period that starts today shows the same figure as "Today").
 */
export function demoBillingStart(now: number): string {
  const d = new Date(now - 15 * DAY_MS);
  const month = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, Math.min(d.getUTCDate(), 28)));
  return month.toISOString().slice(0, 10);
}

/** A locally administered MAC derived from the seed (and an attempt number, should a MAC be taken). */
export function simulatedMac(seed: number, attempt = 0): string {
  const a = hash32(seed ^ Math.imul(attempt + 1, 0x9e3779b1));
  const b = hash32(a ^ 0x51ed270b);
  const bytes = [0x02, (a >>> 24) & 255, (a >>> 16) & 255, (a >>> 8) & 255, a & 255, b & 255];
  return bytes.map((x) => x.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

/** Readings stepped between turns of the event loop while a live model catches up (~10 ms of work). */
const STEP_YIELD_EVERY = 500;

/**
 * Steps a model through the 1-minute grid from `fromTs` to `toTs` without sending anything: the same
 * steps a backfill of that range takes, so the model ends with the counters the sent history ends with.
 */
async function stepThrough(model: DeviceModel, fromTs: number, toTs: number, signal: AbortSignal): Promise<void> {
  let n = 0;
  for (let ts = fromTs; ts <= toTs; ts += MINUTE_MS) {
    model.step(ts);
    if (++n % STEP_YIELD_EVERY === 0) {
      signal.throwIfAborted();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

/** First reading time on the 1-minute grid strictly after `ts`. */
function nextMinute(ts: number): number {
  return Math.floor(ts / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
}

/**
 * Runs a simulated fleet against a Phasewatch server through its public API: signs in, finds its devices
 * again (state file) or registers them, backfills history from where each device stopped (or
 * `historyDays` back), then sends live readings every `liveIntervalMs` until stopped.
 */
export function startFleet(options: FleetOptions): FleetHandle {
  return new Fleet(options).start();
}

/**
 * One run of the fleet: set up (sign in, register or find the devices), then the history (alone, or
 * beside the live readings) and the live readings; the state file keeps what a restart resumes from.
 */
class Fleet {
  private readonly controller = new AbortController();
  private readonly signal = this.controller.signal;
  private readonly now: () => number;
  private readonly client: PhasewatchClient;
  private readonly onOuterAbort = () => this.controller.abort(this.options.signal?.reason);
  private state: SimulatorState | null = null;
  private models: DeviceModel[] = [];
  private lastSave = 0;
  private mqtt: MqttPublisher | null = null;
  private liveDone: Promise<void> = Promise.resolve();

  constructor(private readonly options: FleetOptions) {
    if (options.signal?.aborted) this.onOuterAbort();
    else options.signal?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.now = options.now ?? Date.now;
    this.client = new PhasewatchClient(options.baseUrl);
  }

  start(): FleetHandle {
    let resolveReady: (d: readonly DeviceState[]) => void = () => {};
    let rejectReady: (e: unknown) => void = () => {};
    const ready = new Promise<readonly DeviceState[]>((res, rej) => {
      resolveReady = res;
      rejectReady = rej;
    });
    const backfillDone = this.run(resolveReady, rejectReady);
    // The caller may never await these; a failure is reported through onProgress, never as an unhandled rejection.
    backfillDone.catch(() => {});
    ready.catch(() => {});
    return {
      ready,
      backfillDone,
      stop: async () => {
        this.controller.abort(new Error('fleet stopped'));
        this.options.signal?.removeEventListener('abort', this.onOuterAbort);
        await backfillDone.catch(() => {});
        await this.liveDone;
        if (this.mqtt) await this.mqtt.close().catch(() => {});
        this.save(true);
      },
    };
  }

  private emit(e: FleetEvent): void {
    this.options.onProgress?.(e);
  }

  private save(force = false): void {
    if (!this.state || (!force && performance.now() - this.lastSave < SAVE_EVERY_MS)) return;
    saveState(this.options.stateFile, this.state);
    this.lastSave = performance.now();
  }

  private modelOf(d: Pick<DeviceState, 'kind' | 'seed' | 'slot'>): DeviceModel {
    return createModel(d.kind, {
      ...this.options.modelOptions,
      seed: d.seed,
      ...rooftopOf(this.options.devices, d.slot),
    });
  }

  private async run(resolveReady: (d: readonly DeviceState[]) => void, rejectReady: (e: unknown) => void): Promise<BackfillSummary> {
    const { options } = this;
    let s: SimulatorState;
    try {
      s = await this.setup();
      this.state = s;
      this.models = s.devices.map((d) => {
        const m = this.modelOf(d);
        if (d.snapshot) m.restore(d.snapshot);
        return m;
      });
      resolveReady(s.devices);
      this.emit({
        type: 'setup',
        message: 'fleet ready',
        devices: s.devices.length,
        historyDays: options.historyDays,
        resumed: s.devices.some((d) => d.snapshot !== null),
      });
    } catch (error) {
      rejectReady(error);
      this.emit({ type: 'error', during: 'setup', error });
      throw error;
    }
    const goLive = () => {
      this.liveDone = this.live(s).catch((error: unknown) => this.emit({ type: 'error', during: 'live', error }));
    };
    let summary: BackfillSummary;
    try {
      summary = options.liveIntervalMs > 0 ? await this.backfillBesideLive(s, goLive) : await this.backfillOnly(s);
    } catch (error) {
      this.save(true);
      if (!this.signal.aborted) this.emit({ type: 'error', during: 'backfill', error });
      throw error;
    }
    this.emit({ type: 'backfill-done', summary });
    return summary;
  }

  /** Signs in (waiting for a server still starting), then finds the saved devices or registers them. */
  private async setup(): Promise<SimulatorState> {
    const { options, client, signal } = this;
    let token = '';
    for (let attempt = 1; ; attempt++) {
      try {
        token = await client.login(options.email, options.password, signal);
        break;
      } catch (err) {
        // The server may still be starting; a refused password is final.
        if (err instanceof ApiError || signal.aborted || attempt >= 20) throw err;
        await sleep(500, undefined, { signal });
      }
    }
    const saved = loadState(options.stateFile);
    const previous = saved && saved.email === options.email ? saved.devices : [];
    const remote = await client.listDevices(token, signal);
    const devices: DeviceState[] = [];
    for (const spec of options.devices) {
      const known = previous.find((d) => d.slot === spec.slot && d.kind === spec.kind && d.seed === spec.seed);
      if (known && remote.some((r) => String(r.id) === String(known.id))) {
        devices.push(known);
        continue;
      }
      devices.push(await this.register(token, spec));
    }
    const s: SimulatorState = { version: 1, baseUrl: options.baseUrl, email: options.email, devices };
    saveState(options.stateFile, s);
    return s;
  }

  private async register(token: string, spec: FleetDeviceSpec): Promise<DeviceState> {
    const { options } = this;
    for (let attempt = 0; ; attempt++) {
      const mac = simulatedMac(spec.seed, attempt);
      try {
        const r = await this.client.registerDevice(
          token,
          {
            name: spec.name,
            mac,
            typeCode: KIND_TYPE_CODES[spec.kind],
            model: KIND_MODELS[spec.kind],
            // The server derives online/offline from it: live readings, or minute history only.
            reportingIntervalSeconds: options.liveIntervalMs > 0 ? Math.max(1, Math.round(options.liveIntervalMs / 1000)) : 60,
            billingStartDate: demoBillingStart(this.now()),
          },
          this.signal,
        );
        return { ...spec, id: r.device.id, name: r.device.name || spec.name, mac, ingestKey: r.ingestKey, snapshot: null };
      } catch (err) {
        // A MAC taken by a device whose key we lost (state file gone, database kept): use the next one.
        if (err instanceof ApiError && err.status === 409 && attempt < 5) continue;
        throw err;
      }
    }
  }

  private backfill(work: BackfillDevice[], onCommitted: (i: number, snapshot: ModelSnapshot) => void): Promise<BackfillSummary> {
    const { options } = this;
    return runBackfill({
      devices: work,
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      signal: this.signal,
      onProgress: (progress) => this.emit({ type: 'backfill', progress }),
      onCommitted,
    });
  }

  /** Without live readings: history up to now, then catch-up passes while the clock moved on. */
  private async backfillOnly(s: SimulatorState): Promise<BackfillSummary> {
    const { options, models } = this;
    const total: BackfillSummary = { sent: 0, requests: 0, elapsedMs: 0, readingsPerSecond: 0 };
    for (let pass = 0; pass <= MAX_CATCH_UP_PASSES; pass++) {
      const end = Math.floor(this.now() / MINUTE_MS) * MINUTE_MS;
      const start = end - options.historyDays * DAY_MS;
      const work: BackfillDevice[] = [];
      const index: number[] = [];
      s.devices.forEach((d, i) => {
        const model = models[i];
        // No history asked for: a new device starts with its first live reading.
        if (!model || (model.lastTs === null && options.historyDays <= 0)) return;
        const fromTs = model.lastTs === null ? start : Math.max(nextMinute(model.lastTs), pass === 0 ? start : 0);
        if (fromTs > end) return;
        index.push(i);
        work.push({ model, fromTs, toTs: end, send: (lines, sig) => this.client.ingest(d.ingestKey, lines, sig) });
      });
      if (work.length === 0) break;
      const summary = await this.backfill(work, (i, snapshot) => {
        const d = s.devices[index[i] ?? -1];
        if (d) d.snapshot = snapshot;
        this.save();
      });
      add(total, summary);
      // A short pass means we have caught up with the clock.
      if (summary.elapsedMs < MINUTE_MS) break;
    }
    return this.finish(total);
  }

  /**
   * With live readings: the devices go live at once and the history is sent beside them. A year of
   * history takes minutes to store; a device whose newest reading is the backfill's progress would show
   * offline with last March's values all that time. So each live model is first stepped (without
   * sending) through the minutes the history will hold, which gives it exactly the counters the history
   * ends with, and starts sending now; a second model of the same seed replays those minutes and sends
   * them. What is still unsent is kept in the state file, so a stop half-way resumes it.
   */
  private async backfillBesideLive(s: SimulatorState, goLive: () => void): Promise<BackfillSummary> {
    const { options, models, signal } = this;
    const end = Math.floor(this.now() / MINUTE_MS) * MINUTE_MS;
    const start = end - options.historyDays * DAY_MS;
    for (const [i, d] of s.devices.entries()) {
      const model = models[i];
      if (!model) continue;
      d.pending ??= [];
      let range: PendingHistory | null = null;
      if (model.lastTs === null) {
        // No history asked for: a new device starts with its first live reading.
        if (options.historyDays > 0) range = { from: null, fromTs: start, toTs: end };
      } else if (nextMinute(model.lastTs) <= end) {
        range = { from: model.snapshot(), fromTs: nextMinute(model.lastTs), toTs: end };
      }
      if (!range) continue;
      d.pending.push(range);
      await stepThrough(model, range.fromTs, range.toTs, signal);
      d.snapshot = model.snapshot();
    }
    this.save(true);
    goLive();

    const total: BackfillSummary = { sent: 0, requests: 0, elapsedMs: 0, readingsPerSecond: 0 };
    for (;;) {
      const work: BackfillDevice[] = [];
      const owners: { device: DeviceState; range: PendingHistory }[] = [];
      for (const d of s.devices) {
        const range = d.pending?.[0];
        if (!range) continue;
        const model = this.modelOf(d);
        if (range.from) model.restore(range.from);
        owners.push({ device: d, range });
        work.push({ model, fromTs: range.fromTs, toTs: range.toTs, send: (lines, sig) => this.client.ingest(d.ingestKey, lines, sig) });
      }
      if (work.length === 0) break;
      const summary = await this.backfill(work, (i, snapshot) => {
        const owner = owners[i];
        if (!owner) return;
        owner.range.from = snapshot;
        owner.range.fromTs = nextMinute(snapshot.ts);
        this.save();
      });
      for (const { device } of owners) device.pending?.shift();
      this.save(true);
      add(total, summary);
    }
    for (const d of s.devices) delete d.pending;
    return this.finish(total);
  }

  private finish(total: BackfillSummary): BackfillSummary {
    total.readingsPerSecond = total.elapsedMs > 0 ? (total.sent * 1000) / total.elapsedMs : 0;
    this.save(true);
    return total;
  }

  /** A reading of every device per interval (the first at once), over HTTP or MQTT; a missed one is a gap. */
  private async live(s: SimulatorState): Promise<void> {
    const { options, models, signal } = this;
    if (options.liveIntervalMs <= 0) return;
    if (options.mqttUrl) this.mqtt = await connectMqtt(options.mqttUrl);
    const serializers = models.map((m) => new ReadingSerializer(m));
    let lastError = 0;
    // The first reading goes out at once (a device shows online the moment it goes live), then one per interval.
    let first = true;
    while (!signal.aborted) {
      if (!first) {
        try {
          await sleep(options.liveIntervalMs, undefined, { signal });
        } catch {
          break;
        }
      }
      first = false;
      const ts = Math.floor(this.now() / 1000) * 1000;
      await Promise.all(
        s.devices.map(async (d, i) => {
          const model = models[i];
          const serializer = serializers[i];
          if (!model || !serializer || (model.lastTs !== null && ts <= model.lastTs)) return;
          model.step(ts);
          d.snapshot = model.snapshot();
          if (model.isGap(ts)) return;
          const line = serializer.reading(ts);
          try {
            if (this.mqtt) await this.mqtt.publish(d.mac, d.ingestKey, [line]);
            else await this.client.ingest(d.ingestKey, [line], signal, 2);
          } catch (error) {
            // A missed live reading is a gap, not a failure; report at most one error a minute.
            if (!signal.aborted && performance.now() - lastError > MINUTE_MS) {
              lastError = performance.now();
              this.emit({ type: 'error', during: 'live', error });
            }
          }
        }),
      );
      this.save();
    }
  }
}

function add(total: BackfillSummary, summary: BackfillSummary): void {
  total.sent += summary.sent;
  total.requests += summary.requests;
  total.elapsedMs += summary.elapsedMs;
}

/** The model option of a grid meter behind rooftop PV (issue 33), from its spec by slot. */
function rooftopOf(specs: readonly FleetDeviceSpec[], slot: string): { rooftopSolarSeed?: number } {
  const seed = specs.find((x) => x.slot === slot)?.rooftopSolarSeed;
  return seed === undefined ? {} : { rooftopSolarSeed: seed };
}
