import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type HubConnection, HubConnectionBuilder, NullLogger } from '@microsoft/signalr';
import { HUB_EVENTS, HUB_METHODS, HUB_PATH, type LiveMeasurement } from '@phasewatch/shared';
import mqtt from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeFox } from '../../apps/server/src/test/collectors/fake-devices.js';
import { freePort } from '../../scripts/testing/free-port.js';
import { type Broker, startMosquitto } from '../../scripts/testing/mosquitto.js';
import { createPgDatabase, type RunningServer, registerUser, repoRoot, startServer } from '../support/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const METRICS_TOKEN = 'scale-out-metrics-token-0123456789';
const FOXES = 4;

/** nginx with the shipped site (deploy/nginx-phasewatch.conf), its upstreams and port made this test's. */
async function startNginx(upstreams: number[]): Promise<{ url: string; stop(): Promise<void>; log(): string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-nginx-'));
  // Workers may run as another user than the master (root): their temp files go here.
  chmodSync(dir, 0o777);
  for (const d of ['body', 'proxy', 'logs']) {
    mkdirSync(path.join(dir, d));
    chmodSync(path.join(dir, d), 0o777);
  }
  const port = await freePort();
  const site = readFileSync(path.join(repoRoot, 'deploy/nginx-phasewatch.conf'), 'utf8')
    .replace(/^\s*server 127\.0\.0\.1:\d+ (.*);$/gm, '')
    .replace(
      'keepalive 64;',
      `${upstreams.map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n    ')}\n    keepalive 64;`,
    )
    .replace('listen 80;', `listen 127.0.0.1:${port};`)
    .replace('listen [::]:80;', '');
  writeFileSync(path.join(dir, 'site.conf'), site);
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/logs/error.log warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;`,
      `  fastcgi_temp_path ${dir}/body; uwsgi_temp_path ${dir}/body; scgi_temp_path ${dir}/body;`,
      `  include ${dir}/site.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${err}`);
    try {
      await fetch(`${url}/api/health`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not listen: ${err}`);
      await sleep(50);
    }
  }
  return {
    url,
    log: () => {
      try {
        return err + readFileSync(path.join(dir, 'logs/error.log'), 'utf8');
      } catch {
        return err;
      }
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `phasewatch_ingest_batches_total{source="mqtt"}` of one instance: MQTT messages it handled. */
async function mqttHandled(server: RunningServer): Promise<number> {
  const res = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const m = /phasewatch_ingest_batches_total\{source="mqtt"\} (\d+)/.exec(await res.text());
  return m ? Number(m[1]) : 0;
}

describe('two instances behind nginx, one killed under load', () => {
  let broker: Broker;
  let a: RunningServer;
  let b: RunningServer;
  let proxy: Awaited<ReturnType<typeof startNginx>>;
  let db: pg.Client;
  const foxes: ReturnType<typeof fakeFox>[] = [];
  const hubs: HubConnection[] = [];

  beforeAll(async () => {
    broker = await startMosquitto();
    const databaseUrl = await createPgDatabase();
    const env = {
      JWT_SECRET: 'scale-out-test-secret-0123456789abcdef',
      MQTT_URL: broker.url,
      TRUST_PROXY: '127.0.0.1',
      METRICS_TOKEN,
      RATE_LIMIT_INGEST: '0',
    };
    a = await startServer({ databaseUrl, env });
    b = await startServer({ databaseUrl, env });
    proxy = await startNginx([a.port, b.port]);
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    for (const h of hubs) await h.stop().catch(() => {});
    await db?.end();
    await proxy?.stop();
    await a?.stop();
    await b?.stop();
    await broker?.stop();
    for (const f of foxes) await f.stop();
  });

  it('loses no acknowledged reading, answers again within 5 s, reconnects hub clients, takes over polled devices, handles each MQTT message once', async () => {
    const api = async (method: string, url: string, token: string, body?: unknown) => {
      const res = await fetch(`${proxy.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
    };
    const user = await registerUser(proxy.url, 'scale@example.com');
    const created = await api('POST', '/api/devices', user.token, { name: 'meter', mac: '50:00:00:00:00:01', typeCode: 20 });
    expect(created.status).toBe(200);
    const meter = created.body as { device: { id: number; mac: string }; ingestKey: string };
    const fox: number[] = [];
    for (let i = 0; i < FOXES; i++) {
      const f = await fakeFox('5555').start();
      foxes.push(f);
      const res = await api('POST', '/api/devices', user.token, {
        name: `Fox ${i}`,
        typeCode: 13,
        source: { kind: 'fox-energy', address: f.url, key: '5555', pollSeconds: 1 },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      fox.push((res.body as { device: { id: number } }).device.id);
    }

    // A hub client through the proxy, as the web app connects (it subscribes again after a reconnect).
    const live: { at: number; m: LiveMeasurement }[] = [];
    const hub = new HubConnectionBuilder()
      .withUrl(`${proxy.url}${HUB_PATH}`, { accessTokenFactory: () => user.token })
      .withAutomaticReconnect([0, 500, 1000, 2000, 2000, 2000])
      .configureLogging(NullLogger.instance)
      .build();
    hubs.push(hub);
    hub.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => live.push({ at: Date.now(), m }));
    hub.onreconnected(() => void hub.invoke(HUB_METHODS.subscribeDevice, meter.device.id));
    await hub.start();
    await hub.invoke(HUB_METHODS.subscribeDevice, meter.device.id);

    // MQTT before the kill: each message handled by exactly one of the two instances.
    const mqttClient = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    const topic = `phasewatch/${meter.device.mac.replaceAll(':', '')}/readings`;
    const mqttBase = Date.now() - 3_600_000;
    const M = 40;
    for (let i = 0; i < M; i++)
      await mqttClient.publishAsync(
        topic,
        JSON.stringify({ key: meter.ingestKey, readings: [{ ts: new Date(mqttBase + i * 1000).toISOString(), values: { vave1: 231 } }] }),
        { qos: 1 },
      );
    await expect.poll(async () => (await mqttHandled(a)) + (await mqttHandled(b)), { timeout: 15_000 }).toBe(M);
    await sleep(500);
    const [handledA, handledB] = [await mqttHandled(a), await mqttHandled(b)];
    expect(handledA + handledB).toBe(M);
    expect(handledA).toBeGreaterThan(0);
    expect(handledB).toBeGreaterThan(0);
    await mqttClient.endAsync();

    // Load: four senders through the proxy, each reading its own timestamp; acknowledged ones are remembered.
    const acked = new Set<number>();
    const failures: number[] = [];
    let seq = 0;
    let running = true;
    const loadBase = Date.now() - 1_800_000;
    const sender = async () => {
      while (running) {
        const ts = loadBase + seq++ * 100;
        try {
          const res = await fetch(`${proxy.url}/api/ingest`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-device-key': meter.ingestKey },
            body: JSON.stringify({ readings: [{ ts: new Date(ts).toISOString(), values: { vave1: 230 + (seq % 5) } }] }),
          });
          if (res.status === 200) acked.add(ts);
          else failures.push(Date.now());
          await res.arrayBuffer();
        } catch {
          failures.push(Date.now());
        }
        await sleep(20);
      }
    };
    const senders = Array.from({ length: 4 }, sender);
    await sleep(2_000);
    const polledBefore = foxes.map((f) => f.requests.length);

    const killedAt = Date.now();
    await a.kill();
    await sleep(6_000);
    // Requests succeed again through the proxy within 5 s of the kill (nginx skips the dead instance).
    const lateFailures = failures.filter((t) => t > killedAt + 5_000);
    expect(lateFailures, `failures after the first 5 s: ${lateFailures.length} (all: ${failures.length})`).toEqual([]);
    const health = await fetch(`${proxy.url}/api/health`);
    expect(health.status).toBe(200);
    running = false;
    await Promise.all(senders);

    // No acknowledged reading lost.
    const { rows } = await db.query<{ ts: string }>('SELECT ts FROM readings WHERE device_id = $1 AND ts >= $2', [
      meter.device.id,
      loadBase,
    ]);
    const stored = new Set(rows.map((r) => Number(r.ts)));
    const lost = [...acked].filter((ts) => !stored.has(ts));
    expect(acked.size).toBeGreaterThan(50);
    expect(lost).toEqual([]);

    // The hub client is connected (again) and gets live values ingested after the kill.
    const since = Date.now();
    await expect
      .poll(
        async () => {
          await fetch(`${proxy.url}/api/ingest`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-device-key': meter.ingestKey },
            body: JSON.stringify({ readings: [{ ts: new Date().toISOString(), values: { vave1: 229 } }] }),
          });
          return live.filter((l) => l.at >= since).length;
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBeGreaterThan(0);

    // Polled devices: every one is read again (the survivor takes the killed instance's share within
    // 20 s of its last heartbeat), and by one poller only (about one poll a second).
    await expect
      .poll(
        async () => {
          const before = foxes.map((f) => f.requests.filter((p) => p.endsWith('get_current_parameters')).length);
          await sleep(2_000);
          return foxes.map((f, i) => f.requests.filter((p) => p.endsWith('get_current_parameters')).length - (before[i] as number));
        },
        { timeout: 30_000, interval: 0 },
      )
      .toSatisfy((counts: number[]) => counts.every((n) => n >= 1 && n <= 3));
    expect(foxes.every((f, i) => f.requests.length > (polledBefore[i] as number))).toBe(true);
    expect(Date.now() - killedAt).toBeLessThan(60_000);

    // MQTT after the kill: the survivor handles every message, once.
    const before = await mqttHandled(b);
    const again = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    for (let i = 0; i < 10; i++)
      await again.publishAsync(
        topic,
        JSON.stringify({
          key: meter.ingestKey,
          readings: [{ ts: new Date(mqttBase + (M + i) * 1000).toISOString(), values: { vave1: 232 } }],
        }),
        { qos: 1 },
      );
    await again.endAsync();
    await expect.poll(async () => (await mqttHandled(b)) - before, { timeout: 10_000 }).toBeGreaterThanOrEqual(10);
    const { rows: mqttRows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM readings WHERE device_id = $1 AND ts >= $2 AND ts < $3',
      [meter.device.id, mqttBase, mqttBase + (M + 10) * 1000],
    );
    expect(mqttRows[0]?.n).toBe(M + 10);
    expect(fox).toHaveLength(FOXES);
  }, 120_000);
});
