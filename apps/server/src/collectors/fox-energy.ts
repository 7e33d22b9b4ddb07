import { createSocket } from 'node:dgram';
import type { DiscoveredDevice } from '@phasewatch/shared';
import { CollectorError } from './collector-error.js';
import { type CollectedReading, type DeviceInfo, objectOf, type PollContext, type PolledFamily, put } from './family.js';

/*
 * F&F Fox ENERGY-3 (Wi-MEF-3, three-phase) and ENERGY-1 (single-phase), local REST interface:
 * `GET http://<ip>/<key>/<method>`, key `0000` when none is set. Answers carry `"status": "ok"`, or
 * `"false"` / `"invalid_action_name"`. The three-phase meter sends arrays [L1, L2, L3]; the single-phase
 * one the same names as (zero-padded) strings. No timestamps: readings are stamped on receipt.
 * Sources: corapoid/homeassistant-fox-energy-monitor (api.py, tests/fixtures), fandf92/foxrestapiclient
 * (get_device_info, status values, UDP discovery), qba73/fox (ENERGY-1 answers).
 */

/** The key F&F devices take when none was set (the integrations use `0000`; `000` and `00` work too). */
export const FOX_DEFAULT_KEY = '0000';

function foxPath(ctx: PollContext, method: string): string {
  return `${encodeURIComponent(ctx.key?.trim() || FOX_DEFAULT_KEY)}/${method}`;
}

/** A method's answer, or CollectorError `deviceError` naming the status the device gave instead of `ok`. */
async function call(ctx: PollContext, method: string): Promise<Record<string, unknown>> {
  const body = objectOf(await ctx.get(foxPath(ctx, method)), method);
  if (body.status !== 'ok')
    throw new CollectorError(
      'deviceError',
      `${method}: the device answered status "${String(body.status)}"${body.status === 'false' ? ' (wrong key?)' : ''}`,
    );
  return body;
}

/** Wh as the meter counts, per kWh. */
const WH = 1000;

/** Our values from `get_current_parameters` and `get_total_energy` (either shape). */
export function foxValues(current: Record<string, unknown>, energy: Record<string, unknown>): Record<string, number> {
  const v: Record<string, number> = {};
  if (Array.isArray(current.voltage)) {
    const phase = (field: string, i: number) => (current[field] as unknown[] | undefined)?.[i];
    const total = (field: string, i: number) => (Array.isArray(energy[field]) ? (energy[field] as unknown[])[i] : undefined);
    for (let i = 0; i < 3; i++) {
      const p = i + 1;
      put(v, `vave${p}`, phase('voltage', i));
      put(v, `iave${p}`, phase('current', i));
      put(v, `pave${p}`, phase('power_active', i));
      put(v, `pfave${p}`, phase('power_factor', i));
      put(v, `eai${p}`, total('active_energy_import', i), WH);
      put(v, `eae${p}`, total('active_energy_export', i), WH);
      put(v, `eri${p}`, total('reactive_energy_import', i), WH);
      put(v, `ere${p}`, total('reactive_energy_export', i), WH);
    }
    // One grid frequency: the meter measures it on each phase, the first is the one shown.
    put(v, 'frq1', (current.frequency as unknown[] | undefined)?.[0]);
    if (v.pave1 !== undefined && v.pave2 !== undefined && v.pave3 !== undefined) v.power3phases = v.pave1 + v.pave2 + v.pave3;
  } else {
    put(v, 'vave1', current.voltage);
    put(v, 'iave1', current.current);
    put(v, 'pave1', current.power_active);
    put(v, 'pfave1', current.power_factor);
    put(v, 'frq1', current.frequency);
    // ENERGY-1: counters as strings of Wh, as the Home Assistant integration reads them.
    put(v, 'eai1', energy.active_energy, WH);
    put(v, 'eri1', energy.reactive_energy, WH);
  }
  return v;
}

export const foxEnergy: PolledFamily = {
  kind: 'fox-energy',

  async probe(ctx: PollContext): Promise<DeviceInfo> {
    const current = await call(ctx, 'get_current_parameters');
    const info: DeviceInfo = { kind: 'fox-energy', phases: Array.isArray(current.voltage) ? 3 : 1 };
    // Every Fox device answers get_device_info; a meter that does not is still readable.
    try {
      const about = await call(ctx, 'get_device_info');
      const model = about.device_commercial_name || about.device_name;
      if (typeof model === 'string' && model) info.model = model;
    } catch {
      info.model = info.phases === 3 ? 'ENERGY-3' : 'ENERGY-1';
    }
    return info;
  },

  async poll(ctx: PollContext): Promise<CollectedReading[]> {
    const current = await call(ctx, 'get_current_parameters');
    const energy = await call(ctx, 'get_total_energy');
    return [{ ts: ctx.now(), values: foxValues(current, energy) }];
  },
};

/** UDP discovery (fandf92/foxrestapiclient): this text to port 1918, answers to the sender. */
export const FOX_DISCOVERY_REQUEST = 'F&F-WiFi-device-discovery-request:1';
export const FOX_DISCOVERY_RESPONSE = 'F&F-WiFi-device-discovery-response:1';
/** The port the integrations send from; devices answer there (another one is used when it is taken). */
export const FOX_DISCOVERY_SOURCE_PORT = 1395;

/** A discovery answer: the header, the MAC in bytes 36–41, the device type in bytes 42–43 (little-endian). */
export function parseDiscoveryReply(msg: Buffer, ip: string): DiscoveredDevice | null {
  const header = Buffer.from(FOX_DISCOVERY_RESPONSE, 'latin1');
  if (msg.length < header.length + 8 || !msg.subarray(0, header.length).equals(header)) return null;
  const mac = [...msg.subarray(36, 42)].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
  return { address: `http://${ip.includes(':') ? `[${ip}]` : ip}`, mac, deviceType: msg.readUInt16LE(42) };
}

/**
 * Sends the discovery request to `target` (the broadcast address on a home network; 127.0.0.1 in tests,
 * never a broadcast there) and collects the answers for `waitMs`, repeating the request every second
 * (UDP may lose one). Answers from outside `allowed` are left out: they could not be polled anyway.
 */
export async function discoverFox(opts: {
  target: { host: string; port: number };
  waitMs: number;
  allowed: (ip: string) => boolean;
  sourcePort?: number;
}): Promise<DiscoveredDevice[]> {
  const socket = createSocket({ type: 'udp4', reuseAddr: true });
  const found = new Map<string, DiscoveredDevice>();
  socket.on('message', (msg, rinfo) => {
    const d = parseDiscoveryReply(msg, rinfo.address);
    if (d && opts.allowed(rinfo.address) && !found.has(d.mac)) found.set(d.mac, d);
  });
  const bind = (port: number) =>
    new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, () => {
        socket.off('error', reject);
        resolve();
      });
    });
  try {
    await bind(opts.sourcePort ?? FOX_DISCOVERY_SOURCE_PORT);
  } catch {
    await bind(0);
  }
  socket.on('error', () => {});
  if (opts.target.host === '255.255.255.255') socket.setBroadcast(true);
  const request = Buffer.from(FOX_DISCOVERY_REQUEST, 'latin1');
  const send = () => socket.send(request, opts.target.port, opts.target.host, () => {});
  send();
  const repeat = setInterval(send, 1000);
  await new Promise((r) => setTimeout(r, opts.waitMs));
  clearInterval(repeat);
  await new Promise<void>((r) => socket.close(() => r()));
  return [...found.values()];
}
