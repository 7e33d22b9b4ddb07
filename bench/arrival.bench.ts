/**
 * The server's CPU per device and per POST, phase by phase, measured closed-loop: every request's answer is
 * awaited, so the figures are CPU time per unit of work and hardly move with what else the machine runs (the
 * fleet bench's latencies do). On the built server (`apps/server/dist/server.js`, in its own process) with N
 * devices (default 1,000) of 100 per user:
 * - register: each device created through the API;
 * - hub subscribe: one hub client per device negotiates, connects and subscribes to it;
 * - arrival: every device's first full three-phase reading (52 parameters) POSTed at once, every answer
 *   awaited, then 1.5 s for what follows (status rounds, the weak-signal alarms of a quarter of the fleet);
 * - steady: ARRIVAL_ROUNDS (default 10) seconds of each device POSTing once, spread over the second.
 * Each phase prints the server's CPU (ms, from /proc) per device or POST, its main thread's, and the rest
 * (the readings writer thread, V8's garbage-collector and compiler threads, libuv's pool).
 *
 * ARRIVAL_SIZES (comma list, default 1000), ARRIVAL_DIALECTS (`sqlite`, `postgres`; default both),
 * ARRIVAL_ROUNDS. FLEET_SERVER_ENTRY runs another build's server (a before/after), FLEET_SERVER_NODE_OPTIONS
 * passes node options to it (e.g. `--cpu-prof`), as in the fleet bench.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type WebSocket from 'ws';
import type { BenchContext } from './run.js';
import {
  cpuOfTree,
  freshDatabase,
  postmasterPid,
  processUsage,
  registerFleet,
  startBuiltServer,
  threadCpuS,
  threePhaseReading,
} from './support/fleet.js';
import { inBatches, openHubClient, Recorder } from './support/hub-clients.js';

const SIZES = (process.env.ARRIVAL_SIZES ?? '1000').split(',').map(Number);
const ROUNDS = Number(process.env.ARRIVAL_ROUNDS ?? 10);
const DIALECTS = (process.env.ARRIVAL_DIALECTS ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function run(ctx: BenchContext, dialect: 'sqlite' | 'postgres', n: number): Promise<void> {
  const label = `${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ${n.toLocaleString('en')} devices`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-bench-arrival-'));
  const db = dialect === 'postgres' ? await freshDatabase(ctx.pgUrl, 'bench_arrival') : null;
  const server = await startBuiltServer({
    DATA_DIR: dataDir,
    DATABASE_URL: db?.url ?? '',
    JWT_SECRET: 'bench-secret-0123456789-0123456789',
  });
  const pid = server.child.pid as number;
  const postmaster = db ? await postmasterPid(ctx.pgUrl) : 0;
  const sample = () => ({ all: processUsage(pid).cpuS, main: threadCpuS(pid, pid), pg: db ? cpuOfTree(postmaster) : 0 });
  type Sample = ReturnType<typeof sample>;
  const report = (phase: string, a: Sample, b: Sample, count: number, per: string) => {
    const ms = (x: number) => ((x * 1000) / count).toFixed(2);
    ctx.report(
      `${label}: server CPU per ${per}, ${phase}`,
      ((b.all - a.all) * 1000) / count,
      'ms',
      `main thread ${ms(b.main - a.main)} ms, other threads ${ms(b.all - a.all - (b.main - a.main))} ms${db ? `; PostgreSQL ${ms(b.pg - a.pg)} ms` : ''} (${count.toLocaleString('en')} ${per}s)`,
    );
  };
  const sockets: WebSocket[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: Math.min(1024, n) });
  try {
    let s0 = sample();
    const devices = await registerFleet(server.port, n);
    report('register', s0, sample(), n, 'device');
    const rec = new Recorder();
    s0 = sample();
    sockets.push(...(await inBatches(devices, 50, (d) => openHubClient(server.port, d.token, d.id, rec))));
    report('hub subscribe', s0, sample(), n, 'device');
    await sleep(1000);
    let failed = 0;
    const post = (i: number) =>
      new Promise<void>((resolve) => {
        const d = devices[i] as (typeof devices)[number];
        const ts = Date.now();
        const body = JSON.stringify({ readings: [{ ts: new Date(ts).toISOString(), values: threePhaseReading(i, ts) }] });
        const req = http.request(
          {
            host: '127.0.0.1',
            port: server.port,
            path: '/api/ingest',
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-device-key': d.key },
          },
          (res) => {
            if (res.statusCode !== 200) failed++;
            res.resume();
            res.on('end', () => resolve());
          },
        );
        req.on('error', () => {
          failed++;
          resolve();
        });
        req.end(body);
      });
    s0 = sample();
    await Promise.all(devices.map((_, i) => post(i)));
    await sleep(1500);
    report('arrival', s0, sample(), n, 'POST');
    await sleep(1000);
    s0 = sample();
    for (let k = 0; k < ROUNDS; k++) {
      const started = performance.now();
      await Promise.all(devices.map((_, i) => sleep(Math.max(0, started + (i / n) * 1000 - performance.now())).then(() => post(i))));
      const left = started + 1000 - performance.now();
      if (left > 0) await sleep(left);
    }
    report('steady', s0, sample(), n * ROUNDS, 'POST');
    ctx.report(`${label}: failed POSTs`, failed, '', `${rec.received.toLocaleString('en')} readings pushed to the hub clients`);
  } finally {
    for (const ws of sockets) ws.terminate();
    agent.destroy();
    await server.stop();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export default async function arrivalBench(ctx: BenchContext): Promise<void> {
  for (const dialect of DIALECTS) for (const n of SIZES) await run(ctx, dialect, n);
}
