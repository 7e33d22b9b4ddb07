/*
 * A live fleet against a running server, for the fleet benchmarks: N devices each POSTing one full
 * three-phase reading a second (not batches) while N hub clients, one per device, watch them. Runs in its
 * own process (the load generator), so the server's CPU and memory are its own. The orchestrating side
 * starts the built server (or two instances behind nginx), registers the devices and samples the server
 * processes from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type WebSocket from 'ws';
import { type RunningNginx, startNginx } from '../../e2e/support/nginx.js';
import { freePort } from '../../scripts/testing/free-port.js';
import { inBatches, now, openHubClient, percentile, Recorder, RS } from './hub-clients.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const METRICS_TOKEN = 'bench-metrics-token';

/** The writer's totals from the server's Prometheus text: transactions, their seconds and readings. */
export async function writerTotals(port: number): Promise<{
  commits: number;
  seconds: number;
  readings: number;
  heapMb: number;
  externalMb: number;
  heapTotalMb: number;
  hubConnections: number;
  alarmsRaised: number;
  hubDeliveries: number;
}> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const value = (name: string) => Number(text.match(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm'))?.[1] ?? Number.NaN);
  return {
    commits: value('phasewatch_writer_commit_seconds_count'),
    seconds: value('phasewatch_writer_commit_seconds_sum'),
    readings: value('phasewatch_writer_committed_readings_total'),
    heapMb: value('nodejs_heap_size_used_bytes') / 2 ** 20,
    externalMb: value('nodejs_external_memory_bytes') / 2 ** 20,
    heapTotalMb: value('nodejs_heap_size_total_bytes') / 2 ** 20,
    hubConnections: value('phasewatch_hub_connections'),
    // Counters by label: every line's value added up.
    alarmsRaised: sumOf(text, /^phasewatch_alarms_raised_total\{[^}]*\} ([0-9.e+-]+)$/gm),
    hubDeliveries: sumOf(
      text,
      /^phasewatch_notification_deliveries_total\{(?=[^}]*channel="hub")(?=[^}]*outcome="sent")[^}]*\} ([0-9.e+-]+)$/gm,
    ),
  };
}

function sumOf(text: string, re: RegExp): number {
  let total = 0;
  for (const m of text.matchAll(re)) total += Number(m[1]);
  return total;
}

export interface FleetDevice {
  id: number;
  key: string;
  token: string;
}

/** What the load generator is told and what it answers. */
export type ToLoadgen = { cmd: 'run'; port: number; devices: FleetDevice[]; warmupS: number; seconds: number };
export type FromLoadgen =
  | { cmd: 'connected'; clients: number; seconds: number }
  | {
      cmd: 'done';
      sent: number;
      ok: number;
      errors: number;
      ingestMs: number[];
      e2eMs: number[];
      received: number;
      expected: number;
      /** Ingest round trips of the warm-up: the fleet's first seconds, every device arriving at once. */
      arrivalMs: number[];
      arrivalErrors: number;
    };

const WEAK_SIGNAL = process.env.FLEET_WEAK_SIGNAL !== '0';

/** Every parameter of the catalogue a three-phase meter sends (52), values as a meter rounds them. */
export function threePhaseReading(i: number, t: number): Record<string, number> {
  const v: Record<string, number> = {};
  const w = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
  const hours = t / 3_600_000;
  let total = 0;
  for (const p of [1, 2, 3]) {
    const pw = 400 + 300 * Math.sin(hours + i + p) + (i % 7) * 10;
    total += pw;
    const volts = 230 + 2 * Math.sin(hours * 3 + p);
    const amps = pw / volts;
    Object.assign(v, {
      [`pave${p}`]: w(pw, 1),
      [`pmax${p}`]: w(pw * 1.1, 1),
      [`pmin${p}`]: w(pw * 0.9, 1),
      [`vave${p}`]: w(volts, 1),
      [`vmax${p}`]: w(volts + 0.8, 1),
      [`vmin${p}`]: w(volts - 0.8, 1),
      [`iave${p}`]: w(amps, 3),
      [`imax${p}`]: w(amps * 1.1, 3),
      [`imin${p}`]: w(amps * 0.9, 3),
      [`eai${p}`]: w(1000 + p * 100 + hours * 0.4, 3),
      [`eae${p}`]: w(10 + p, 3),
      [`eri${p}`]: w(200 + hours * 0.05, 3),
      [`ere${p}`]: w(5 + p, 3),
      [`pfave${p}`]: 0.97,
      [`pfmax${p}`]: 0.99,
      [`pfmin${p}`]: 0.95,
    });
  }
  Object.assign(v, {
    frq1: w(50 + 0.02 * Math.sin(hours * 10), 3),
    energy3phases_import: w(3600 + hours * 1.2, 3),
    energy3phases_export: 36,
    renergy3phases_import: w(600 + hours * 0.15, 3),
    renergy3phases_export: 18,
    power3phases: w(total, 1),
    // −60 … −79 dBm: a quarter of the fleet at or below −75 raises a weak-signal alarm with its first reading
    // (on a fresh database, all in the arrival's second); FLEET_WEAK_SIGNAL=0 keeps every device above it.
    rssi: (WEAK_SIGNAL ? -60 : -50) - (i % 20),
  });
  return v;
}

// ---- load generator (its own process) -------------------------------------------------------------

/** The load generator's main: hub clients first, then the devices' POSTs, one a second each. */
export async function loadgenMain(): Promise<void> {
  const send = (m: FromLoadgen) => process.send?.(m);
  process.on('message', async (m: ToLoadgen) => {
    if (m.cmd !== 'run') return;
    const rec = new Recorder();
    const t0 = performance.now();
    const sockets: WebSocket[] = await inBatches(m.devices, 50, (d) => openHubClient(m.port, d.token, d.id, rec));
    send({ cmd: 'connected', clients: sockets.length, seconds: (performance.now() - t0) / 1000 });
    const pinger = setInterval(() => {
      for (const ws of sockets) if (ws.readyState === 1) ws.send(`{"type":6}${RS}`);
    }, 10_000);
    const agent = new http.Agent({ keepAlive: true, maxSockets: Math.min(1024, m.devices.length) });
    let measuring = false;
    let sent = 0;
    let ok = 0;
    let errors = 0;
    let expected = 0;
    const ingestMs: number[] = [];
    const arrivalMs: number[] = [];
    let arrivalErrors = 0;
    /** FLEET_TIMELINE=1: each measured POST's second and latency, printed per second after the run. */
    const timeline: [number, number][] = [];
    const post = (d: FleetDevice, i: number) => {
      const ts = Math.round(now());
      const body = JSON.stringify({ readings: [{ ts: new Date(ts).toISOString(), values: threePhaseReading(i, ts) }] });
      const counted = measuring;
      if (counted) sent++;
      const started = performance.now();
      const req = http.request(
        {
          host: '127.0.0.1',
          port: m.port,
          path: '/api/ingest',
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-device-key': d.key },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            // (The timeline shows the warm-up too.)
            if (process.env.FLEET_TIMELINE) timeline.push([Math.floor((started - start) / 1000), performance.now() - started]);
            if (!counted) {
              arrivalMs.push(performance.now() - started);
              if (res.statusCode !== 200) arrivalErrors++;
              return;
            }
            ingestMs.push(performance.now() - started);
            if (res.statusCode === 200) {
              ok++;
              expected++;
            } else errors++;
          });
        },
      );
      req.on('error', () => {
        if (counted) errors++;
        else arrivalErrors++;
      });
      req.end(body);
    };
    // Each device at its own phase within the second, as a real fleet's clocks spread.
    const n = m.devices.length;
    const start = performance.now();
    const total = m.warmupS + m.seconds;
    let slot = 0;
    const tickMs = 5;
    await new Promise<void>((resolve) => {
      const tick = () => {
        const elapsed = performance.now() - start;
        if (!measuring && elapsed >= m.warmupS * 1000) {
          measuring = true;
          rec.reset();
        }
        if (elapsed >= total * 1000) return resolve();
        const due = Math.floor((elapsed / 1000) * n);
        for (; slot < due; slot++) post(m.devices[slot % n] as FleetDevice, slot % n);
        setTimeout(tick, tickMs);
      };
      tick();
    });
    measuring = false;
    if (process.env.FLEET_TIMELINE) {
      process.stderr.write(`fleet timeline starts at ${Math.round(performance.timeOrigin + start)} (epoch ms)\n`);
      const bySecond = new Map<number, number[]>();
      for (const [sec, ms] of timeline) bySecond.set(sec, [...(bySecond.get(sec) ?? []), ms]);
      for (const [sec, all] of [...bySecond].sort((a, b) => a[0] - b[0])) {
        all.sort((a, b) => a - b);
        process.stderr.write(
          `fleet timeline s=${sec} n=${all.length} p50=${percentile(all, 50).toFixed(0)} p99=${percentile(all, 99).toFixed(0)} max=${(all[all.length - 1] ?? 0).toFixed(0)}\n`,
        );
      }
    }
    const received = () => rec.received;
    // Stragglers: up to 5 s for answers and pushes still on their way.
    const deadline = performance.now() + 5000;
    while (performance.now() < deadline && (ok + errors < sent || received() < expected)) await new Promise((r) => setTimeout(r, 50));
    clearInterval(pinger);
    for (const ws of sockets) ws.terminate();
    agent.destroy();
    // Readings pushed during the window whose POST started before it are counted as received but not expected: cap.
    send({
      cmd: 'done',
      sent,
      ok,
      errors,
      ingestMs,
      e2eMs: rec.latencies,
      received: Math.min(rec.received, expected),
      expected,
      arrivalMs,
      arrivalErrors,
    });
  });
}

// ---- orchestration (the bench process) -----------------------------------------------------------

export interface RunningServer {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** The built server (as a deployment runs it) on a fresh data dir or database. */
export async function startBuiltServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(process.env.FLEET_SERVER_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
      // Another build's server (FLEET_SERVER_ENTRY=/path/to/apps/server/dist/server.js) to compare with.
      process.env.FLEET_SERVER_ENTRY ?? path.join(repoRoot, 'apps/server/dist/server.js'),
    ],
    {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DEMO_ACCOUNT: 'off',
        SIMULATE: '0',
        RCE_IMPORT: 'off',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        METRICS_TOKEN,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
    if (process.env.FLEET_SERVER_STDERR) process.stderr.write(d);
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${err}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${err}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    port,
    child,
    async stop() {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await new Promise((r) => (child.exitCode === null && child.signalCode === null ? child.once('exit', r) : r(null)));
      clearTimeout(t);
    },
  };
}

/** A fresh database in the bench cluster; returns its URL and a dropper. */
export async function freshDatabase(adminUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Users (100 devices each) and N three-phase devices through the API. */
export async function registerFleet(port: number, n: number): Promise<FleetDevice[]> {
  const base = `http://127.0.0.1:${port}/api`;
  const json = async (url: string, body: unknown, token?: string) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const users = Math.ceil(n / 100);
  const tokens: string[] = [];
  for (let u = 0; u < users; u++) {
    const r = await json(`${base}/register`, { email: `fleet${u}@example.com`, password: 'secret1', country: 'PL', fullName: 'Fleet' });
    tokens.push(r.token as string);
  }
  const indexes = Array.from({ length: n }, (_, i) => i);
  return inBatches(indexes, 16, async (i) => {
    const token = tokens[Math.floor(i / 100)] as string;
    const mac = `04:00:00:${((i >> 16) & 255).toString(16).padStart(2, '0')}:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`;
    const r = await json(`${base}/devices`, { name: `meter ${i}`, mac, typeCode: 13 }, token);
    return { id: (r.device as { id: number }).id, key: r.ingestKey as string, token };
  });
}

/** CPU seconds (user + system) and RSS (MB) of a process, from /proc. */
export function processUsage(pid: number): { cpuS: number; rssMb: number; anonMb: number; fileMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
  const kb = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+)`))?.[1] ?? 0);
  return { cpuS: ticks / 100, rssMb: rssKb / 1024, anonMb: kb('RssAnon') / 1024, fileMb: (kb('RssFile') + kb('RssShmem')) / 1024 };
}

/** CPU seconds (user + system) of one thread of a process (`tid` = `pid`: its main thread). */
export function threadCpuS(pid: number, tid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * The postmaster's pid of the cluster at `adminUrl` (from its data directory's postmaster.pid): with
 * `cpuOfTree`, the CPU of this cluster alone — other PostgreSQL clusters on the machine (another test's) are
 * not counted, nor does their ending make the total fall.
 */
export async function postmasterPid(adminUrl: string): Promise<number> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const dir = (await c.query<{ data_directory: string }>('SHOW data_directory')).rows[0]?.data_directory as string;
    return Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } finally {
    await c.end();
  }
}

/**
 * CPU seconds of a process and its children now running, each with the time of the children it reaped (a
 * PostgreSQL backend ends with its connection; its time moves to the postmaster's), so the total never falls.
 */
export function cpuOfTree(root: number): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pid) !== root && Number(fields[1]) !== root) continue;
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / 100;
}

/** The load generator as a child process (this module's entry with role `loadgen`). */
export function spawnLoadgen(entry: string): { child: ChildProcess; next(): Promise<FromLoadgen> } {
  const child = spawn(process.execPath, ['--max-old-space-size=4096', '--import', 'tsx', entry], {
    env: { ...process.env, FLEET_ROLE: 'loadgen' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const queue: FromLoadgen[] = [];
  const waiters: ((m: FromLoadgen) => void)[] = [];
  child.on('message', (m: FromLoadgen) => {
    const w = waiters.shift();
    if (w) w(m);
    else queue.push(m);
  });
  return {
    child,
    next: () =>
      new Promise<FromLoadgen>((resolve, reject) => {
        const m = queue.shift();
        if (m) return resolve(m);
        const t = setTimeout(() => reject(new Error('load generator did not answer in 15 minutes')), 900_000);
        waiters.push((msg) => {
          clearTimeout(t);
          resolve(msg);
        });
      }),
  };
}

export { percentile };

/**
 * What the fleet runs against: SQLite or PostgreSQL with one server instance, or (`postgres-2`) two
 * instances on the one PostgreSQL database behind nginx with the shipped site (round robin, no sticky
 * sessions; hub events cross instances through LISTEN/NOTIFY).
 */
export type FleetConfig = 'sqlite' | 'postgres' | 'postgres-2';

export const FLEET_CONFIGS: readonly FleetConfig[] = ['sqlite', 'postgres', 'postgres-2'];

/**
 * Fresh built server(s) of the configuration with N registered three-phase devices, a load generator process
 * (`entry`: the bench file, which runs `loadgenMain` under FLEET_ROLE=loadgen) and, after `body` (or a failure
 * on the way), all of it stopped and removed: load generator, nginx, the instances, the database.
 * `port` is where devices and hub clients go: the one instance, or nginx.
 */
export async function withFleet<T>(
  pgUrl: string,
  config: FleetConfig,
  n: number,
  entry: string,
  body: (fleet: {
    server: RunningServer;
    servers: RunningServer[];
    port: number;
    proxy: RunningNginx | null;
    devices: FleetDevice[];
    loadgen: ReturnType<typeof spawnLoadgen>;
  }) => Promise<T>,
): Promise<T> {
  const cleanup: (() => Promise<void> | void)[] = [];
  try {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-bench-fleet-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const db = config === 'sqlite' ? null : await freshDatabase(pgUrl, 'bench_fleet');
    if (db) cleanup.push(() => db.drop());
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: db?.url ?? '',
      JWT_SECRET: 'bench-secret-0123456789-0123456789',
      // Behind nginx (the site sends the client's address in X-Forwarded-For), as deploy/ describes.
      ...(config === 'postgres-2' ? { TRUST_PROXY: '127.0.0.1' } : {}),
    };
    const servers: RunningServer[] = [];
    // One after the other: the first migrates the fresh database.
    for (let i = 0; i < (config === 'postgres-2' ? 2 : 1); i++) {
      const server = await startBuiltServer(env);
      servers.push(server);
      cleanup.push(() => server.stop());
    }
    const proxy = config === 'postgres-2' ? await startNginx(servers.map((s) => s.port)) : null;
    if (proxy) cleanup.push(() => proxy.stop());
    const loadgen = spawnLoadgen(entry);
    cleanup.push(() => {
      loadgen.child.kill('SIGKILL');
    });
    const port = proxy?.port ?? (servers[0] as RunningServer).port;
    return await body({ server: servers[0] as RunningServer, servers, port, proxy, devices: await registerFleet(port, n), loadgen });
  } finally {
    for (const step of cleanup.reverse()) {
      try {
        await step();
      } catch (err) {
        console.error('fleet clean-up:', err);
      }
    }
  }
}
