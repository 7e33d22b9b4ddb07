import { type HubConnection, HubConnectionBuilder, NullLogger } from '@microsoft/signalr';
import { HUB_EVENTS, HUB_METHODS, HUB_PATH, type LiveMeasurement, MAX_INGEST_BATCH } from '@phasewatch/shared';
import mqtt from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeFox } from '../../apps/server/src/test/collectors/fake-devices.js';
import { type Broker, startMosquitto } from '../../scripts/testing/mosquitto.js';
import { startNginx } from '../support/nginx.js';
import { createPgDatabase, type RunningServer, registerUser, startServer } from '../support/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const METRICS_TOKEN = 'scale-out-metrics-token-0123456789';
const FOXES = 4;
/** Both instances' job lease: a killed instance's running export is taken over this long after its last heartbeat. */
const JOB_LEASE_MS = 5_000;
/** Readings (one a second) of the device whose CSV export is running when its instance is killed, and their parameters. */
const ARCHIVE = 40_000;
const ARCHIVE_PARAMS = ['vave1', 'vave2', 'vave3', 'iave1', 'iave2', 'iave3'];
/** Parameter j of reading i: multiples of 1/8 (exact in binary and in the file), within both domains. */
const archiveValue = (i: number, j: number) => ((i * 7 + j * 13) % 4000) / 8;

/** A job's row as the queue keeps it (`jobs`; bigint columns come back as text). */
interface JobState {
  status: string;
  claimed_by: string | null;
  attempts: number;
  started_at: string | null;
  finished_at: string | null;
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
      JOB_LEASE_MS: String(JOB_LEASE_MS),
    };
    a = await startServer({ databaseUrl, env });
    b = await startServer({ databaseUrl, env });
    // One worker is plenty for this test's few connections.
    proxy = await startNginx([a.port, b.port], { workers: 1, workerConnections: 1024 });
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

  it('loses no acknowledged reading, answers again within 5 s, reconnects hub clients, takes over polled devices and a running export, handles each MQTT message once', async () => {
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

    // A device with history for an export still running when its instance is killed: a reading a second of
    // six parameters, sent as batches through the proxy (its CSV is ~3 MB, seconds of work for a job thread).
    const archived = await api('POST', '/api/devices', user.token, { name: 'archive', mac: '50:00:00:00:00:02', typeCode: 20 });
    expect(archived.status).toBe(200);
    const archive = archived.body as { device: { id: number }; ingestKey: string };
    const archiveFrom = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 4 * 86_400_000;
    let nextBatch = 0;
    const seed = async () => {
      for (let k = nextBatch++; k * MAX_INGEST_BATCH < ARCHIVE; k = nextBatch++) {
        const readings: { ts: string; values: Record<string, number> }[] = [];
        for (let i = k * MAX_INGEST_BATCH; i < Math.min(ARCHIVE, (k + 1) * MAX_INGEST_BATCH); i++)
          readings.push({
            ts: new Date(archiveFrom + i * 1000).toISOString(),
            values: Object.fromEntries(ARCHIVE_PARAMS.map((p, j) => [p, archiveValue(i, j)])),
          });
        const res = await fetch(`${proxy.url}/api/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-device-key': archive.ingestKey },
          body: JSON.stringify({ readings }),
        });
        const text = await res.text();
        expect(res.status, text).toBe(200);
      }
    };
    await Promise.all([seed(), seed()]);

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

    // An export running when the kill comes: started through the proxy under the load; the instance that
    // claimed it (the jobs table names its process) is the one killed.
    const started = await api('POST', '/api/exports', user.token, {
      deviceId: archive.device.id,
      parameters: ARCHIVE_PARAMS,
      interval: 'raw',
      format: 'csv',
      fileName: 'takeover',
      from: new Date(archiveFrom).toISOString(),
      to: new Date(archiveFrom + ARCHIVE * 1000).toISOString(),
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const exportId = String(started.body?.id);
    const jobRow = async () =>
      (await db.query<JobState>('SELECT status, claimed_by, attempts, started_at, finished_at FROM jobs WHERE id = $1', [exportId]))
        .rows[0];
    let claim = await jobRow();
    for (const deadline = Date.now() + 15_000; !claim?.claimed_by && Date.now() < deadline; claim = await jobRow()) await sleep(20);
    expect(claim).toMatchObject({ status: 'running', attempts: 1 });
    const holder = Number(claim?.claimed_by?.split(':').at(-2));
    expect([a.pid, b.pid]).toContain(holder);
    const [victim, survivor] = holder === a.pid ? [a, b] : [b, a];

    const killedAt = Date.now();
    await victim.kill();
    // The export had not finished: it was running on the killed instance.
    expect(await jobRow()).toMatchObject({ status: 'running', claimed_by: claim?.claimed_by, attempts: 1 });
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
    const before = await mqttHandled(survivor);
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
    await expect.poll(async () => (await mqttHandled(survivor)) - before, { timeout: 10_000 }).toBeGreaterThanOrEqual(10);
    const { rows: mqttRows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM readings WHERE device_id = $1 AND ts >= $2 AND ts < $3',
      [meter.device.id, mqttBase, mqttBase + (M + 10) * 1000],
    );
    expect(mqttRows[0]?.n).toBe(M + 10);
    expect(fox).toHaveLength(FOXES);

    // The running export was taken over: the survivor claimed it once the killed instance's lease ran out
    // (JOB_LEASE_MS, not the default 60 s), ran it again from the start and finished it; its file downloads
    // through the proxy and holds every reading of the range, once, from that second run alone.
    await expect
      .poll(async () => (await jobRow())?.status, { timeout: Math.max(1_000, killedAt + 40_000 - Date.now()), interval: 200 })
      .toSatisfy((status: string | undefined) => status === 'done' || status === 'failed');
    const job = await jobRow();
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'done', attempts: 2, claimed_by: null });
    const takenOverAfter = Number(job?.started_at) - killedAt;
    const doneAfter = Number(job?.finished_at) - killedAt;
    // The lease is renewed every third of it: it ran out 2/3 to 1 lease after the kill, and the survivor's
    // poll (every 2 s) claimed the job then.
    expect(takenOverAfter).toBeGreaterThan(JOB_LEASE_MS / 2);
    expect(takenOverAfter).toBeLessThan(JOB_LEASE_MS + 2_000 + 3_000);
    expect(doneAfter).toBeLessThan(30_000);
    const file = await fetch(`${proxy.url}/api/exports/${exportId}/download`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await file.text()).split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toBe('time,vave1 [V],vave2 [V],vave3 [V],iave1 [A],iave2 [A],iave3 [A]');
    expect(lines.length - 1).toBe(ARCHIVE);
    const wrong = lines.slice(1).filter((line, i) => {
      const [time, ...values] = line.split(',');
      return (
        Date.parse(time ?? '') !== archiveFrom + i * 1000 ||
        values.length !== ARCHIVE_PARAMS.length ||
        values.some((v, j) => Number(v) !== archiveValue(i, j))
      );
    });
    expect(wrong.slice(0, 3), `${wrong.length} rows differ from the readings sent`).toEqual([]);
    const { rows: pieces } = await db.query<{ attempt: number }>('SELECT DISTINCT attempt FROM export_chunks WHERE job_id = $1', [
      exportId,
    ]);
    expect(pieces.map((p) => p.attempt)).toEqual([2]);
    console.info(
      `scale-out: export of ${ARCHIVE} rows taken over ${takenOverAfter} ms after the kill (JOB_LEASE_MS ${JOB_LEASE_MS}), done after ${doneAfter} ms`,
    );
  }, 120_000);
});
