import { zonedTimeInstants, zonedTimeToUtc } from '@phasewatch/shared';
import mqtt from 'mqtt';
import { CollectorError } from './collector-error.js';
import type { CollectedReading, DeviceInfo } from './family.js';
import { put } from './family.js';

/*
 * Tasmota (energy plugs, SML/IR readers of utility meters) on the MQTT broker of `MQTT_URL`: every
 * TelePeriod it publishes `tele/<topic>/SENSOR` with `Time` (the device's local time, no offset) and an
 * `ENERGY` object (Total, Power, Voltage, Current, Factor, Frequency, ExportActive; arrays per phase on
 * multi-phase devices), or a meter's own names under its sensor name (SML: `Total_in` / `Total_out`,
 * OBIS 1.8.0 / 2.8.0 in kWh, and `Power_curr` in W). `cmnd/<topic>/Status` with 0, 5 or 10 answers on
 * `stat/<topic>/STATUS`, `STATUS5` (network, MAC) and `STATUS10` (sensors).
 * Sources: Tasmota docs (JSON status responses, commands), device logs quoted in its issue tracker.
 */

/**
 * A device time within this of the time of receipt is taken as the reading's time; beyond it the device
 * clock is wrong (not synced yet: 1970) and the reading is stamped on receipt instead.
 */
const CLOCK_TRUST_MS = 3_600_000;

/**
 * The instant of Tasmota's `Time` (`2026-11-27T06:10:05`, local) in the device's timezone, or null. A
 * wall time the autumn change repeats (02:00–03:00 in Warsaw) names two instants an hour apart: the one
 * nearer `near` (the receipt) is taken, without it the first.
 */
export function tasmotaTime(time: unknown, tz: string, near?: number): number | null {
  if (typeof time !== 'string') return null;
  const m = /^(\d{4})[-.](\d{2})[-.](\d{2})[T ](\d{2}):(\d{2}):(\d{2})$/.exec(time.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const named = zonedTimeInstants(tz, y, mo, d, h, mi);
  // In a spring gap none: the wall time as zonedTimeToUtc reads it (past the gap).
  const instants = (named.length > 0 ? named : [zonedTimeToUtc(tz, y, mo, d, h, mi)]).map((t) => t + s * 1000);
  const [first] = instants;
  if (first === undefined || !Number.isFinite(first)) return null;
  if (near === undefined) return first;
  return instants.reduce((best, t) => (Math.abs(t - near) < Math.abs(best - near) ? t : best));
}

/** Per-phase field: arrays give phases 1–3, a single number phase 1. */
function phases(v: Record<string, number>, prefix: string, raw: unknown): void {
  if (!Array.isArray(raw)) {
    put(v, `${prefix}1`, raw);
    return;
  }
  for (let i = 0; i < Math.min(3, raw.length); i++) put(v, `${prefix}${i + 1}`, raw[i]);
}

/** Our values from a SENSOR (or STATUS10's StatusSNS) payload; empty when it carries no energy data. */
export function tasmotaValues(payload: Record<string, unknown>): Record<string, number> {
  const v: Record<string, number> = {};
  const energy = payload.ENERGY;
  if (energy && typeof energy === 'object' && !Array.isArray(energy)) {
    const e = energy as Record<string, unknown>;
    phases(v, 'eai', e.Total);
    phases(v, 'eae', e.ExportActive);
    phases(v, 'pave', e.Power);
    phases(v, 'vave', e.Voltage);
    phases(v, 'iave', e.Current);
    phases(v, 'pfave', e.Factor);
    put(v, 'frq1', Array.isArray(e.Frequency) ? e.Frequency[0] : e.Frequency);
  }
  // An SML or IR reader reads the utility's meter: its registers are already the netted (balanced) ones.
  for (const [name, section] of Object.entries(payload)) {
    if (name === 'ENERGY' || !section || typeof section !== 'object' || Array.isArray(section)) continue;
    const s = section as Record<string, unknown>;
    if (s.Total_in === undefined && s.Total_out === undefined && s.Power_curr === undefined) continue;
    put(v, 'energy3phases_import', s.Total_in);
    put(v, 'energy3phases_export', s.Total_out);
    put(v, 'balance', s.Total_in);
    put(v, 'balance_export', s.Total_out);
    put(v, 'power3phases', s.Power_curr);
    break;
  }
  return v;
}

/** A reading of a SENSOR payload: stamped with the device's `Time` when its clock can be trusted. */
export function tasmotaReading(payload: Record<string, unknown>, tz: string, now: number): CollectedReading | null {
  const values = tasmotaValues(payload);
  if (Object.keys(values).length === 0) return null;
  const t = tasmotaTime(payload.Time, tz, now);
  return { ts: t !== null && Math.abs(t - now) <= CLOCK_TRUST_MS ? t : now, values };
}

const SENSOR_TOPIC = /^tele\/(.+)\/SENSOR$/;

/** What the listener does with a device's readings. */
export type TasmotaHandler = (topic: string, payload: Record<string, unknown> | null, error: CollectorError | null) => void;

/**
 * One MQTT client for every Tasmota device: subscribed to `tele/+/SENSOR`, it hands each message to the
 * handler with its topic (`%topic%`); garbage is handed over as an error, never thrown.
 */
export class TasmotaListener {
  private client: mqtt.MqttClient | null = null;

  constructor(
    private readonly url: string,
    private readonly onMessage: TasmotaHandler,
  ) {}

  /** Connects in the background; resolves once subscribed or after the first failure (it keeps retrying). */
  start(): Promise<void> {
    const client = mqtt.connect(this.url, {
      reconnectPeriod: 2000,
      connectTimeout: 5000,
      clientId: `phasewatch-tasmota-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    });
    this.client = client;
    client.on('message', (topic, payload) => {
      const m = SENSOR_TOPIC.exec(topic);
      if (!m) return;
      let json: unknown;
      try {
        json = JSON.parse(payload.toString('utf8'));
      } catch {
        this.onMessage(m[1] as string, null, new CollectorError('notJson', 'the device published something that is not JSON'));
        return;
      }
      if (!json || typeof json !== 'object' || Array.isArray(json))
        this.onMessage(m[1] as string, null, new CollectorError('unexpectedAnswer', 'the device published JSON that is not an object'));
      else this.onMessage(m[1] as string, json as Record<string, unknown>, null);
    });
    client.on('error', () => {});
    return new Promise<void>((resolve) => {
      client.once('connect', () => client.subscribe('tele/+/SENSOR', { qos: 0 }, () => resolve()));
      client.once('error', () => resolve());
    });
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = null;
    if (c) await c.endAsync(true).catch(() => {});
  }
}

/**
 * Asks a Tasmota device what it is: `Status 5` (MAC), `Status 10` (its sensors, which must carry energy
 * data) and `Status` (its name), answered on `stat/<topic>/…` within `timeoutMs`.
 */
export async function probeTasmota(
  url: string,
  topic: string,
  timeoutMs: number,
  tz: string,
): Promise<DeviceInfo & { values?: Record<string, number> }> {
  const client = mqtt.connect(url, {
    reconnectPeriod: 0,
    connectTimeout: timeoutMs,
    clientId: `phasewatch-probe-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  });
  try {
    return await new Promise((resolve, reject) => {
      const info: DeviceInfo & { values?: Record<string, number> } = { kind: 'tasmota' };
      let sensors = false;
      const timer = setTimeout(() => {
        if (sensors) resolve(info);
        else
          reject(
            new CollectorError(
              'noMessage',
              `no answer on stat/${topic}/ within ${Math.round(timeoutMs / 1000)} s: is the topic right and the device online?`,
            ),
          );
      }, timeoutMs);
      client.once('error', (err) => {
        clearTimeout(timer);
        reject(new CollectorError('noBroker', `the MQTT broker could not be reached (${err.message})`));
      });
      client.on('message', (t, payload) => {
        let json: Record<string, unknown>;
        try {
          json = JSON.parse(payload.toString('utf8')) as Record<string, unknown>;
        } catch {
          return;
        }
        if (t.endsWith('/STATUS5')) {
          const mac = (json.StatusNET as { Mac?: unknown } | undefined)?.Mac;
          if (typeof mac === 'string') info.mac = mac;
        } else if (t.endsWith('/STATUS10')) {
          const sns = json.StatusSNS;
          const values =
            sns && typeof sns === 'object' ? tasmotaReading(sns as Record<string, unknown>, tz, Date.now())?.values : undefined;
          if (!values) {
            clearTimeout(timer);
            reject(new CollectorError('unexpectedAnswer', 'the device answers but sends no energy data (ENERGY or Total_in)'));
            return;
          }
          info.values = values;
          info.phases = values.vave2 !== undefined ? 3 : 1;
          sensors = true;
        } else if (t.endsWith('/STATUS')) {
          const name = (json.Status as { DeviceName?: unknown } | undefined)?.DeviceName;
          if (typeof name === 'string' && name) info.model = name;
        }
        if (sensors && info.mac && info.model) {
          clearTimeout(timer);
          resolve(info);
        }
      });
      client.once('connect', () => {
        client.subscribe(`stat/${topic}/+`, { qos: 0 }, () => {
          for (const n of ['0', '5', '10']) client.publish(`cmnd/${topic}/Status`, n === '0' ? '' : n);
        });
      });
    });
  } finally {
    await client.endAsync(true).catch(() => {});
  }
}
