import { type HubConnection, HubConnectionBuilder, HubConnectionState } from '@microsoft/signalr';
import {
  HUB_EVENTS,
  HUB_METHODS,
  HUB_PATH,
  type LiveMeasurement,
  REALTIME_KEEP_ALIVE_MS,
  REALTIME_RECONNECT_DELAYS_MS,
  REALTIME_SERVER_TIMEOUT_MS,
} from '@phasewatch/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase, type RunningServer, registerUser, startServer } from '../support/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

let macCounter = 0;
async function createDevice(baseUrl: string, token: string): Promise<{ id: number; ingestKey: string }> {
  const mac = `02:00:00:00:${String(Math.floor(macCounter / 100)).padStart(2, '0')}:${String(macCounter++ % 100).padStart(2, '0')}`;
  const res = await fetch(`${baseUrl}/api/devices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `hub ${mac}`, mac, typeCode: 20 }),
  });
  if (!res.ok) throw new Error(`create device: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { device: { id: number }; ingestKey: string };
  return { id: body.device.id, ingestKey: body.ingestKey };
}

async function ingest(baseUrl: string, key: string, values: Record<string, number>, ts = Date.now()): Promise<void> {
  const res = await fetch(`${baseUrl}/api/ingest`, {
    method: 'POST',
    headers: { 'x-device-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ readings: [{ ts: new Date(ts).toISOString(), values }] }),
  });
  if (!res.ok) throw new Error(`ingest: ${res.status} ${await res.text()}`);
}

/** The official client in Node, configured as the web app configures it. */
function client(baseUrl: string, token: string): HubConnection {
  return new HubConnectionBuilder()
    .withUrl(`${baseUrl}${HUB_PATH}`, { accessTokenFactory: () => token })
    .withAutomaticReconnect([...REALTIME_RECONNECT_DELAYS_MS])
    .withKeepAliveInterval(REALTIME_KEEP_ALIVE_MS)
    .withServerTimeout(REALTIME_SERVER_TIMEOUT_MS)
    .configureLogging({ log: () => {} })
    .build();
}

const open: HubConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.stop()));
});
async function connect(baseUrl: string, token: string): Promise<HubConnection> {
  const c = client(baseUrl, token);
  open.push(c);
  await c.start();
  return c;
}

describe('hub against the built server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.stop());

  it('answers 401 on negotiate with a bad token', async () => {
    const c = client(server.baseUrl, 'forged');
    await expect(c.start()).rejects.toThrow(/401|Unauthorized/);
    expect(c.state).toBe(HubConnectionState.Disconnected);
  });

  it("delivers a reading ingested over HTTP to the subscribed client and not to another user's", async () => {
    const alice = await registerUser(server.baseUrl, `alice-${Date.now()}@example.com`);
    const bob = await registerUser(server.baseUrl, `bob-${Date.now()}@example.com`);
    const devA = await createDevice(server.baseUrl, alice.token);
    const devB = await createDevice(server.baseUrl, bob.token);
    const a = await connect(server.baseUrl, alice.token);
    const b = await connect(server.baseUrl, bob.token);
    const gotA: LiveMeasurement[] = [];
    const gotB: LiveMeasurement[] = [];
    a.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => gotA.push(m));
    b.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => gotB.push(m));
    await expect(a.invoke(HUB_METHODS.subscribeDevice, devA.id)).resolves.toBe(true);
    await expect(b.invoke(HUB_METHODS.subscribeDevice, devA.id)).rejects.toThrow(/not found/);
    await b.invoke(HUB_METHODS.subscribeDevice, devB.id);

    const ts = Date.now() - 1_000;
    await ingest(server.baseUrl, devA.ingestKey, { vave1: 231.5 }, ts);
    await waitFor(() => gotA.length === 1, 10_000, 'the reading at alice');
    expect(gotA[0]).toMatchObject({ deviceId: devA.id, ts, values: { vave1: 231.5 } });
    await sleep(300);
    expect(gotB).toEqual([]);
  });
});

describe('two instances on one PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(async () => {
    const databaseUrl = await createPgDatabase();
    // Info logs: the password-reset link is written there (no mail server).
    const env = { JWT_SECRET: 'e2e-hub-shared-secret-0123456789abcdef', LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
    a = await startServer({ databaseUrl, env });
    b = await startServer({ databaseUrl, env });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('delivers a reading ingested on instance A to a client on instance B', async () => {
    const user = await registerUser(a.baseUrl, `multi-${Date.now()}@example.com`);
    const dev = await createDevice(a.baseUrl, user.token);
    const onB = await connect(b.baseUrl, user.token);
    const got: LiveMeasurement[] = [];
    onB.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => got.push(m));
    await onB.invoke(HUB_METHODS.subscribeDevice, dev.id);
    const ts = Date.now() - 500;
    await ingest(a.baseUrl, dev.ingestKey, { vave1: 229.9 }, ts);
    await waitFor(() => got.length === 1, 10_000, 'the reading on instance B');
    await sleep(300);
    expect(got).toEqual([{ deviceId: dev.id, ts, values: { vave1: 229.9 } }]);
  });

  it("a password reset on one instance closes the user's hub connections on both at once, and nobody else's", async () => {
    const email = `reset-${Date.now()}@example.com`;
    const user = await registerUser(a.baseUrl, email);
    const bystander = await registerUser(b.baseUrl, `bystander-${Date.now()}@example.com`);
    const login = await fetch(`${b.baseUrl}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'secret1' }),
    });
    const second = ((await login.json()) as { token: string }).token;
    const conns = [
      await connect(a.baseUrl, user.token),
      await connect(b.baseUrl, user.token),
      await connect(a.baseUrl, second),
      await connect(b.baseUrl, second),
    ];
    const others = [await connect(a.baseUrl, bystander.token), await connect(b.baseUrl, bystander.token)];
    const closedAt = conns.map(
      (c) => new Promise<{ at: number; error: string }>((r) => c.onclose((e) => r({ at: Date.now(), error: String(e) }))),
    );

    expect(
      (
        await fetch(`${a.baseUrl}/api/forgot_password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
        })
      ).status,
    ).toBe(200);
    await waitFor(() => a.output().includes(email) && /reset-password\?token=/.test(a.output()), 10_000, 'the reset link in the log');
    const token = [...a.output().matchAll(/reset-password\?token=([A-Za-z0-9_-]+)/g)].at(-1)?.[1];
    const started = Date.now();
    const reset = await fetch(`${b.baseUrl}/api/reset_password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'changed1' }),
    });
    expect(reset.status).toBe(200);
    const closed = await Promise.all(closedAt);
    const after = closed.map((c) => c.at - started);
    for (const c of closed) expect(c.error).toMatch(/Session has ended/);
    // At once rather than at the periodic session check (a minute): the bound only separates the two.
    expect(Math.max(...after), `closed after ${after.join(', ')} ms`).toBeLessThan(15_000);
    for (const c of conns) expect(c.state).toBe(HubConnectionState.Disconnected);
    for (const c of others) expect(c.state).toBe(HubConnectionState.Connected);
  });
});
