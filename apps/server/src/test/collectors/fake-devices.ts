import { createSocket, type Socket } from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FOX_DISCOVERY_REQUEST, FOX_DISCOVERY_RESPONSE } from '../../collectors/fox-energy.js';
import {
  FOX_DEVICE_INFO,
  FOX_INVALID_ACTION,
  FOX_STATUS_FALSE,
  FOX3_CURRENT,
  FOX3_ENERGY,
  SHELLY_3EM_EMETERS,
  SHELLY_3EM_INFO,
  SHELLY_EM_STATUS,
  SHELLY_EMDATA_KEYS,
  SHELLY_EMDATA_STATUS,
  SHELLY_PRO3EM_INFO,
} from './fixtures.js';

/**
 * Fake devices on 127.0.0.1 answering as the real ones do (fixtures.ts names the sources), with the
 * failures a real network has: hanging, garbage, a web page, an error status, a redirect, gone.
 */
export type FakeMode = 'ok' | 'hang' | 'garbage' | 'html' | 'statusFalse' | 'redirect' | 'http500';

type Handler = (path: string, query: URLSearchParams) => unknown;

export class FakeDevice {
  mode: FakeMode = 'ok';
  /** Requests received, by path. */
  readonly requests: string[] = [];
  private server: http.Server | null = null;
  private readonly hanging = new Set<http.ServerResponse>();
  port = 0;
  /** Rewrites an answer's JSON text before it is sent (values JSON cannot say, such as `1e309`). */
  rewrite: ((body: string) => string) | null = null;

  constructor(private readonly handle: Handler) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      this.requests.push(u.pathname);
      const send = (status: number, body: string, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      };
      switch (this.mode) {
        case 'hang':
          this.hanging.add(res);
          return;
        case 'garbage':
          return send(200, '{"status":"ok","voltage":[23');
        case 'html':
          return send(200, '<!doctype html><html><body>Login</body></html>', 'text/html');
        case 'statusFalse':
          return send(200, JSON.stringify(FOX_STATUS_FALSE));
        case 'redirect':
          res.writeHead(302, { location: 'http://8.8.8.8/' });
          return res.end();
        case 'http500':
          return send(500, '{"code":-105,"message":"Argument \'id\', value 0 not found!"}');
      }
      const body = this.handle(u.pathname, u.searchParams);
      if (body === undefined) return send(404, 'Not Found', 'text/plain');
      const text = JSON.stringify(body);
      send(200, this.rewrite ? this.rewrite(text) : text);
    });
    await new Promise<void>((r) => this.server?.listen(port, '127.0.0.1', () => r()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Stops answering (the device disappeared); `start(port)` brings it back on the same port. */
  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    const s = this.server;
    this.server = null;
    if (s) {
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  }
}

const clone = <T>(x: T): T => structuredClone(x);

/** A Fox ENERGY-3 with key `key` (default `0000`); its answers are editable (`current`, `energy`). */
export function fakeFox(key = '0000') {
  const state = { current: clone(FOX3_CURRENT) as Record<string, unknown>, energy: clone(FOX3_ENERGY) as Record<string, unknown> };
  const device = new FakeDevice((path) => {
    const [, k, method] = path.split('/');
    if (k !== key) return FOX_STATUS_FALSE;
    if (method === 'get_current_parameters') return state.current;
    if (method === 'get_total_energy') return state.energy;
    if (method === 'get_device_info') return FOX_DEVICE_INFO;
    return FOX_INVALID_ACTION;
  });
  return Object.assign(device, { state });
}

/** One minute of EMData.GetData: Wh imported/returned per phase in the minute, and averages. */
export interface FakeMinute {
  ts: number;
  imp: [number, number, number];
  ret: [number, number, number];
  voltage?: number;
  current?: number;
}

/** A Shelly Pro 3EM; `history` is its store of minutes for EMData.GetData. */
export function fakeShellyPro3em() {
  const state = {
    em: clone(SHELLY_EM_STATUS) as Record<string, unknown>,
    emdata: clone(SHELLY_EMDATA_STATUS) as Record<string, unknown>,
    history: [] as FakeMinute[],
  };
  const row = (m: FakeMinute) =>
    SHELLY_EMDATA_KEYS.map((k) => {
      const i = 'abc'.indexOf(k[0] as string);
      if (k.endsWith('_total_act_energy')) return m.imp[i] ?? 0;
      if (k.endsWith('_total_act_ret_energy')) return m.ret[i] ?? 0;
      if (k.endsWith('_avg_voltage')) return m.voltage ?? 230;
      if (k.endsWith('_avg_current')) return m.current ?? 1;
      return 0;
    });
  const device = new FakeDevice((path, q) => {
    if (path === '/shelly') return SHELLY_PRO3EM_INFO;
    if (path === '/rpc/EM.GetStatus') return state.em;
    if (path === '/rpc/EMData.GetStatus') return state.emdata;
    if (path === '/rpc/EMData.GetData') {
      const from = Number(q.get('ts') ?? 0);
      const to = Number(q.get('end_ts') ?? Number.MAX_SAFE_INTEGER);
      // Records are minutes starting at `ts`; one block per contiguous run, as the device answers.
      const minutes = state.history.filter((m) => m.ts >= from && m.ts < to).sort((a, b) => a.ts - b.ts);
      const data: { ts: number; period: number; values: number[][] }[] = [];
      for (const m of minutes) {
        const last = data[data.length - 1];
        if (last && last.ts + last.values.length * 60 === m.ts) last.values.push(row(m));
        else data.push({ ts: m.ts, period: 60, values: [row(m)] });
      }
      return { keys: SHELLY_EMDATA_KEYS, data };
    }
    return undefined;
  });
  return Object.assign(device, { state });
}

/** A Shelly 3EM (Gen1); `emeters` is editable (its totals reset on power loss). */
export function fakeShelly3em() {
  const state = { emeters: clone(SHELLY_3EM_EMETERS) as Record<string, unknown>[] };
  const device = new FakeDevice((path) => {
    if (path === '/shelly') return SHELLY_3EM_INFO;
    if (path === '/status')
      return {
        wifi_sta: { connected: true, rssi: -61 },
        mac: SHELLY_3EM_INFO.mac,
        emeters: state.emeters,
        unixtime: Math.floor(Date.now() / 1000),
      };
    return undefined;
  });
  return Object.assign(device, { state });
}

/** A Fox device answering UDP discovery on 127.0.0.1 (never a broadcast): header, MAC, type (LE). */
export async function fakeFoxDiscovery(
  mac: number[],
  deviceType: number,
): Promise<{ port: number; requests: number; close(): Promise<void> }> {
  const socket: Socket = createSocket('udp4');
  const out = {
    port: 0,
    requests: 0,
    close: () => new Promise<void>((r) => socket.close(() => r())),
  };
  socket.on('message', (msg, rinfo) => {
    if (msg.toString('latin1') !== FOX_DISCOVERY_REQUEST) return;
    out.requests++;
    const reply = Buffer.alloc(48);
    reply.write(FOX_DISCOVERY_RESPONSE, 0, 'latin1');
    Buffer.from(mac).copy(reply, 36);
    reply.writeUInt16LE(deviceType, 42);
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  out.port = socket.address().port;
  return out;
}
