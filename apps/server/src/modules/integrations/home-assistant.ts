import { deviceStatus, startOfLocalDay } from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import mqtt from 'mqtt';
import type { EventBus } from '../../events/bus.js';
import type { Database, DeviceRow } from '../../storage/schema.js';
import { latestRawReadings } from '../readings/index.js';

/*
 * Home Assistant through MQTT discovery (issue 31), the way Zigbee2MQTT, Tasmota and ESPHome appear in HA:
 * each device its owner shares (`devices.share_ha`) is an HA device whose sensors are announced by retained
 * `homeassistant/sensor/phasewatch_<mac>_<key>/config` messages; the values go to `phasewatch/<mac>/state`
 * (one JSON object, each sensor's `value_template` picks its key), and `phasewatch/<mac>/availability`
 * says `online` / `offline` with the device (beside the server's own `phasewatch/bridge/availability`, its
 * last will). An empty retained config removes a sensor: unsharing or deleting the device sends them.
 * Its own MQTT client, apart from the ingest subscriber.
 */

export const HA_DISCOVERY_PREFIX = 'homeassistant';
export const BRIDGE_AVAILABILITY = 'phasewatch/bridge/availability';

/** A sensor as discovery announces it: the key in the state JSON, what HA shows and how it aggregates. */
export interface HaSensor {
  key: string;
  name: string;
  unit: string;
  deviceClass: 'power' | 'voltage' | 'current' | 'frequency' | 'energy' | 'monetary';
  stateClass: 'measurement' | 'total_increasing' | 'total';
}

const PHASES = [1, 2, 3] as const;

/** The sensors of a device: per phase for three-phase meters, energy import / export for HA's Energy dashboard. */
export function haSensors(typeCode: number, costCurrency: string | null): HaSensor[] {
  const single = typeCode === 20;
  const phases = single ? [1] : PHASES;
  const out: HaSensor[] = [];
  if (!single) out.push({ key: 'power', name: 'Power', unit: 'W', deviceClass: 'power', stateClass: 'measurement' });
  for (const p of phases) {
    const suffix = single ? '' : ` L${p}`;
    out.push({ key: `pave${p}`, name: `Power${suffix}`, unit: 'W', deviceClass: 'power', stateClass: 'measurement' });
    out.push({ key: `vave${p}`, name: `Voltage${suffix}`, unit: 'V', deviceClass: 'voltage', stateClass: 'measurement' });
    out.push({ key: `iave${p}`, name: `Current${suffix}`, unit: 'A', deviceClass: 'current', stateClass: 'measurement' });
  }
  out.push({ key: 'frq1', name: 'Frequency', unit: 'Hz', deviceClass: 'frequency', stateClass: 'measurement' });
  out.push({ key: 'energy_import', name: 'Energy import', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing' });
  out.push({ key: 'energy_export', name: 'Energy export', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing' });
  if (costCurrency) out.push({ key: 'cost_today', name: 'Cost today', unit: costCurrency, deviceClass: 'monetary', stateClass: 'total' });
  return out;
}

/** The MAC as topics and ids use it: lowercase hex digits only. */
export const compactMac = (mac: string) => mac.toLowerCase().replace(/[^0-9a-f]/g, '');
export const stateTopic = (mac: string) => `phasewatch/${compactMac(mac)}/state`;
export const availabilityTopic = (mac: string) => `phasewatch/${compactMac(mac)}/availability`;
export const configTopic = (mac: string, key: string) => `${HA_DISCOVERY_PREFIX}/sensor/phasewatch_${compactMac(mac)}_${key}/config`;

/** The discovery payload of one sensor (HA's MQTT sensor schema, full key names). */
export function discoveryConfig(device: Pick<DeviceRow, 'mac' | 'name' | 'model' | 'type_name'>, s: HaSensor, version: string) {
  const id = `phasewatch_${compactMac(device.mac)}`;
  return {
    name: s.name,
    unique_id: `${id}_${s.key}`,
    object_id: `${id}_${s.key}`,
    state_topic: stateTopic(device.mac),
    value_template: `{{ value_json.${s.key} }}`,
    unit_of_measurement: s.unit,
    device_class: s.deviceClass,
    state_class: s.stateClass,
    ...(s.deviceClass === 'energy' || s.deviceClass === 'monetary' ? { suggested_display_precision: 2 } : {}),
    availability: [{ topic: BRIDGE_AVAILABILITY }, { topic: availabilityTopic(device.mac) }],
    availability_mode: 'all',
    payload_available: 'online',
    payload_not_available: 'offline',
    device: {
      identifiers: [id],
      connections: [['mac', device.mac.toLowerCase()]],
      name: device.name,
      manufacturer: 'Phasewatch',
      model: device.model || device.type_name,
      sw_version: version,
    },
    origin: { name: 'Phasewatch', sw_version: version },
  };
}

/** A device's state JSON from its latest values: the catalogue's names, energy import/export summed over phases when there is no total. */
export function stateOf(values: Record<string, number>, previous: Record<string, number> = {}): Record<string, number> {
  const out: Record<string, number> = { ...previous };
  for (const k of ['pave1', 'pave2', 'pave3', 'vave1', 'vave2', 'vave3', 'iave1', 'iave2', 'iave3', 'frq1'])
    if (values[k] !== undefined) out[k] = values[k] as number;
  if (values.power3phases !== undefined) out.power = values.power3phases;
  else if (values.pave1 !== undefined || values.pave2 !== undefined || values.pave3 !== undefined)
    out.power = Math.round(((values.pave1 ?? 0) + (values.pave2 ?? 0) + (values.pave3 ?? 0)) * 1000) / 1000;
  const total = (all: string, phase: string) => {
    if (values[all] !== undefined) return values[all] as number;
    const ps = PHASES.map((p) => values[`${phase}${p}`]).filter((v): v is number => v !== undefined);
    return ps.length ? Math.round(ps.reduce((a, b) => a + b, 0) * 1e6) / 1e6 : undefined;
  };
  const imp = total('energy3phases_import', 'eai');
  const exp = total('energy3phases_export', 'eae');
  if (imp !== undefined) out.energy_import = imp;
  if (exp !== undefined) out.energy_export = exp;
  return out;
}

export interface HomeAssistantOptions {
  url: string;
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  events: EventBus;
  log: FastifyBaseLogger;
  version: string;
  /** Today's energy cost of a device under its tariff (null: no tariff applies). */
  costToday?: (device: DeviceRow, from: number, to: number) => Promise<{ currency: string; cost: number } | null>;
  /** How often a shared device's state is published at most (ms). */
  stateEveryMs?: number;
  /** How often today's cost is worked out again (ms). */
  costEveryMs?: number;
  now?: () => number;
}

interface Shared {
  device: DeviceRow;
  /** The sensors whose configs are out (removed by an empty config each). */
  keys: string[];
  state: Record<string, number>;
  lastSent: number;
  pending: NodeJS.Timeout | null;
  currency: string | null;
}

/** Publishes shared devices to Home Assistant over MQTT; started and stopped with the app. */
export class HomeAssistantPublisher {
  private client: mqtt.MqttClient | null = null;
  private readonly shared = new Map<number, Shared>();
  private costTimer: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  private readonly off: (() => void)[] = [];

  constructor(private readonly o: HomeAssistantOptions) {
    this.now = o.now ?? Date.now;
  }

  async start(): Promise<void> {
    const client = mqtt.connect(this.o.url, {
      protocolVersion: 5,
      reconnectPeriod: 2000,
      connectTimeout: 5000,
      clientId: `phasewatch-ha-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
      will: { topic: BRIDGE_AVAILABILITY, payload: Buffer.from('offline'), retain: true, qos: 1 },
    });
    this.client = client;
    client.on('error', (err) => this.o.log.warn({ err }, 'home assistant mqtt error'));
    client.on('connect', () => {
      // After a reconnect too: the broker may have lost what was retained.
      void this.publishAll().catch((err) => this.o.log.warn({ err }, 'home assistant discovery failed'));
    });
    const on = <K extends 'readingCommitted' | 'deviceStatusChanged' | 'deviceSettingsChanged' | 'deviceDeleted'>(
      name: K,
      fn: (...args: Parameters<Parameters<EventBus['on']>[1]>) => void,
    ) => {
      this.o.events.on(name, fn as never);
      this.off.push(() => this.o.events.off(name, fn as never));
    };
    on('readingCommitted', (e) => {
      const r = e as { deviceId: number; values: Record<string, number> };
      this.reading(r.deviceId, r.values);
    });
    on('deviceStatusChanged', (e) => {
      const s = e as { deviceId: number; status: string };
      const d = this.shared.get(s.deviceId);
      if (d) void this.publish(availabilityTopic(d.device.mac), s.status === 'online' ? 'online' : 'offline');
    });
    on('deviceSettingsChanged', (e) => {
      void this.refresh((e as { deviceId: number }).deviceId).catch((err) => this.o.log.warn({ err }, 'home assistant refresh failed'));
    });
    on('deviceDeleted', (e) => {
      void this.unshare((e as { deviceId: number }).deviceId);
    });
    this.costTimer = setInterval(() => void this.publishCosts(), this.o.costEveryMs ?? 300_000);
    this.costTimer.unref();
    await new Promise<void>((resolve) => {
      const done = () => resolve();
      client.once('connect', done);
      client.once('error', done);
      setTimeout(done, 5000).unref();
    });
  }

  async stop(): Promise<void> {
    for (const f of this.off) f();
    if (this.costTimer) clearInterval(this.costTimer);
    for (const d of this.shared.values()) if (d.pending) clearTimeout(d.pending);
    const client = this.client;
    this.client = null;
    if (!client) return;
    await new Promise<void>((resolve) => {
      if (!client.connected) return client.end(true, {}, () => resolve());
      client.publish(BRIDGE_AVAILABILITY, 'offline', { retain: true, qos: 1 }, () => client.end(false, {}, () => resolve()));
    });
  }

  /** Devices shared now (tests). */
  sharedDevices(): number[] {
    return [...this.shared.keys()];
  }

  private publish(topic: string, payload: string): Promise<void> {
    const client = this.client;
    if (!client) return Promise.resolve();
    return new Promise((resolve) => {
      client.publish(topic, payload, { retain: true, qos: 1 }, (err) => {
        if (err) this.o.log.warn({ err, topic }, 'home assistant publish failed');
        resolve();
      });
    });
  }

  /** Every shared device's configs, availability and last state. */
  private async publishAll(): Promise<void> {
    await this.publish(BRIDGE_AVAILABILITY, 'online');
    const rows = await this.o.db.selectFrom('devices').selectAll().where('share_ha', '=', 1).execute();
    for (const row of rows) await this.share(row as DeviceRow);
  }

  /** After a device's settings changed: shared, unshared, or renamed. */
  private async refresh(deviceId: number): Promise<void> {
    const row = (await this.o.db.selectFrom('devices').selectAll().where('id', '=', deviceId).executeTakeFirst()) as DeviceRow | undefined;
    if (row?.share_ha !== 1) {
      await this.unshare(deviceId);
      return;
    }
    await this.share(row);
  }

  private async share(row: DeviceRow): Promise<void> {
    const had = this.shared.get(row.id);
    const cost = await this.cost(row);
    const sensors = haSensors(row.type_code, cost?.currency ?? null);
    const keys = sensors.map((s) => s.key);
    // A changed MAC or a sensor gone: its old config removed.
    if (had) {
      for (const k of had.keys) if (had.device.mac !== row.mac || !keys.includes(k)) await this.publish(configTopic(had.device.mac, k), '');
    }
    const entry: Shared = {
      device: row,
      keys,
      state: had?.device.mac === row.mac ? had.state : {},
      lastSent: 0,
      pending: had?.pending ?? null,
      currency: cost?.currency ?? null,
    };
    if (cost) entry.state.cost_today = cost.cost;
    this.shared.set(row.id, entry);
    for (const s of sensors) await this.publish(configTopic(row.mac, s.key), JSON.stringify(discoveryConfig(row, s, this.o.version)));
    const online = deviceStatus(row.last_seen, row.reporting_interval_s, this.now()) === 'online';
    await this.publish(availabilityTopic(row.mac), online ? 'online' : 'offline');
    if (Object.keys(entry.state).length === 0) {
      const latest = await this.latestValues(row);
      if (latest) entry.state = { ...stateOf(latest), ...(cost ? { cost_today: cost.cost } : {}) };
    }
    if (Object.keys(entry.state).length > 0) await this.publish(stateTopic(row.mac), JSON.stringify(entry.state));
  }

  /** Empty retained configs remove the device's entities from HA. */
  private async unshare(deviceId: number): Promise<void> {
    const had = this.shared.get(deviceId);
    if (!had) return;
    this.shared.delete(deviceId);
    if (had.pending) clearTimeout(had.pending);
    for (const k of had.keys) await this.publish(configTopic(had.device.mac, k), '');
    await this.publish(availabilityTopic(had.device.mac), '');
    await this.publish(stateTopic(had.device.mac), '');
  }

  private reading(deviceId: number, values: Record<string, number>): void {
    const d = this.shared.get(deviceId);
    if (!d) return;
    d.state = stateOf(values, d.state);
    if (d.pending) return;
    const wait = Math.max(0, d.lastSent + (this.o.stateEveryMs ?? 5000) - this.now());
    d.pending = setTimeout(() => {
      d.pending = null;
      d.lastSent = this.now();
      void this.publish(stateTopic(d.device.mac), JSON.stringify(d.state));
    }, wait);
    d.pending.unref();
  }

  private async cost(row: DeviceRow): Promise<{ currency: string; cost: number } | null> {
    if (!this.o.costToday) return null;
    const user = await this.o.db.selectFrom('users').select(['timezone']).where('id', '=', row.user_id).executeTakeFirst();
    const now = this.now();
    try {
      return await this.o.costToday(row, startOfLocalDay(now, user?.timezone ?? 'Europe/Warsaw'), now);
    } catch (err) {
      this.o.log.warn({ err }, 'home assistant: cost today failed');
      return null;
    }
  }

  private async publishCosts(): Promise<void> {
    for (const d of this.shared.values()) {
      if (!d.currency) continue;
      const c = await this.cost(d.device);
      if (!c) continue;
      d.state.cost_today = c.cost;
      await this.publish(stateTopic(d.device.mac), JSON.stringify(d.state));
    }
  }

  private async latestValues(row: DeviceRow): Promise<Record<string, number> | null> {
    return (await latestRawReadings(this.o.db, this.o.dialect, row.user_id, row.id)).get(row.id)?.values ?? null;
  }
}
