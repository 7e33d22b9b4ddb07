/**
 * 500 polled devices at 5 s on one server: the collectors' polling lateness (p50/p99 of when a poll
 * started after it was due), the server's CPU and RSS, beside the same readings sent by the devices
 * themselves over HTTP ingest to a server of its own, in the same run.
 *
 * The fake devices (F&F Fox ENERGY-3, one HTTP server answering for every device under its own base
 * URL `http://127.0.0.1:PORT/d/<n>`) and the HTTP senders run in this, the bench process; each server
 * under test runs in a child process (this file, role `server`), so its CPU and RSS are its own.
 * COLLECTORS_BENCH_DEVICES (500) and COLLECTORS_BENCH_SECONDS (60) change the size and the window.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './run.js';
import { benchApp } from './telemetry-fixtures.js';

const DEVICES = Number(process.env.COLLECTORS_BENCH_DEVICES ?? 500);
const SECONDS = Number(process.env.COLLECTORS_BENCH_SECONDS ?? 60);
const POLL_S = 5;
/** Before the window: every device registered, polled a few times, the code warm. */
const WARMUP_MS = 15_000;

type Mode = 'collectors' | 'http';
type ToServer = { cmd: 'measure'; ms: number } | { cmd: 'exit' };
type FromServer =
  | { cmd: 'ready'; base: string; ingestKeys: string[] }
  | { cmd: 'measured'; cpuPercent: number; rssMb: number; rssMaxMb: number; lateness: number[]; devices: number };

/** A Fox ENERGY-3's two answers for device `n` at time `t`: values that move, counters that grow (Wh). */
function foxAnswer(n: number, method: string, t: number): unknown {
  const s = t / 1000;
  if (method === 'get_current_parameters') {
    const p = (k: number) => Math.round((300 + 200 * Math.sin(s / 30 + n + k)) * 10) / 10;
    return {
      status: 'ok',
      voltage: [230.1 + (n % 5), 231.2, 229.8],
      current: [1.3, 0.9, 0.4],
      power_active: [p(0), p(1), -p(2)],
      power_reactive: [-12.5, 3.1, 0],
      frequency: [50.01, 50.01, 50.01],
      power_factor: [0.98, 0.95, -0.9],
    };
  }
  if (method === 'get_total_energy') {
    const wh = Math.floor(s / 10);
    return {
      status: 'ok',
      active_energy_import: [100_000 + n + wh, 50_000 + wh, 20_000],
      active_energy_export: [10, 0, 5_000 + wh],
      reactive_energy_import: [1, 2, 3],
      reactive_energy_export: [4, 5, 6],
    };
  }
  if (method === 'get_device_info') return { status: 'ok', device_name: 'ENERGY-3', device_commercial_name: 'Wi-MEF-3' };
  return { status: 'invalid_action_name' };
}

/** The values the same device would send itself (what the collector stores for a Fox reading). */
function ownReading(n: number, t: number): Record<string, number> {
  const c = foxAnswer(n, 'get_current_parameters', t) as Record<string, number[]>;
  const e = foxAnswer(n, 'get_total_energy', t) as Record<string, number[]>;
  const v: Record<string, number> = {};
  for (let i = 0; i < 3; i++) {
    const p = i + 1;
    v[`vave${p}`] = c.voltage?.[i] as number;
    v[`iave${p}`] = c.current?.[i] as number;
    v[`pave${p}`] = c.power_active?.[i] as number;
    v[`pfave${p}`] = c.power_factor?.[i] as number;
    v[`eai${p}`] = (e.active_energy_import?.[i] as number) / 1000;
    v[`eae${p}`] = (e.active_energy_export?.[i] as number) / 1000;
    v[`eri${p}`] = (e.reactive_energy_import?.[i] as number) / 1000;
    v[`ere${p}`] = (e.reactive_energy_export?.[i] as number) / 1000;
  }
  v.frq1 = 50.01;
  return v;
}

// ---- server process -------------------------------------------------------------------------------

async function serverMain(): Promise<void> {
  const mode = process.env.COLLECTORS_BENCH_MODE as Mode;
  const devicesBase = process.env.COLLECTORS_BENCH_DEVICES_URL ?? '';
  const app = await benchApp('sqlite', '');
  const exit = async (code: number) => {
    await app.close().catch(() => {});
    process.exit(code);
  };
  process.on('disconnect', () => void exit(1));
  const ingestKeys: string[] = [];
  for (let n = 0; n < DEVICES; n++) {
    const body =
      mode === 'collectors'
        ? { name: `fox ${n}`, typeCode: 13, source: { kind: 'fox-energy', address: `${devicesBase}/d/${n}`, pollSeconds: POLL_S } }
        : {
            name: `fox ${n}`,
            typeCode: 13,
            mac: `02:00:00:00:${String(Math.floor(n / 100)).padStart(2, '0')}:${String(n % 100).padStart(2, '0')}`,
            reportingIntervalSeconds: POLL_S,
          };
    const res = await fetch(`${app.base}/api/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${app.token}` },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`device ${n}: ${res.status} ${await res.text()}`);
    ingestKeys.push(((await res.json()) as { ingestKey: string }).ingestKey);
  }
  process.on('message', (m: ToServer) => {
    if (m.cmd === 'exit') void exit(0);
    if (m.cmd !== 'measure') return;
    const runner = app.ctx.telemetry.collectors.runner;
    runner.lateness.length = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const rss: number[] = [];
    const sampler = setInterval(() => rss.push(process.memoryUsage.rss() / 1048576), 1000);
    setTimeout(() => {
      clearInterval(sampler);
      const cpu = process.cpuUsage(cpu0);
      const wall = performance.now() - t0;
      process.send?.({
        cmd: 'measured',
        cpuPercent: ((cpu.user + cpu.system) / 1000 / wall) * 100,
        rssMb: rss.reduce((a, b) => a + b, 0) / Math.max(1, rss.length),
        rssMaxMb: Math.max(...rss),
        lateness: [...runner.lateness],
        devices: runner.size,
      } satisfies FromServer);
    }, m.ms);
  });
  process.send?.({ cmd: 'ready', base: app.base, ingestKeys } satisfies FromServer);
}

// ---- bench process --------------------------------------------------------------------------------

interface Server {
  base: string;
  ingestKeys: string[];
  measure(ms: number): Promise<Extract<FromServer, { cmd: 'measured' }>>;
  stop(): Promise<void>;
}

async function startServer(mode: Mode, devicesUrl: string): Promise<Server> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, COLLECTORS_BENCH_ROLE: 'server', COLLECTORS_BENCH_MODE: mode, COLLECTORS_BENCH_DEVICES_URL: devicesUrl },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<Extract<FromServer, { cmd: 'ready' }>>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('bench server did not start in 300 s')), 300_000);
    child.once('message', (m: FromServer) => {
      clearTimeout(t);
      if (m.cmd === 'ready') resolve(m);
    });
    child.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`bench server exited (code ${code}) before it was ready`));
    });
  });
  return {
    base: ready.base,
    ingestKeys: ready.ingestKeys,
    measure: (ms) =>
      new Promise((resolve) => {
        child.on('message', (m: FromServer) => {
          if (m.cmd === 'measured') resolve(m);
        });
        child.send({ cmd: 'measure', ms } satisfies ToServer);
      }),
    async stop() {
      if (child.exitCode === null && child.connected) child.send({ cmd: 'exit' } satisfies ToServer);
      const t = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(t);
    },
  };
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};

export default async function collectorsBench(ctx: BenchContext): Promise<void> {
  // The devices: one loopback server answering for all of them, each under its own path.
  let polls = 0;
  const devices = http.createServer((req, res) => {
    const m = /^\/d\/(\d+)\/[^/]+\/(\w+)$/.exec(req.url ?? '');
    polls++;
    res.writeHead(m ? 200 : 404, { 'content-type': 'application/json' });
    res.end(m ? JSON.stringify(foxAnswer(Number(m[1]), m[2] as string, Date.now())) : '{}');
  });
  devices.keepAliveTimeout = 1000;
  await new Promise<void>((r) => devices.listen(0, '127.0.0.1', () => r()));
  const devicesUrl = `http://127.0.0.1:${(devices.address() as AddressInfo).port}`;

  try {
    // 1. The server polls every device.
    const collecting = await startServer('collectors', devicesUrl);
    await new Promise((r) => setTimeout(r, WARMUP_MS));
    const pollsBefore = polls;
    const c = await collecting.measure(SECONDS * 1000);
    const requests = polls - pollsBefore;
    await collecting.stop();

    // 2. The same devices send the same readings themselves, every 5 s each, spread evenly.
    const sending = await startServer('http', devicesUrl);
    const latencies: number[] = [];
    let errors = 0;
    let stop = false;
    const sender = async (n: number) => {
      await new Promise((r) => setTimeout(r, (n / DEVICES) * POLL_S * 1000));
      let due = performance.now();
      while (!stop) {
        const t = Date.now();
        const t0 = performance.now();
        const res = await fetch(`${sending.base}/api/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-device-key': sending.ingestKeys[n] as string },
          body: JSON.stringify({ readings: [{ ts: new Date(t).toISOString(), values: ownReading(n, t) }] }),
        }).catch(() => null);
        if (!res?.ok) errors++;
        await res?.arrayBuffer().catch(() => {});
        latencies.push(performance.now() - t0);
        due += POLL_S * 1000;
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      }
    };
    const senders = Array.from({ length: DEVICES }, (_, n) => sender(n));
    await new Promise((r) => setTimeout(r, WARMUP_MS));
    latencies.length = 0;
    const h = await sending.measure(SECONDS * 1000);
    stop = true;
    await Promise.all(senders);
    await sending.stop();

    ctx.report(`collectors: devices polled every ${POLL_S} s`, c.devices, 'devices');
    ctx.report(
      'collectors: polls in the window',
      c.lateness.length,
      'polls',
      `expected ${Math.round((DEVICES * SECONDS) / POLL_S)}; ${requests} device requests`,
    );
    ctx.report('collectors: polling lateness p50', pct(c.lateness, 50), 'ms');
    ctx.report('collectors: polling lateness p99', pct(c.lateness, 99), 'ms');
    ctx.report('collectors: polling lateness max', pct(c.lateness, 100), 'ms');
    ctx.report('collectors: server CPU', c.cpuPercent, '% of 1 core');
    ctx.report('collectors: server RSS mean / max', c.rssMb, 'MB', `max ${c.rssMaxMb.toFixed(0)} MB`);
    ctx.report(
      'HTTP ingest (same readings): server CPU',
      h.cpuPercent,
      '% of 1 core',
      `collectors ${(c.cpuPercent / h.cpuPercent).toFixed(2)}× of this`,
    );
    ctx.report('HTTP ingest (same readings): server RSS mean / max', h.rssMb, 'MB', `max ${h.rssMaxMb.toFixed(0)} MB`);
    ctx.report('HTTP ingest (same readings): request p50', pct(latencies, 50), 'ms');
    ctx.report('HTTP ingest (same readings): request p99', pct(latencies, 99), 'ms', `${errors} errors`);
  } finally {
    devices.closeAllConnections();
    await new Promise<void>((r) => devices.close(() => r()));
  }
}

if (process.env.COLLECTORS_BENCH_ROLE === 'server') void serverMain();
