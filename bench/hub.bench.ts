/**
 * Realtime hub fan-out: 1,000 hub clients on loopback, each subscribed to one device; readings for all
 * devices at 1/s each and in a 10/s burst. Latency is measured from the bus emit (the commit) to the
 * client; throughput as messages received per second (a short 40/s run looks for the ceiling); the server's RSS is sampled in its own process.
 * The same fan-out through a bare `ws` server sending the same frames gives the ratio.
 *
 * The load clients are raw `ws` sockets speaking the hub protocol (negotiate, handshake, invocation,
 * pings), not 1,000 official clients, whose own cost in one process would dominate the figures; the
 * official client is covered by the tests. The server runs in a child process (this file, role
 * `server`), so RSS is the server's alone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import type { BenchContext } from './run.js';
import { inBatches, now, onFrames, openHubClient, percentile, Recorder, RS } from './support/hub-clients.js';

const CLIENTS = 1_000;
const USERS = 10;
const RUN_SECONDS = 15;

type Mode = 'hub' | 'ws';
type ToServer = { cmd: 'run'; mode: Mode; rate: number; seconds: number } | { cmd: 'exit' };
type FromServer =
  | { cmd: 'ready'; port: number; wsPort: number; clients: { token: string; deviceId: number }[] }
  | { cmd: 'done'; emitted: number; maxRssMb: number; rssMb: number; droppedSlow: number };

// ---- server process -------------------------------------------------------------------------------

async function serverMain(): Promise<void> {
  const { buildApp } = await import('../apps/server/src/app.js');
  const { loadConfig } = await import('../apps/server/src/config.js');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-bench-hub-'));
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'bench-secret-0123456789-0123456789', LOG_LEVEL: 'silent' }),
    demo: null,
    simulate: false,
    webDistDir: '/nonexistent',
  };
  const { app, ctx } = await buildApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('not listening');

  // Users and their devices, through the API.
  const clients: { token: string; deviceId: number; userId: number }[] = [];
  for (let u = 0; u < USERS; u++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { email: `bench${u}@example.com`, password: 'secret1', country: 'PL', fullName: 'Bench' },
    });
    const { token, user } = res.json() as { token: string; user: { id: number } };
    for (let d = 0; d < CLIENTS / USERS; d++) {
      const mac = `02:00:00:00:${String(u).padStart(2, '0')}:${String(d).padStart(2, '0')}`;
      const r = await app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: { authorization: `Bearer ${token}` },
        payload: { name: `bench ${u}-${d}`, mac, typeCode: 20 },
      });
      if (r.statusCode !== 200) throw new Error(`create device: ${r.statusCode} ${r.body}`);
      clients.push({ token, deviceId: (r.json() as { device: { id: number } }).device.id, userId: user.id });
    }
  }

  // The bare `ws` fan-out: a socket per device, the same frames, no protocol, no checks.
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  const bare = new Map<number, WebSocket>();
  wss.on('connection', (ws, req) => {
    const id = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('device'));
    bare.set(id, ws);
    ws.on('close', () => bare.delete(id));
  });
  await new Promise((r) => wss.once('listening', r));
  const wsAddr = wss.address();
  if (!wsAddr || typeof wsAddr === 'string') throw new Error('ws not listening');

  const send = (m: FromServer) => process.send?.(m);
  send({ cmd: 'ready', port: addr.port, wsPort: wsAddr.port, clients: clients.map(({ token, deviceId }) => ({ token, deviceId })) });

  process.on('message', async (m: ToServer) => {
    if (m.cmd === 'exit') {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
    const values = { P: 1234.5, U1: 231.2, U2: 229.8, U3: 230.4, I1: 5.1, I2: 4.9, I3: 5.3, PF: 0.98, E: 12345.678 };
    let emitted = 0;
    let maxRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      maxRss = Math.max(maxRss, process.memoryUsage().rss);
    }, 250);
    // Spread each device's readings evenly: every 10 ms a slice of the fleet.
    const tickMs = 10;
    const perTick = (clients.length * m.rate * tickMs) / 1000;
    const ticks = (m.seconds * 1000) / tickMs;
    const start = performance.now();
    let cursor = 0;
    let carry = 0;
    for (let t = 0; t < ticks; t++) {
      carry += perTick;
      const n = Math.floor(carry);
      carry -= n;
      for (let i = 0; i < n; i++) {
        const c = clients[cursor++ % clients.length];
        if (!c) continue;
        const e = { deviceId: c.deviceId, userId: c.userId, ts: now(), values };
        if (m.mode === 'hub') ctx.events.emit('readingCommitted', e);
        else {
          const ws = bare.get(c.deviceId);
          // As the hub does: one encoded frame per event.
          const frame = Buffer.from(
            `${JSON.stringify({ type: 1, target: 'liveMeasurement', arguments: [{ deviceId: e.deviceId, ts: e.ts, values: e.values }] })}${RS}`,
          );
          ws?.send(frame, { binary: false });
        }
        emitted++;
      }
      const wait = start + (t + 1) * tickMs - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await new Promise((r) => setTimeout(r, 500));
    clearInterval(sampler);
    const rss = process.memoryUsage().rss;
    send({
      cmd: 'done',
      emitted,
      maxRssMb: Math.max(maxRss, rss) / 2 ** 20,
      rssMb: rss / 2 ** 20,
      droppedSlow: ctx.realtime.stats().droppedSlow,
    });
  });
}

// ---- load clients (bench process) -----------------------------------------------------------------

async function openBareClient(port: number, deviceId: number, rec: Recorder): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/?device=${deviceId}`, { perMessageDeflate: false });
  onFrames(ws, rec);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return ws;
}

export default async function hubBench(ctx: BenchContext): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, HUB_BENCH_ROLE: 'server' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: FromServer[] = [];
  const waiters: ((m: FromServer) => void)[] = [];
  child.on('message', (m: FromServer) => {
    const w = waiters.shift();
    if (w) w(m);
    else messages.push(m);
  });
  const next = () =>
    new Promise<FromServer>((resolve, reject) => {
      const m = messages.shift();
      if (m) return resolve(m);
      const t = setTimeout(() => reject(new Error('bench server did not answer in 120 s')), 120_000);
      waiters.push((msg) => {
        clearTimeout(t);
        resolve(msg);
      });
    });
  const sockets: WebSocket[] = [];
  try {
    const ready = await next();
    if (ready.cmd !== 'ready') throw new Error('unexpected message');
    const hubRec = new Recorder();
    const bareRec = new Recorder();
    const t0 = performance.now();
    sockets.push(...(await inBatches(ready.clients, 50, (c) => openHubClient(ready.port, c.token, c.deviceId, hubRec))));
    ctx.report('hub clients connected and subscribed', sockets.length, 'clients', `${((performance.now() - t0) / 1000).toFixed(1)} s`);
    sockets.push(...(await inBatches(ready.clients, 50, (c) => openBareClient(ready.wsPort, c.deviceId, bareRec))));
    // Hub clients must talk within 30 s or the server drops them.
    const pinger = setInterval(() => {
      for (const ws of sockets.slice(0, ready.clients.length)) if (ws.readyState === WebSocket.OPEN) ws.send(`{"type":6}${RS}`);
    }, 10_000);

    // Warm-up (JIT, first allocations), not measured.
    child.send({ cmd: 'run', mode: 'hub', rate: 1, seconds: 3 } satisfies ToServer);
    if ((await next()).cmd !== 'done') throw new Error('unexpected message');
    const results: Record<string, number> = {};
    // 1/s and the 10/s burst as asked; 40/s (40,000 msgs/s offered, 5 s) looks for the ceiling.
    for (const rate of [1, 10, 40]) {
      for (const mode of ['hub', 'ws'] as const) {
        const rec = mode === 'hub' ? hubRec : bareRec;
        rec.reset();
        child.send({ cmd: 'run', mode, rate, seconds: rate > 10 ? 5 : RUN_SECONDS } satisfies ToServer);
        const done = await next();
        if (done.cmd !== 'done') throw new Error('unexpected message');
        const sorted = rec.latencies.sort((a, b) => a - b);
        const seconds = Math.max(0.001, (rec.lastAt - rec.firstAt) / 1000);
        const rateMsgs = rec.received / seconds;
        results[`${mode}${rate}`] = rateMsgs;
        const label = `${mode === 'hub' ? 'hub' : 'bare ws'} @ ${rate}/s per device`;
        ctx.report(`${label}: delivered / emitted`, rec.received, 'msgs', `of ${done.emitted}`);
        ctx.report(`${label}: latency p50`, percentile(sorted, 50), 'ms');
        ctx.report(`${label}: latency p99`, percentile(sorted, 99), 'ms', mode === 'hub' ? 'target ≤ 100 ms' : '');
        ctx.report(`${label}: throughput`, rateMsgs, 'msgs/s');
        ctx.report(`${label}: server RSS (max)`, done.maxRssMb, 'MB', mode === 'hub' ? 'target ≤ 300 MB' : '');
        if (mode === 'hub' && done.droppedSlow > 0) ctx.report(`${label}: slow clients dropped`, done.droppedSlow, 'clients');
      }
      const ratio = ((results[`hub${rate}`] ?? 0) / (results[`ws${rate}`] ?? 1)) * 100;
      ctx.report(`hub / bare ws throughput @ ${rate}/s`, ratio, '%', 'target ≥ 50 %');
    }
    clearInterval(pinger);
  } finally {
    for (const ws of sockets) ws.terminate();
    if (child.connected) child.send({ cmd: 'exit' } satisfies ToServer);
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
    clearTimeout(t);
  }
}

if (process.env.HUB_BENCH_ROLE === 'server') {
  serverMain().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
