import type { CollectorKind } from '@phasewatch/shared';
import { CollectorError } from './collector-error.js';

/** A reading in our parameter names and units (epoch ms; V, A, W, Hz, kWh, kvarh). */
export interface CollectedReading {
  ts: number;
  values: Record<string, number>;
}

/** What a device says it is (the connection test and the add-device flow show it). */
export interface DeviceInfo {
  /** The kind that answered: a Shelly tells its generation itself. */
  kind: CollectorKind;
  model?: string;
  mac?: string;
  phases?: 1 | 3;
}

/** What a family's code gets for one read of one device. */
export interface PollContext {
  /** The device's base address (`http://192.168.1.20`). */
  base: URL;
  /** The device's own key or password, if it has one. */
  key: string | undefined;
  /** GET a path under `base` (query included) and parse its JSON; long answers may be allowed more bytes and time. */
  get(path: string, opts?: { maxBytes?: number; timeoutMs?: number }): Promise<unknown>;
  now(): number;
  /** The device's last stored reading (counters continue from it after a gap), or null. */
  last: CollectedReading | null;
  pollSeconds: number;
  /** Readings older than this (epoch ms) would be refused by ingest (raw retention). */
  oldest: number;
}

/** One family of polled devices: the only code that knows its wire format. */
export interface PolledFamily {
  kind: CollectorKind;
  /** Asks the device what it is; fails like `poll` when it cannot be read. */
  probe(ctx: PollContext): Promise<DeviceInfo>;
  /** Reads the device: its current values, and after a gap what its own history holds of it. */
  poll(ctx: PollContext): Promise<CollectedReading[]>;
}

/** A JSON object, or CollectorError `unexpectedAnswer`. */
export function objectOf(json: unknown, what: string): Record<string, unknown> {
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new CollectorError('unexpectedAnswer', `${what}: the device answered JSON that is not an object`);
  return json as Record<string, unknown>;
}

/**
 * A number from a device: a JSON number, or a numeric string (Fox ENERGY-1 sends `"0028500780"`); NaN
 * for anything else, which the reading checks then refuse with the parameter's name (never a crash).
 */
export function numberOf(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && /^[-+]?[\d.eE+-]+$/.test(v.trim())) return Number(v);
  return Number.NaN;
}

/**
 * Sets `name` when the device sent the field at all (an absent field is not a value), divided by `per`
 * (1000: Wh → kWh; a division keeps 144 Wh at 0.144 where a multiplication by 0.001 gives 0.14400000000000002).
 */
export function put(values: Record<string, number>, name: string, raw: unknown, per = 1): void {
  if (raw === undefined || raw === null) return;
  values[name] = numberOf(raw) / per;
}
