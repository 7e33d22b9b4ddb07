import {
  type CollectorErrorKey,
  type CollectorKind,
  type CollectorSource,
  type CollectorStatus,
  type CollectorTestRequest,
  type CollectorTestResponse,
  type CreateDeviceRequest,
  type CreateDeviceResponse,
  collectorSourceSchema,
  DEFAULT_POLL_SECONDS,
  DEVICE_TYPES,
  type DiscoveredDevice,
  FALLBACK_TIMEZONE,
  macSchema,
  validationMessage,
} from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import { asCollectorError, CollectorError } from '../../collectors/collector-error.js';
import type { CollectedReading, DeviceInfo } from '../../collectors/family.js';
import { discoverFox } from '../../collectors/fox-energy.js';
import { NetworkGuard } from '../../collectors/network-guard.js';
import {
  CollectorRunner,
  checkedValues,
  POLLED_FAMILIES,
  pollContext,
  type RunnerDevice,
  type RunnerStatus,
} from '../../collectors/runner.js';
import { probeTasmota } from '../../collectors/tasmota.js';
import type { AppConfig } from '../../config.js';
import type { EventBus } from '../../events/bus.js';
import { serverDate } from '../../http/dates.js';
import { ApiError, keyedError } from '../../http/errors.js';
import type { IngestService } from '../../ingest/ingest.service.js';
import type { DevicesService } from '../devices/index.js';
import { type InstanceMembership, type MembershipTimings, rendezvousOwner } from './collectors.membership.js';
import type { CollectorsRepository, CollectorWithDevice } from './collectors.repository.js';

/** What reading a device depends on: a change made on any instance shows in it, and the owner starts over. */
function signature(d: { kind: string; address: string; key: string | undefined; pollSeconds: number; timezone: string }): string {
  return JSON.stringify([d.kind, d.address, d.key ?? null, d.pollSeconds, d.timezone]);
}

/** Tasmota sends every TelePeriod, 300 s unless set otherwise: offline after three missed. */
const TASMOTA_DEFAULT_SECONDS = 300;
/** How long a Tasmota device has to answer the connection test on the broker. */
const TASMOTA_PROBE_MS = 5000;
/** How long discovery listens for answers. */
const DISCOVERY_MS = 3000;

/** A MAC made up from the address, for a device that does not say its own (locally administered, stable). */
export function addressMac(kind: CollectorKind, address: string): string {
  let h = 2166136261;
  for (const ch of `${kind}|${address}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  let g = h ^ 0x5bd1e995;
  g = Math.imul(g ^ (g >>> 15), 2246822519) >>> 0;
  const bytes = [0x02, (h >>> 24) & 255, (h >>> 16) & 255, (h >>> 8) & 255, h & 255, g & 255];
  return bytes.map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

/** The import counter a device reported (kWh): `eai` or the sum of `eai1`…`eai3`, or null without one. */
export function meterCounterOf(values: Record<string, number> | undefined): number | null {
  if (!values) return null;
  if (typeof values.eai === 'number') return Math.round(values.eai * 1e6) / 1e6;
  const phases = ['eai1', 'eai2', 'eai3'].map((k) => values[k]).filter((v): v is number => typeof v === 'number');
  return phases.length === 0 ? null : Math.round(phases.reduce((a, b) => a + b, 0) * 1e6) / 1e6;
}

/** Devices Phasewatch reads itself: the connection test, registration with a source, status, discovery. */
export class CollectorsService {
  readonly guard: NetworkGuard;
  readonly runner: CollectorRunner;
  /** Ingest identities of the running collectors, by device id. */
  private readonly identities = new Map<number, { id: number; userId: number; mac: string; timezone: string }>();
  /**
   * The live instances devices are shared among (rendezvous hashing); null: not known yet. Without a
   * membership (SQLite: one instance) every device is this instance's.
   */
  private members: string[] | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private reconciling: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly repo: CollectorsRepository,
    private readonly devices: DevicesService,
    private readonly ingest: IngestService,
    private readonly config: AppConfig,
    private readonly log: FastifyBaseLogger,
    events: EventBus,
    guard?: NetworkGuard,
    /** Several instances on one PostgreSQL: each polled or heard device is read by one live instance. */
    private readonly membership: InstanceMembership | null = null,
  ) {
    this.guard = guard ?? new NetworkGuard(config.collectorNetworks);
    this.runner = new CollectorRunner({
      guard: this.guard,
      mqttUrl: config.mqttUrl,
      rules: { jitterRatio: config.energyJitterRatio, gapLimitMs: config.energyGapLimitMs },
      oldest: () => Date.now() - config.rawRetentionDays * 86_400_000 + 60_000,
      sink: {
        deliver: (device, readings) => this.deliver(device, readings),
        changed: (device, status) => {
          this.repo.recordStatus(device.id, status).catch((err: unknown) => this.log.warn({ err }, 'collector status not recorded'));
        },
      },
    });
    events.on('deviceDeleted', ({ deviceId }) => {
      this.runner.remove(deviceId);
      this.identities.delete(deviceId);
    });
  }

  /** Whether this instance reads the device (always, alone; its rendezvous share among the live instances otherwise). */
  owns(deviceId: number): boolean {
    if (!this.membership) return true;
    return this.members !== null && rendezvousOwner(this.members, deviceId) === this.membership.id;
  }

  /**
   * Starts reading every collected device this instance owns (spread over one poll interval); with a
   * membership, looks again every tick: devices of instances that died or left are taken, devices won by an
   * instance that joined are let go, and devices added, changed or deleted on other instances follow.
   */
  async start(): Promise<void> {
    if (!this.config.collectors) return;
    if (this.membership) {
      this.tick();
      await this.reconciling;
      this.tickTimer = setInterval(() => this.tick(), this.membership.timings.tickMs);
      this.tickTimer.unref();
      return;
    }
    const rows = await this.repo.all();
    const latest = new Map<number, CollectedReading>();
    for (const userId of new Set(rows.map((r) => r.user_id)))
      for (const [id, reading] of await this.devices.latestReadingsOf(userId)) latest.set(id, reading);
    for (const row of rows) {
      this.identities.set(row.device_id, { id: row.device_id, userId: row.user_id, mac: row.mac, timezone: row.timezone });
      this.runner.add(
        {
          id: row.device_id,
          kind: row.kind as CollectorKind,
          address: row.address,
          key: row.device_key ?? undefined,
          pollSeconds: row.poll_seconds,
          timezone: row.timezone,
          last: latest.get(row.device_id) ?? null,
        },
        { spread: true },
      );
    }
    if (rows.length > 0) this.log.info({ devices: rows.length }, 'collectors started');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.tickTimer) clearInterval(this.tickTimer);
    await this.reconciling;
    await this.runner.stop();
    await this.membership?.leave().catch((err: unknown) => this.log.warn({ err }, 'collectors: leaving the instances table failed'));
  }

  /**
   * Stops reading and beating without leaving the instances table, as a killed instance does (tests of the
   * takeover; a real stop is `stop()`).
   */
  async haltWithoutLeaving(): Promise<void> {
    this.stopped = true;
    if (this.tickTimer) clearInterval(this.tickTimer);
    await this.reconciling;
    await this.runner.stop();
  }

  /** Shortens the heartbeat and the time after which an instance is dead (tests). */
  retime(timings: MembershipTimings): void {
    if (!this.membership) return;
    this.membership.timings = timings;
    if (this.tickTimer) {
      clearInterval(this.tickTimer);
      this.tickTimer = setInterval(() => this.tick(), timings.tickMs);
      this.tickTimer.unref();
    }
  }

  /** Starts an ownership round unless one is running. */
  private tick(): void {
    if (this.stopped || this.reconciling) return;
    this.reconciling = this.reconcile()
      .catch((err: unknown) => this.log.warn({ err }, 'collectors: ownership check failed'))
      .finally(() => {
        this.reconciling = null;
      });
  }

  /** Devices this instance reads now (ids), for status and tests. */
  readingHere(): number[] {
    return [...this.identities.keys()];
  }

  /** One heartbeat and ownership round (see `start`). */
  private async reconcile(): Promise<void> {
    const m = this.membership;
    if (!m) return;
    const now = Date.now();
    const live = (await m.beat(now)).map((x) => x.id);
    const others = live.filter((id) => id !== m.id);
    // A joining instance claims nothing until the others have had a tick to see it and let its share go:
    // a device is then briefly read by none, never by two. Alone, it starts at once.
    const joining = others.length > 0 && now - m.startedAt < m.timings.tickMs + 1_000;
    this.members = joining ? [] : [m.id, ...others];
    if (this.stopped) return;
    const rows = await this.repo.all();
    const mine = rows.filter((r) => this.owns(r.device_id));
    const mineIds = new Set(mine.map((r) => r.device_id));
    for (const id of [...this.identities.keys()])
      if (!mineIds.has(id)) {
        this.runner.remove(id);
        this.identities.delete(id);
      }
    const device = (row: CollectorWithDevice) => ({
      id: row.device_id,
      kind: row.kind as CollectorKind,
      address: row.address,
      key: row.device_key ?? undefined,
      pollSeconds: row.poll_seconds,
      timezone: row.timezone,
    });
    const toAdd = mine.filter((r) => {
      const running = this.runner.device(r.device_id);
      return !running || signature(running) !== signature(device(r));
    });
    if (toAdd.length === 0 || this.stopped) return;
    const latest = new Map<number, CollectedReading>();
    for (const userId of new Set(toAdd.filter((r) => !this.runner.device(r.device_id)).map((r) => r.user_id)))
      for (const [id, reading] of await this.devices.latestReadingsOf(userId)) latest.set(id, reading);
    if (this.stopped) return;
    for (const row of toAdd) {
      this.identities.set(row.device_id, { id: row.device_id, userId: row.user_id, mac: row.mac, timezone: row.timezone });
      const last = this.runner.device(row.device_id)?.last ?? latest.get(row.device_id) ?? null;
      this.runner.add({ ...device(row), last }, { spread: true });
    }
    this.log.info(
      { instance: m.id, instances: live.length, taken: toAdd.length, reading: this.identities.size },
      'collectors: devices taken',
    );
  }

  /** Readings of a collected device through the same validated, batched ingest as HTTP and MQTT. */
  private async deliver(device: RunnerDevice, readings: CollectedReading[]): Promise<void> {
    const identity = this.identities.get(device.id);
    if (!identity) return;
    for (let i = 0; i < readings.length; i += 5000) {
      const body = { readings: readings.slice(i, i + 5000).map((r) => ({ ts: new Date(r.ts).toISOString(), values: r.values })) };
      try {
        await this.ingest.ingest(identity, body, 'collector');
      } catch (err) {
        if (err instanceof ApiError) throw new CollectorError('badValues', `readings refused: ${err.message}`);
        throw err;
      }
    }
  }

  /** What the device at `address` is, or why it cannot be read (never throws for a device's failure). */
  async test(req: CollectorTestRequest, timezone = FALLBACK_TIMEZONE): Promise<CollectorTestResponse> {
    try {
      const info = await this.checkedProbe(req.kind, req.address, req.key, timezone);
      const mac = info.mac ? macSchema.safeParse(info.mac) : null;
      return {
        ok: true,
        kind: info.kind,
        ...(info.model ? { model: info.model } : {}),
        ...(mac?.success ? { mac: mac.data } : {}),
        ...(info.phases
          ? { phases: info.phases, typeCode: info.phases === 3 ? DEVICE_TYPES.ENERGY_METER_3P : DEVICE_TYPES.SINGLE_PHASE_METER }
          : {}),
        ...(info.values ? { values: info.values } : {}),
      };
    } catch (err) {
      const e = asCollectorError(err);
      return { ok: false, error: e.message, errorKey: e.key };
    }
  }

  /** What the device is, with its first reading's values checked as polling checks them (never a value the answer cannot carry). */
  private async checkedProbe(
    kind: CollectorKind,
    address: string,
    key: string | undefined,
    timezone: string,
  ): Promise<DeviceInfo & { values?: Record<string, number> }> {
    const info = await this.probe(kind, address, key, timezone);
    if (!info.values) return info;
    const refused: string[] = [];
    const values = checkedValues(info.values, refused);
    if (Object.keys(values).length === 0 && refused.length > 0)
      throw new CollectorError('badValues', `values refused: ${refused.slice(0, 5).join('; ')}`);
    return { ...info, values };
  }

  private async probe(
    kind: CollectorKind,
    address: string,
    key: string | undefined,
    timezone: string,
  ): Promise<DeviceInfo & { values?: Record<string, number> }> {
    if (kind === 'tasmota') {
      if (!this.config.mqttUrl)
        throw new CollectorError('noBroker', 'Tasmota devices are heard on the MQTT broker, and this server has none (MQTT_URL)');
      return probeTasmota(this.config.mqttUrl, address, TASMOTA_PROBE_MS, timezone);
    }
    const family = POLLED_FAMILIES[kind];
    if (!family) throw new CollectorError('unexpectedAnswer', `no collector for ${kind}`);
    const ctx = pollContext({ id: 0, kind, address, key, pollSeconds: DEFAULT_POLL_SECONDS, timezone, last: null }, this.guard);
    const info = await family.probe(ctx);
    if (info.kind !== kind && POLLED_FAMILIES[info.kind]) {
      // A Shelly of the other generation: read it as what it says it is.
      const other = POLLED_FAMILIES[info.kind];
      if (other) {
        const found = await other.probe(ctx);
        const [reading] = await other.poll(ctx);
        return reading ? { ...found, values: reading.values } : found;
      }
    }
    const [reading] = await family.poll(ctx);
    return reading ? { ...info, values: reading.values } : info;
  }

  /**
   * `POST /api/devices` with a `source`: the connection is tested first (refused networks and devices
   * that cannot be read answer 400 naming why), then the device is registered and read from then on.
   */
  async createDevice(userId: number, body: CreateDeviceRequest & { source: CollectorSource }): Promise<CreateDeviceResponse> {
    const { source, ...rest } = body;
    const timezone = (await this.devices.timezoneOf(userId)) ?? FALLBACK_TIMEZONE;
    const tested = await this.test({ kind: source.kind, address: source.address, key: source.key }, timezone);
    if (!tested.ok)
      throw new ApiError(400, `source.address: ${tested.error}`, [
        { field: 'source.address', message: tested.error, key: 'errors.collectorTestFailed' },
      ]);
    const kind = tested.kind;
    const pollSeconds = source.pollSeconds ?? (kind === 'tasmota' ? TASMOTA_DEFAULT_SECONDS : DEFAULT_POLL_SECONDS);
    const mac = rest.mac ?? tested.mac ?? addressMac(kind, source.address);
    const created = await this.devices.create(userId, {
      ...rest,
      mac: macSchema.parse(mac),
      model: rest.model || tested.model || '',
      reportingIntervalSeconds: rest.reportingIntervalSeconds ?? pollSeconds,
    });
    const id = created.device.id;
    // The device's own import counter (read by the connection test) is its meter value: "Meter total" then
    // reads what the meter shows, not only the energy since it was added.
    const counter = meterCounterOf(tested.values);
    if (counter !== null) created.device = await this.devices.setMeterValue(userId, id, counter);
    await this.repo.insert({
      device_id: id,
      user_id: userId,
      kind,
      address: source.address,
      device_key: source.key ?? null,
      poll_seconds: pollSeconds,
      last_success_at: null,
      last_error: null,
      last_error_key: null,
      last_error_at: null,
      failures: 0,
      created_at: Date.now(),
    });
    // With several instances the owner may be another one: it starts reading at its next tick.
    if (this.config.collectors && this.owns(id)) {
      this.identities.set(id, { id, userId, mac: created.device.mac, timezone });
      this.runner.add({ id, kind, address: source.address, key: source.key, pollSeconds, timezone, last: null });
    }
    return created;
  }

  /** The collector row of a user's device; 404 for another user's device and for one not read by a collector. */
  private async ownRow(userId: number, deviceId: number) {
    const row = await this.repo.findForUser(userId, deviceId);
    if (row) return row;
    if (await this.devices.owns(userId, deviceId)) throw keyedError(404, 'errors.collectorNotFound');
    throw keyedError(404, 'errors.deviceNotFound');
  }

  /** New settings of a collected device tested as the connection test does, with its stored key unless one is given. */
  async retest(
    userId: number,
    deviceId: number,
    req: { address?: string | undefined; key?: string | undefined },
  ): Promise<CollectorTestResponse> {
    const row = await this.ownRow(userId, deviceId);
    const kind = row.kind as CollectorKind;
    const address = req.address ?? row.address;
    const fits = collectorSourceSchema.safeParse({ kind, address });
    if (!fits.success) return { ok: false, error: validationMessage('validation.collectorAddress'), errorKey: 'unexpectedAnswer' };
    const key = req.key ?? row.device_key ?? undefined;
    // A Shelly is tested as either generation (it says which); other kinds as they are.
    const asKind = kind === 'shelly-gen1' ? 'shelly-gen2' : kind;
    return this.test({ kind: asKind, address, ...(key ? { key } : {}) }, (await this.devices.timezoneOf(userId)) ?? FALLBACK_TIMEZONE);
  }

  /** Reads the device from now on as `source` says (saved as given; its state then tells how reading goes). */
  async update(userId: number, deviceId: number, source: CollectorSource): Promise<CollectorStatus> {
    const row = await this.ownRow(userId, deviceId);
    const key = source.key === undefined ? (row.device_key ?? undefined) : source.key || undefined;
    const pollSeconds = source.pollSeconds ?? row.poll_seconds;
    await this.repo.update(userId, deviceId, {
      kind: source.kind,
      address: source.address,
      device_key: key ?? null,
      poll_seconds: pollSeconds,
    });
    if (pollSeconds !== row.poll_seconds) await this.devices.update(userId, deviceId, { reportingIntervalSeconds: pollSeconds });
    const identity = this.identities.get(deviceId);
    if (this.config.collectors && identity)
      this.runner.add({
        id: deviceId,
        kind: source.kind,
        address: source.address,
        key,
        pollSeconds,
        timezone: identity.timezone,
        last: this.runner.device(deviceId)?.last ?? null,
      });
    return this.status(userId, deviceId);
  }

  /** How reading a device goes; 404 for another user's device and for one not read by a collector. */
  async status(userId: number, deviceId: number): Promise<CollectorStatus> {
    const row = await this.ownRow(userId, deviceId);
    const live: RunnerStatus | undefined = this.runner.status(deviceId);
    const s: RunnerStatus = live ?? {
      state: row.failures > 0 ? 'retrying' : row.last_success_at ? (row.kind === 'tasmota' ? 'listening' : 'polling') : 'starting',
      lastSuccessAt: row.last_success_at,
      lastError: row.last_error,
      lastErrorKey: row.last_error_key as CollectorErrorKey | null,
      lastErrorAt: row.last_error_at,
      failures: row.failures,
      nextAttemptAt: null,
    };
    const date = (ms: number | null) => (ms === null ? null : serverDate(ms));
    return {
      kind: row.kind as CollectorKind,
      address: row.address,
      pollSeconds: row.poll_seconds,
      hasKey: row.device_key !== null && row.device_key !== '',
      state: s.state,
      lastSuccessAt: date(s.lastSuccessAt),
      lastError: s.lastError,
      lastErrorKey: s.lastErrorKey,
      lastErrorAt: date(s.lastErrorAt),
      failures: s.failures,
      nextAttemptAt: date(s.nextAttemptAt),
    };
  }

  /** Fox devices answering the UDP discovery within a few seconds; 403 where discovery is off (config.collectorDiscovery). */
  async discover(): Promise<DiscoveredDevice[]> {
    const target = this.config.collectorDiscovery;
    if (!target) throw keyedError(403, 'errors.discoveryOff');
    return discoverFox({ target, waitMs: DISCOVERY_MS, allowed: (ip) => this.guard.allows(ip) });
  }
}
