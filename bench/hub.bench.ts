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
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import type { BenchContext } from './run.js';
import { freshDatabase } from './support/fleet.js';
import { inBatches, now, onFrames, openHubClient, percentile, Recorder, RS } from './support/hub-clients.js';

const CLIENTS = 1_000;
const USERS = 10;
const RUN_SECONDS = 15;

type Mode = 'hub' | 'ws';
type ToServer = { cmd: 'run'; mode: Mode; rate: number; seconds: number } | { cmd: 'limits'; unbounded: boolean } | { cmd: 'exit' };
type FromServer =
  | {
      cmd: 'ready';
      port: number;
      wsPort: number;
      clients: { token: string; deviceId: number }[];
      /** A user of its own, with one device: the flooder of the flood phase. */
      flooder: { token: string; deviceId: number };
    }
  | { cmd: 'limits'; ok: true }
  | { cmd: 'done'; emitted: number; maxRssMb: number; rssMb: number; droppedSlow: number; floodClosed: number; refused: number };

// ---- server process -------------------------------------------------------------------------------

async function serverMain(): Promise<void> {
  const { buildApp } = await import('../apps/server/src/app.js');
  const { loadConfig } = await import('../apps/server/src/config.js');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-bench-hub-'));
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.HUB_BENCH_DATABASE_URL ?? '',
      JWT_SECRET: 'bench-secret-0123456789-0123456789',
      LOG_LEVEL: 'silent',
      COLLECTOR_DISCOVERY_ADDRESS: '127.0.0.1:9',
      RCE_IMPORT: 'off',
    }),
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
  const flood = await app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { email: 'flooder@example.com', password: 'secret1', country: 'PL', fullName: 'Flooder' },
  });
  const flooderToken = (flood.json() as { token: string }).token;
  const flooderDevice = await app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: { authorization: `Bearer ${flooderToken}` },
    payload: { name: 'flooded', mac: '02:00:00:00:FF:FF', typeCode: 20 },
  });
  const flooder = { token: flooderToken, deviceId: (flooderDevice.json() as { device: { id: number } }).device.id };
  const { DEFAULT_HUB_OPTIONS } = await import('../apps/server/src/realtime/dashboard-hub.js');

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
  send({
    cmd: 'ready',
    port: addr.port,
    wsPort: wsAddr.port,
    clients: clients.map(({ token, deviceId }) => ({ token, deviceId })),
    flooder,
  });

  process.on('message', async (m: ToServer) => {
    if (m.cmd === 'limits') {
      // Unbounded: every invocation starts as it arrives, as before the bounds (the figure they are compared to).
      const huge = 1_000_000_000;
      ctx.realtime.configure(
        m.unbounded
          ? { invocationWindow: huge, userInvocations: huge, maxQueuedInvocations: huge, rateLimited: false }
          : {
              invocationWindow: DEFAULT_HUB_OPTIONS.invocationWindow,
              userInvocations: DEFAULT_HUB_OPTIONS.userInvocations,
              maxQueuedInvocations: DEFAULT_HUB_OPTIONS.maxQueuedInvocations,
              rateLimited: true,
            },
      );
      send({ cmd: 'limits', ok: true });
      return;
    }
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
      floodClosed: ctx.realtime.stats().invocations.floodClosed,
      refused: ctx.realtime.stats().invocations.refused,
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

/** The bench server as a child process (this file, role `server`), on SQLite or the PostgreSQL of `databaseUrl`. */
function startServerChild(databaseUrl = '') {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, HUB_BENCH_ROLE: 'server', HUB_BENCH_DATABASE_URL: databaseUrl },
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
  const stop = async () => {
    if (child.connected) child.send({ cmd: 'exit' } satisfies ToServer);
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
    clearTimeout(t);
  };
  return { child, next, stop };
}
type ServerChild = ReturnType<typeof startServerChild>;

const FLOOD_SECONDS = 10;
/** The probe's flood: one connection sending 100 frames of 350 SubscribeDevice calls (3.4 MB), again whenever it is closed. */
const FLOOD_FRAMES = 100;
const FLOOD_CALLS_PER_FRAME = 350;

/**
 * One user flooding the hub beside the usual load (1,000 clients, readings at 1/s): how long other
 * users wait for `/api/health` and for a SubscribeDevice answer, and how late their readings arrive,
 * without a flooder, with one, and with one while the bounds are lifted (every call starting as it
 * arrives, no rate limit: as before the bounds).
 */
async function floodPhase(
  ctx: BenchContext,
  dialect: string,
  server: ServerChild,
  ready: Extract<FromServer, { cmd: 'ready' }>,
  rec: Recorder,
) {
  const base = `http://127.0.0.1:${ready.port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const health = () =>
    new Promise<number>((resolve, reject) => {
      const t = performance.now();
      http
        .get(`${base}/api/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(`health ${res.statusCode}`))));
        })
        .on('error', reject);
    });
  // Another user's connection: SubscribeDevice round trips.
  const probe = ready.clients[ready.clients.length - 1] as { token: string; deviceId: number };
  const rtts: number[] = [];
  const sentAt = new Map<string, number>();
  const probeWs = await openHubClient(ready.port, probe.token, probe.deviceId, new Recorder(), (msg) => {
    const at = msg.invocationId !== undefined ? sentAt.get(msg.invocationId) : undefined;
    if (msg.type === 3 && at !== undefined) rtts.push(performance.now() - at);
  });
  const frames = Array.from({ length: FLOOD_FRAMES }, (_, f) =>
    Array.from(
      { length: FLOOD_CALLS_PER_FRAME },
      (_, i) =>
        `{"type":1,"invocationId":"${f * FLOOD_CALLS_PER_FRAME + i}","target":"SubscribeDevice","arguments":[${ready.flooder.deviceId}]}${RS}`,
    ).join(''),
  );
  try {
    for (const mode of ['no flooder', 'one flooder', 'one flooder, no bounds'] as const) {
      server.child.send({ cmd: 'limits', unbounded: mode === 'one flooder, no bounds' } satisfies ToServer);
      if ((await server.next()).cmd !== 'limits') throw new Error('unexpected message');
      rec.reset();
      rtts.length = 0;
      const healthMs: number[] = [];
      let running = true;
      const flooding = { connections: 0, answered: 0 };
      const healthLoop = (async () => {
        while (running) {
          healthMs.push(await health());
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      let seq = 0;
      const probeLoop = (async () => {
        while (running) {
          const id = `p${seq++}`;
          sentAt.set(id, performance.now());
          probeWs.send(`{"type":1,"invocationId":"${id}","target":"SubscribeDevice","arguments":[${probe.deviceId}]}${RS}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      const floodLoop = (async () => {
        if (mode === 'no flooder') return;
        while (running) {
          let ws: WebSocket;
          try {
            ws = await openHubClient(ready.port, ready.flooder.token, ready.flooder.deviceId, new Recorder(), (msg) => {
              if (msg.type === 3) flooding.answered++;
            });
          } catch {
            await new Promise((r) => setTimeout(r, 100));
            continue;
          }
          flooding.connections++;
          for (const f of frames) ws.send(f);
          await new Promise<void>((resolve) => {
            const check = setInterval(() => {
              if (!running || ws.readyState !== WebSocket.OPEN) {
                clearInterval(check);
                resolve();
              }
            }, 20);
          });
          ws.terminate();
        }
      })();
      server.child.send({ cmd: 'run', mode: 'hub', rate: 1, seconds: FLOOD_SECONDS } satisfies ToServer);
      const done = await server.next();
      if (done.cmd !== 'done') throw new Error('unexpected message');
      running = false;
      await Promise.all([healthLoop, probeLoop, floodLoop]);
      const h = healthMs.sort((a, b) => a - b);
      const r = [...rtts].sort((a, b) => a - b);
      const e = rec.latencies.sort((a, b) => a - b);
      const label = `${dialect}, ${mode}`;
      ctx.report(
        `flood (${label}): /api/health p50 / p99`,
        percentile(h, 50),
        'ms',
        `p99 ${percentile(h, 99).toFixed(1)} ms, ${h.length} requests`,
      );
      ctx.report(
        `flood (${label}): other user's SubscribeDevice p50 / p99`,
        percentile(r, 50),
        'ms',
        `p99 ${percentile(r, 99).toFixed(1)} ms, ${r.length} calls`,
      );
      ctx.report(`flood (${label}): readings to others p99`, percentile(e, 99), 'ms', `${rec.received} of ${done.emitted} delivered`);
      if (mode !== 'no flooder') {
        ctx.report(
          `flood (${label}): flooder`,
          flooding.connections,
          'connections',
          `${flooding.answered.toLocaleString('en')} calls answered; closed for flooding so far ${done.floodClosed}, refused by the rate limit so far ${done.refused}`,
        );
      }
    }
  } finally {
    probeWs.terminate();
    agent.destroy();
    server.child.send({ cmd: 'limits', unbounded: false } satisfies ToServer);
    await server.next();
  }
}

/** Connects the 1,000 hub clients to a bench server, with pings so the server keeps them. */
async function connectHubClients(ready: Extract<FromServer, { cmd: 'ready' }>, rec: Recorder) {
  const sockets = await inBatches(ready.clients, 50, (c) => openHubClient(ready.port, c.token, c.deviceId, rec));
  const pinger = setInterval(() => {
    for (const ws of sockets) if (ws.readyState === WebSocket.OPEN) ws.send(`{"type":6}${RS}`);
  }, 10_000);
  return {
    sockets,
    close() {
      clearInterval(pinger);
      for (const ws of sockets) ws.terminate();
    },
  };
}

export default async function hubBench(ctx: BenchContext): Promise<void> {
  const parts = (process.env.HUB_BENCH_PARTS ?? 'fanout,flood').split(',');
  const floodDialects = (process.env.HUB_BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
  const server = startServerChild();
  const { child, next } = server;
  const sockets: WebSocket[] = [];
  try {
    const ready = await next();
    if (ready.cmd !== 'ready') throw new Error('unexpected message');
    const hubRec = new Recorder();
    const bareRec = new Recorder();
    const t0 = performance.now();
    const hubClients = await connectHubClients(ready, hubRec);
    sockets.push(...hubClients.sockets);
    ctx.report('hub clients connected and subscribed', sockets.length, 'clients', `${((performance.now() - t0) / 1000).toFixed(1)} s`);
    sockets.push(...(await inBatches(ready.clients, 50, (c) => openBareClient(ready.wsPort, c.deviceId, bareRec))));

    // Warm-up (JIT, first allocations), not measured.
    child.send({ cmd: 'run', mode: 'hub', rate: 1, seconds: 3 } satisfies ToServer);
    if ((await next()).cmd !== 'done') throw new Error('unexpected message');
    const results: Record<string, number> = {};
    // 1/s and the 10/s burst as asked; 40/s (40,000 msgs/s offered, 5 s) looks for the ceiling.
    for (const rate of parts.includes('fanout') ? [1, 10, 40] : []) {
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
    if (parts.includes('flood') && floodDialects.includes('sqlite')) await floodPhase(ctx, 'SQLite', server, ready, hubRec);
    hubClients.close();
  } finally {
    for (const ws of sockets) ws.terminate();
    await server.stop();
  }
  if (parts.includes('flood') && floodDialects.includes('postgres')) {
    const db = await freshDatabase(ctx.pgUrl, 'bench_hub');
    const pgServer = startServerChild(db.url);
    try {
      const ready = await pgServer.next();
      if (ready.cmd !== 'ready') throw new Error('unexpected message');
      const rec = new Recorder();
      const clients = await connectHubClients(ready, rec);
      try {
        pgServer.child.send({ cmd: 'run', mode: 'hub', rate: 1, seconds: 3 } satisfies ToServer);
        if ((await pgServer.next()).cmd !== 'done') throw new Error('unexpected message');
        await floodPhase(ctx, 'PostgreSQL', pgServer, ready, rec);
      } finally {
        clients.close();
      }
    } finally {
      await pgServer.stop();
      await db.drop();
    }
  }
}

if (process.env.HUB_BENCH_ROLE === 'server') {
  serverMain().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
