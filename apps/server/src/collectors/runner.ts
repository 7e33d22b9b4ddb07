import {
  type BalanceState,
  type CollectorErrorKey,
  type CollectorKind,
  type CollectorState,
  type CounterRules,
  DEFAULT_COUNTER_RULES,
  parameterInfo,
  readingValueProblem,
  startBalance,
  stepBalance,
} from '@phasewatch/shared';
import { asCollectorError, CollectorError } from './collector-error.js';
import type { CollectedReading, PollContext, PolledFamily } from './family.js';
import { foxEnergy } from './fox-energy.js';
import { getJson, type HttpOptions } from './http-client.js';
import type { NetworkGuard } from './network-guard.js';
import { shellyGen1 } from './shelly-gen1.js';
import { shellyGen2 } from './shelly-gen2.js';
import { TasmotaListener, tasmotaReading } from './tasmota.js';

/** The polled families by kind. */
export const POLLED_FAMILIES: Partial<Record<CollectorKind, PolledFamily>> = {
  'fox-energy': foxEnergy,
  'shelly-gen2': shellyGen2,
  'shelly-gen1': shellyGen1,
};

/** A device a collector reads. */
export interface RunnerDevice {
  id: number;
  kind: CollectorKind;
  /** URL (polled kinds) or MQTT topic (Tasmota). */
  address: string;
  key: string | undefined;
  pollSeconds: number;
  /** The owner's timezone (Tasmota's local `Time`). */
  timezone: string;
  /** The device's newest stored reading: counters and the balance continue from it. */
  last: CollectedReading | null;
}

export interface RunnerStatus {
  state: CollectorState;
  lastSuccessAt: number | null;
  lastError: string | null;
  lastErrorKey: CollectorErrorKey | null;
  lastErrorAt: number | null;
  failures: number;
  nextAttemptAt: number | null;
}

/** Where readings go (the ingest path of this server, or a remote server's ingest API) and who hears of changes. */
export interface RunnerSink {
  /** Stores readings; throws when they are refused (the runner records why and retries later). */
  deliver(device: RunnerDevice, readings: CollectedReading[]): Promise<void>;
  /** A device's status changed (state, error), or its last success is a minute old in the record. */
  changed?(device: RunnerDevice, status: RunnerStatus): void;
}

export interface RunnerOptions {
  guard: NetworkGuard;
  sink: RunnerSink;
  /** Broker of Tasmota devices; empty: Tasmota devices wait with an error saying so. */
  mqttUrl?: string;
  rules?: CounterRules;
  /** Readings older than this (epoch ms) are refused by ingest. */
  oldest?: () => number;
  now?: () => number;
}

/** Longest wait between tries of a failing device. */
export const MAX_BACKOFF_MS = 5 * 60_000;
/** A success is written to the record at most this often (each is stored in the readings anyway). */
const SUCCESS_RECORD_MS = 60_000;
/** Lateness samples kept for the benchmark (a ring). */
const LATENESS_SAMPLES = 20_000;

/** Per-call deadline for a poll interval: most of it, between 1 and 5 s. */
export function callTimeoutMs(pollSeconds: number): number {
  return Math.min(5000, Math.max(1000, pollSeconds * 800));
}

/** Wait before the next try after `failures` failures in a row: doubling from the poll interval, at most 5 minutes, ±25 %. */
export function backoffMs(pollSeconds: number, failures: number, random = Math.random()): number {
  const base = Math.min(MAX_BACKOFF_MS, pollSeconds * 1000 * 2 ** Math.min(failures, 16));
  return Math.round(base * (0.75 + random * 0.5));
}

/** How a polled device is read: its base URL, the guard, deadlines and authentication (Shelly Gen2 digest, Gen1 basic). */
export function pollContext(device: RunnerDevice, guard: NetworkGuard, oldest = 0, now: () => number = Date.now): PollContext {
  const base = new URL(device.address.endsWith('/') ? device.address : `${device.address}/`);
  const timeoutMs = callTimeoutMs(device.pollSeconds);
  const key = device.key;
  let auth: HttpOptions['auth'];
  if (key && device.kind === 'shelly-gen2') auth = { scheme: 'digest', user: 'admin', password: key };
  else if (key && device.kind === 'shelly-gen1') {
    // `user:password`, or the password of the default user `admin`.
    const colon = key.indexOf(':');
    auth =
      colon < 0
        ? { scheme: 'basic', user: 'admin', password: key }
        : { scheme: 'basic', user: key.slice(0, colon), password: key.slice(colon + 1) };
  }
  return {
    base,
    key,
    get: (path, o) => getJson(new URL(path, base), { guard, timeoutMs: o?.timeoutMs ?? timeoutMs, maxBytes: o?.maxBytes, auth }),
    now,
    last: device.last,
    pollSeconds: device.pollSeconds,
    oldest,
  };
}

interface Running {
  device: RunnerDevice;
  status: RunnerStatus;
  balance: BalanceState;
  timer: NodeJS.Timeout | null;
  due: number;
  removed: boolean;
  recordedSuccessAt: number;
}

/**
 * The values of one reading that the ingest rules accept (a known parameter, a finite number in its
 * range); each refused one is added to `refused` as `name = value (why)`. One check for every path a
 * device's answer takes: polling, the Tasmota listener and the connection test.
 */
export function checkedValues(raw: Readonly<Record<string, unknown>>, refused: string[] = []): Record<string, number> {
  const values: Record<string, number> = {};
  for (const [name, v] of Object.entries(raw)) {
    const info = parameterInfo(name);
    const problem = !info ? 'is not a known parameter' : typeof v !== 'number' ? 'must be a finite number' : readingValueProblem(info, v);
    if (problem) refused.push(`${name} = ${String(v).slice(0, 40)} (${problem})`);
    else values[name] = v as number;
  }
  return values;
}

/** A balance continuing the device's stored counters. */
function balanceFrom(last: CollectedReading | null): BalanceState {
  const v = last?.values ?? {};
  const b = startBalance({ import: v.balance ?? 0, export: v.balance_export ?? 0 });
  for (const name of ['eai1', 'eai2', 'eai3', 'eae1', 'eae2', 'eae3'])
    if (typeof v[name] === 'number') b.counters[name] = { last: v[name] as number, top: v[name] as number };
  return b;
}

/**
 * Reads every collected device: polls each on its own timer (a deadline per call, a back-off per
 * device, so a device that hangs or answers garbage delays nobody else) and hears Tasmota devices on the
 * broker. Each reading's values are checked by the ingest rules (a value no device can measure is
 * dropped and named), the balanced counters are added, and the sink stores them.
 */
export class CollectorRunner {
  private readonly devices = new Map<number, Running>();
  private readonly byTopic = new Map<string, Running>();
  private tasmota: TasmotaListener | null = null;
  private readonly now: () => number;
  private readonly rules: CounterRules;
  private stopped = false;
  /** Polls started late by this many ms (a ring; the benchmark's lateness). */
  readonly lateness: number[] = [];
  private latenessAt = 0;

  constructor(private readonly opts: RunnerOptions) {
    this.now = opts.now ?? Date.now;
    this.rules = opts.rules ?? DEFAULT_COUNTER_RULES;
  }

  /** Starts reading a device; the first poll is at once, or within one interval when `spread` (many at a start). */
  add(device: RunnerDevice, opts: { spread?: boolean } = {}): void {
    this.remove(device.id);
    const now = this.now();
    const r: Running = {
      device,
      status: {
        state: 'starting',
        lastSuccessAt: device.last?.ts ?? null,
        lastError: null,
        lastErrorKey: null,
        lastErrorAt: null,
        failures: 0,
        nextAttemptAt: null,
      },
      balance: balanceFrom(device.last),
      timer: null,
      due: now,
      removed: false,
      recordedSuccessAt: now,
    };
    this.devices.set(device.id, r);
    if (device.kind === 'tasmota') {
      this.byTopic.set(device.address, r);
      void this.listen(r);
      return;
    }
    this.schedule(r, now + (opts.spread ? Math.floor(Math.random() * device.pollSeconds * 1000) : 0));
  }

  /** Stops reading a device (deleted, or its settings changed). */
  remove(id: number): void {
    const r = this.devices.get(id);
    if (!r) return;
    r.removed = true;
    if (r.timer) clearTimeout(r.timer);
    this.devices.delete(id);
    if (r.device.kind === 'tasmota' && this.byTopic.get(r.device.address) === r) this.byTopic.delete(r.device.address);
  }

  status(id: number): RunnerStatus | undefined {
    return this.devices.get(id)?.status;
  }

  /** The device as it is read now (its last stored reading included), or undefined when it is not read here. */
  device(id: number): RunnerDevice | undefined {
    return this.devices.get(id)?.device;
  }

  get size(): number {
    return this.devices.size;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const id of [...this.devices.keys()]) this.remove(id);
    await this.tasmota?.stop();
    this.tasmota = null;
  }

  private schedule(r: Running, at: number): void {
    if (r.removed || this.stopped) return;
    r.due = at;
    r.status.nextAttemptAt = at;
    r.timer = setTimeout(() => void this.poll(r), Math.max(0, at - this.now()));
    r.timer.unref?.();
  }

  private sample(ms: number): void {
    if (this.lateness.length < LATENESS_SAMPLES) this.lateness.push(ms);
    else this.lateness[this.latenessAt++ % LATENESS_SAMPLES] = ms;
  }

  private async poll(r: Running): Promise<void> {
    r.timer = null;
    const started = this.now();
    this.sample(Math.max(0, started - r.due));
    const family = POLLED_FAMILIES[r.device.kind];
    try {
      if (!family) throw new CollectorError('unexpectedAnswer', `no collector for ${r.device.kind}`);
      const readings = await family.poll(pollContext(r.device, this.opts.guard, this.opts.oldest?.() ?? 0, this.now));
      if (r.removed) return;
      await this.store(r, readings);
      const period = r.device.pollSeconds * 1000;
      const next = r.due + period;
      this.schedule(r, next > this.now() ? next : this.now() + period);
    } catch (err) {
      if (r.removed) return;
      this.failed(r, asCollectorError(err));
      this.schedule(r, this.now() + backoffMs(r.device.pollSeconds, r.status.failures));
    }
  }

  /** Checks, balances and stores readings; a success for the device when something was stored. */
  private async store(r: Running, readings: CollectedReading[]): Promise<void> {
    const out: CollectedReading[] = [];
    const refused: string[] = [];
    for (const reading of readings) {
      const values = checkedValues(reading.values, refused);
      Object.assign(values, stepBalance(r.balance, values, this.rules));
      if (Object.keys(values).length > 0) out.push({ ts: reading.ts, values });
    }
    const badValues = refused.length > 0 ? new CollectorError('badValues', `values refused: ${refused.slice(0, 5).join('; ')}`) : null;
    if (out.length === 0) throw badValues ?? new CollectorError('unexpectedAnswer', 'the device answered no values');
    await this.opts.sink.deliver(r.device, out);
    r.device.last = out[out.length - 1] as CollectedReading;
    this.succeeded(r, badValues);
  }

  private succeeded(r: Running, partial: CollectorError | null): void {
    const s = r.status;
    const now = this.now();
    const wasFailing = s.failures > 0 || s.state === 'starting' || s.state === 'retrying';
    const newError = partial && partial.message !== s.lastError;
    s.state = r.device.kind === 'tasmota' ? 'listening' : 'polling';
    s.lastSuccessAt = now;
    s.failures = 0;
    if (partial) {
      s.lastError = partial.message;
      s.lastErrorKey = partial.key;
      s.lastErrorAt = now;
    }
    if (wasFailing || newError || now - r.recordedSuccessAt >= SUCCESS_RECORD_MS) {
      r.recordedSuccessAt = now;
      this.opts.sink.changed?.(r.device, s);
    }
  }

  private failed(r: Running, err: CollectorError): void {
    const s = r.status;
    const changed = s.state !== 'retrying' || s.lastError !== err.message;
    s.state = r.device.kind === 'tasmota' ? 'listening' : 'retrying';
    s.failures++;
    s.lastError = err.message;
    s.lastErrorKey = err.key;
    s.lastErrorAt = this.now();
    if (changed) this.opts.sink.changed?.(r.device, s);
  }

  private async listen(r: Running): Promise<void> {
    if (!this.opts.mqttUrl) {
      this.failed(r, new CollectorError('noBroker', 'Tasmota devices are heard on the MQTT broker, and this server has none (MQTT_URL)'));
      return;
    }
    if (!this.tasmota) {
      this.tasmota = new TasmotaListener(this.opts.mqttUrl, (topic, payload, error) => void this.heard(topic, payload, error));
      await this.tasmota.start();
    }
    if (r.removed) return;
    if (r.status.state === 'starting') {
      r.status.state = 'listening';
      this.opts.sink.changed?.(r.device, r.status);
    }
  }

  private async heard(topic: string, payload: Record<string, unknown> | null, error: CollectorError | null): Promise<void> {
    const r = this.byTopic.get(topic);
    if (!r || r.removed) return;
    try {
      if (error) throw error;
      const reading = tasmotaReading(payload as Record<string, unknown>, r.device.timezone, this.now());
      if (!reading) throw new CollectorError('unexpectedAnswer', 'the message carries no energy data (ENERGY or Total_in)');
      await this.store(r, [reading]);
    } catch (err) {
      if (!r.removed) this.failed(r, asCollectorError(err));
    }
  }
}
