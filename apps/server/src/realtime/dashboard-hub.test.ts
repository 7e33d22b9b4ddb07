import { HubConnectionBuilder, HubConnectionState, type HubConnection as SignalRConnection } from '@microsoft/signalr';
import {
  HUB_EVENTS,
  HUB_METHODS,
  HUB_PATH,
  type LiveMeasurement,
  REALTIME_KEEP_ALIVE_MS,
  REALTIME_RECONNECT_DELAYS_MS,
  REALTIME_SERVER_TIMEOUT_MS,
} from '@phasewatch/shared';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../app.js';
import type { AppContext } from '../app-context.js';
import { sha256 } from '../auth/tokens.js';
import { type AppConfig, loadConfig } from '../config.js';
import { openStorage } from '../storage/database.js';
import { buildTestApp, signUp, type TestApp } from '../test/app.js';
import { createTestStorage, DIALECTS } from '../test/storage.js';
import { FANOUT_CHANNEL } from './pg-fanout.js';

const RS = '\x1e';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(cond: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

let macCounter = 0;
/** A device of the user, registered through the devices API. */
async function addDevice(app: FastifyInstance, user: { auth: Record<string, string> }): Promise<number> {
  const n = macCounter++;
  const mac = `02:00:00:00:${String(Math.floor(n / 100)).padStart(2, '0')}:${String(n % 100).padStart(2, '0')}`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: user.auth,
    payload: { name: `hub ${n}`, mac, typeCode: 20 },
  });
  if (res.statusCode !== 200) throw new Error(`create device: ${res.statusCode} ${res.body}`);
  return (res.json() as { device: { id: number } }).device.id;
}

function hubUrl(app: FastifyInstance): string {
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('not listening');
  return `http://127.0.0.1:${addr.port}${HUB_PATH}`;
}

/** The official client, configured as the web app configures it. */
function officialClient(url: string, getToken: () => string | Promise<string>): SignalRConnection {
  return new HubConnectionBuilder()
    .withUrl(url, { accessTokenFactory: getToken })
    .withAutomaticReconnect([...REALTIME_RECONNECT_DELAYS_MS])
    .withKeepAliveInterval(REALTIME_KEEP_ALIVE_MS)
    .withServerTimeout(REALTIME_SERVER_TIMEOUT_MS)
    .configureLogging({ log: () => {} })
    .build();
}

/** A raw WebSocket speaking the protocol by hand, as a browser would connect (token in the query). */
class RawClient {
  readonly records: string[] = [];
  closed = false;
  closeCode = 0;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => {
      for (const r of d.toString().split(RS)) if (r) this.records.push(r);
    });
    ws.on('close', (code) => {
      this.closed = true;
      this.closeCode = code;
    });
    ws.on('error', () => {});
  }
  static async open(app: FastifyInstance, token: string, handshake = true): Promise<RawClient> {
    const res = await fetch(`${hubUrl(app)}/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const { connectionToken } = (await res.json()) as { connectionToken: string };
    const ws = new WebSocket(`${hubUrl(app).replace('http', 'ws')}?id=${connectionToken}&access_token=${encodeURIComponent(token)}`);
    const c = new RawClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    if (handshake) {
      ws.send(`{"protocol":"json","version":1}${RS}`);
      await waitFor(() => c.records.length > 0, 5_000, 'handshake');
      expect(c.records.shift()).toBe('{}');
    }
    return c;
  }
  send(text: string) {
    this.ws.send(text);
  }
  messages(): { type: number; [k: string]: unknown }[] {
    return this.records.map((r) => JSON.parse(r) as { type: number });
  }
}

describe.each(DIALECTS)('dashboard hub on %s', (dialect) => {
  let t: TestApp;
  const clients: SignalRConnection[] = [];
  const raws: RawClient[] = [];
  const connect = async (getToken: () => string | Promise<string>) => {
    const c = officialClient(hubUrl(t.app), getToken);
    clients.push(c);
    await c.start();
    return c;
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.stop()));
    for (const r of raws.splice(0)) r.ws.terminate();
    t.ctx.realtime.configure({ keepAliveMs: 10_000, clientTimeoutMs: 30_000, maxBufferedBytes: 256 * 1024, tickMs: 1_000 });
  });
  afterAll(async () => t?.close());

  it('answers 401 on negotiate without a valid token, and start() rejects', async () => {
    const none = await fetch(`${hubUrl(t.app)}/negotiate?negotiateVersion=1`, { method: 'POST' });
    expect(none.status).toBe(401);
    const forged = await fetch(`${hubUrl(t.app)}/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer not.a.jwt' },
    });
    expect(forged.status).toBe(401);
    const c = officialClient(hubUrl(t.app), () => 'not.a.jwt');
    await expect(c.start()).rejects.toThrow(/401|Unauthorized/);
    expect(c.state).toBe(HubConnectionState.Disconnected);
  });

  it('negotiates version 1, WebSockets only, with a URL-safe token (base64url and dots: it is signed, hub-token.test.ts)', async () => {
    const u = await signUp(t.app);
    const res = await fetch(`${hubUrl(t.app)}/negotiate?negotiateVersion=1`, { method: 'POST', headers: u.auth });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      connectionId: expect.any(String),
      connectionToken: expect.stringMatching(/^[A-Za-z0-9_.-]+$/),
      negotiateVersion: 1,
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }],
    });
  });

  it('answers invocations with a result or an error Completion', async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    const own = await addDevice(t.app, a);
    const foreign = await addDevice(t.app, b);
    const c = await connect(() => a.token);
    expect(c.state).toBe(HubConnectionState.Connected);
    await expect(c.invoke(HUB_METHODS.subscribeDevice, own)).resolves.toBe(true);
    await expect(c.invoke(HUB_METHODS.subscribeDevice, foreign)).rejects.toThrow(`Device ${foreign} not found.`);
    await expect(c.invoke(HUB_METHODS.subscribeDevice, 'x')).rejects.toThrow(/positive integer/);
    await expect(c.invoke('NoSuchMethod')).rejects.toThrow(/Unknown hub method/);
    await expect(c.invoke(HUB_METHODS.unsubscribeDevice, own)).resolves.toBe(true);
    await expect(c.invoke(HUB_METHODS.unsubscribeDevice, own)).resolves.toBe(false);
    // The connection survives errors.
    expect(c.state).toBe(HubConnectionState.Connected);
  });

  it("delivers a committed reading to the owner's subscribed connection only", async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    const devA = await addDevice(t.app, a);
    const devB = await addDevice(t.app, b);
    const subscribed = await connect(() => a.token);
    const notSubscribed = await connect(() => a.token);
    const other = await connect(() => b.token);
    const got: Record<string, LiveMeasurement[]> = { subscribed: [], notSubscribed: [], other: [] };
    subscribed.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => got.subscribed?.push(m));
    notSubscribed.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => got.notSubscribed?.push(m));
    other.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => got.other?.push(m));
    await subscribed.invoke(HUB_METHODS.subscribeDevice, devA);
    await other.invoke(HUB_METHODS.subscribeDevice, devB);

    t.ctx.events.emit('readingCommitted', { deviceId: devA, userId: a.userId, ts: 1_700_000_000_000, values: { P: 1.5, U1: 231 } });
    await waitFor(() => got.subscribed?.length === 1, 5_000, 'reading');
    expect(got.subscribed).toEqual([{ deviceId: devA, ts: 1_700_000_000_000, values: { P: 1.5, U1: 231 } }]);
    // A reading of B's device goes to B; nothing of A's reaches B.
    t.ctx.events.emit('readingCommitted', { deviceId: devB, userId: b.userId, ts: 1_700_000_001_000, values: { P: 2 } });
    await waitFor(() => got.other?.length === 1, 5_000, 'reading of B');
    await sleep(100);
    expect(got.other?.map((m) => m.deviceId)).toEqual([devB]);
    expect(got.notSubscribed).toEqual([]);
    expect(got.subscribed?.map((m) => m.deviceId)).toEqual([devA]);
  });

  it("pushes device status to all the owner's connections, and notifications via sendToUser", async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    const dev = await addDevice(t.app, a);
    const c1 = await connect(() => a.token);
    const c2 = await connect(() => a.token);
    const cb = await connect(() => b.token);
    const statuses: unknown[] = [];
    const notes: unknown[] = [];
    for (const c of [c1, c2, cb]) {
      c.on(HUB_EVENTS.deviceStatus, (s) => statuses.push(s));
      c.on(HUB_EVENTS.notification, (n) => notes.push(n));
    }
    t.ctx.events.emit('deviceStatusChanged', { deviceId: dev, userId: a.userId, status: 'offline', weakSignal: true });
    t.ctx.realtime.sendToUser(a.userId, 'notification', { id: 7, deviceId: dev, level: 'warning', message: 'm', ts: 1 });
    // The notification rules also raise an offline alarm on the status change: only the event sent here is counted.
    const sent = () => notes.filter((n) => (n as { message: string }).message === 'm');
    await waitFor(() => statuses.length === 2 && sent().length === 2, 5_000, 'status and notification');
    await sleep(100);
    expect(statuses).toEqual([
      { deviceId: dev, status: 'offline', weakSignal: true },
      { deviceId: dev, status: 'offline', weakSignal: true },
    ]);
    expect(sent()).toHaveLength(2);
  });

  it('sends the events of one turn as one WebSocket message, in order, and the official client reads each', async () => {
    const a = await signUp(t.app);
    const dev = await addDevice(t.app, a);
    const official = await connect(() => a.token);
    const seen: number[] = [];
    official.on(HUB_EVENTS.deviceStatus, (s: { deviceId: number }) => seen.push(s.deviceId));
    const raw = await RawClient.open(t.app, a.token);
    raws.push(raw);
    let wsMessages = 0;
    raw.ws.on('message', () => wsMessages++);
    // 300 devices of one user change status at once (a site coming back after an outage).
    for (let i = 0; i < 300; i++) {
      t.ctx.events.emit('deviceStatusChanged', { deviceId: dev + i, userId: a.userId, status: 'online', weakSignal: false });
    }
    await waitFor(() => seen.length === 300 && raw.records.length === 300, 5_000, 'all statuses');
    expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => dev + i));
    expect(raw.messages().map((m) => (m.arguments as { deviceId: number }[])[0]?.deviceId)).toEqual(seen);
    // ~60 bytes each: 18 KB in all, written as one or two messages (a message is cut at 16 KB), not 300.
    expect(wsMessages).toBeLessThanOrEqual(3);
  });
  it('closes the connections of a session ended by logout, without reconnecting', async () => {
    const a = await signUp(t.app);
    const c = await connect(() => a.token);
    let closedWith: Error | undefined;
    const closed = new Promise<void>((resolve) =>
      c.onclose((err) => {
        closedWith = err;
        resolve();
      }),
    );
    let reconnecting = false;
    c.onreconnecting(() => {
      reconnecting = true;
    });
    const res = await t.app.inject({ method: 'GET', url: '/api/account/logout', headers: a.auth });
    expect(res.statusCode).toBe(200);
    await closed;
    expect(reconnecting).toBe(false);
    expect(String(closedWith)).toMatch(/Session has ended/);
    expect(c.state).toBe(HubConnectionState.Disconnected);
    // And the revoked token cannot connect again.
    await expect(connect(() => a.token)).rejects.toThrow(/401|Unauthorized/);
  });

  it('reconnects after a dropped socket and the client resubscribes', async () => {
    const a = await signUp(t.app);
    const dev = await addDevice(t.app, a);
    const c = await connect(() => a.token);
    const got: LiveMeasurement[] = [];
    c.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => got.push(m));
    await c.invoke(HUB_METHODS.subscribeDevice, dev);
    const firstId = c.connectionId;
    const reconnected = new Promise<void>((resolve) =>
      c.onreconnected(async () => {
        // Subscriptions live on the server connection, which is new: rebuild them.
        await c.invoke(HUB_METHODS.subscribeDevice, dev);
        resolve();
      }),
    );
    expect(t.ctx.realtime.dropConnections(a.userId)).toBe(1);
    await reconnected;
    expect(c.state).toBe(HubConnectionState.Connected);
    expect(c.connectionId).not.toBe(firstId);
    t.ctx.events.emit('readingCommitted', { deviceId: dev, userId: a.userId, ts: 5, values: { P: 3 } });
    await waitFor(() => got.length === 1, 5_000, 'reading after reconnect');
    expect(got[0]?.values).toEqual({ P: 3 });
  });

  it('pings after silence and drops a client that stays silent', async () => {
    const a = await signUp(t.app);
    t.ctx.realtime.configure({ keepAliveMs: 200, clientTimeoutMs: 1_500, tickMs: 50 });
    const r = await RawClient.open(t.app, a.token);
    raws.push(r);
    await waitFor(() => r.messages().some((m) => m.type === 6), 3_000, 'a ping');
    expect(r.closed).toBe(false);
    await waitFor(() => r.closed, 5_000, 'the silent client to be dropped');
    expect(r.messages().at(-1)).toMatchObject({ type: 7, allowReconnect: true });
  });

  it('keeps a client that talks, using the access_token query path of browsers', async () => {
    const a = await signUp(t.app);
    const dev = await addDevice(t.app, a);
    t.ctx.realtime.configure({ keepAliveMs: 200, clientTimeoutMs: 600, tickMs: 50 });
    const r = await RawClient.open(t.app, a.token);
    raws.push(r);
    // Two records in one frame, as the client may batch them.
    r.send(`{"type":6}${RS}{"type":1,"invocationId":"0","target":"subscribedevice","arguments":[${dev}]}${RS}`);
    for (let i = 0; i < 10; i++) {
      await sleep(150);
      r.send(`{"type":6}${RS}`);
    }
    expect(r.closed).toBe(false);
    expect(r.messages()).toContainEqual({ type: 3, invocationId: '0', result: true });
    t.ctx.events.emit('readingCommitted', { deviceId: dev, userId: a.userId, ts: 9, values: { P: 1 } });
    await waitFor(() => r.messages().some((m) => m.type === 1), 3_000, 'push');
    expect(r.messages().find((m) => m.type === 1)).toEqual({
      type: 1,
      target: 'liveMeasurement',
      arguments: [{ deviceId: dev, ts: 9, values: { P: 1 } }],
    });
  });

  it('closes the connections of sessions revoked elsewhere at its periodic check, and keeps the others', async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    const ra = await RawClient.open(t.app, a.token);
    const rb = await RawClient.open(t.app, b.token);
    raws.push(ra, rb);
    // Revoked in the database only (as another instance that missed nothing would see it), no event here.
    await t.ctx.storage.db.updateTable('refresh_tokens').set({ revoked_at: Date.now() }).where('user_id', '=', b.userId).execute();
    try {
      t.ctx.realtime.configure({ sessionCheckMs: 100, tickMs: 50 });
      await waitFor(() => rb.closed, 5_000, "B's connection to close");
      expect(rb.messages().at(-1)).toMatchObject({ type: 7 });
      await sleep(300);
      expect(ra.closed).toBe(false);
    } finally {
      t.ctx.realtime.configure({ sessionCheckMs: 60_000, tickMs: 1_000 });
    }
  });

  it('refuses an upgrade without a valid token (401) and with an unknown id (404)', async () => {
    const a = await signUp(t.app);
    const wsUrl = hubUrl(t.app).replace('http', 'ws');
    const status = (url: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(url, { headers });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => {
          ws.terminate();
          resolve(101);
        });
        ws.on('error', () => {});
      });
    expect(await status(`${wsUrl}?id=abc`)).toBe(401);
    expect(await status(`${wsUrl}?id=abc&access_token=forged`)).toBe(401);
    expect(await status(`${wsUrl}?id=abc&access_token=${encodeURIComponent(a.token)}`)).toBe(404);
    expect(await status(`${wsUrl}?id=abc`, { authorization: `Bearer ${a.token}` })).toBe(404);
  });

  it.each([
    ['bad JSON', `{"type":1,${RS}`],
    ['a missing separator', '{"type":6}'],
    ['an unknown type', `{"type":42}${RS}`],
    ['an invocation without arguments', `{"type":1,"target":"SubscribeDevice"}${RS}`],
  ])('closes the connection cleanly on %s', async (_name, frame) => {
    const a = await signUp(t.app);
    const r = await RawClient.open(t.app, a.token);
    raws.push(r);
    r.send(frame);
    await waitFor(() => r.closed, 3_000, 'close');
    expect(r.closeCode).toBe(1000);
    const close = r.messages().at(-1);
    expect(close).toMatchObject({ type: 7, error: expect.stringMatching(/error/) });
    expect(close?.allowReconnect).toBeUndefined();
    // The server is unharmed.
    const again = await connect(() => a.token);
    expect(again.state).toBe(HubConnectionState.Connected);
  });

  it('closes on an oversized frame and on a bad handshake', async () => {
    const a = await signUp(t.app);
    const big = await RawClient.open(t.app, a.token);
    raws.push(big);
    big.send(`{"type":6,"pad":"${'x'.repeat(40_000)}"}${RS}`);
    await waitFor(() => big.closed, 3_000, 'close on oversized');
    expect(big.closeCode).toBe(1009);
    const hs = await RawClient.open(t.app, a.token, false);
    raws.push(hs);
    hs.send(`{"protocol":"messagepack","version":1}${RS}`);
    await waitFor(() => hs.closed, 3_000, 'close on bad handshake');
    expect(hs.records[0]).toMatch(/"error":".*messagepack/);
    // A handshake that is not JSON (or not one) gets its error answer too, then a clean close.
    for (const bad of [`{"protocol":${RS}`, '{"protocol":"json","version":1}', `[1]${RS}`]) {
      const r = await RawClient.open(t.app, a.token, false);
      raws.push(r);
      r.send(bad);
      await waitFor(() => r.closed, 3_000, `close on ${bad}`);
      expect(r.closeCode, bad).toBe(1000);
      expect(r.messages(), bad).toEqual([{ error: expect.stringMatching(/^Handshake failed: /) }]);
    }
    const ok = await connect(() => a.token);
    expect(ok.state).toBe(HubConnectionState.Connected);
  });

  // 2,000 frames of 200 values (~8 MB) through the official client. They go out in bursts of 10 (~40 KB),
  // each once the fast client has read every frame before it: the fast client never has more unread than
  // one burst, below the 64 KB limit, however loaded the machine is (bursts of 100 with a 5-ms pause let a
  // client starved of CPU in a CI run fall 64 KB behind and be dropped too). The paused one falls behind
  // by all of it. The bounds are for a stall, not for speed.
  it('drops a client that does not read, without stalling the others', { timeout: 120_000 }, async () => {
    const a = await signUp(t.app);
    const dev = await addDevice(t.app, a);
    t.ctx.realtime.configure({ maxBufferedBytes: 64 * 1024 });
    const slow = await RawClient.open(t.app, a.token);
    raws.push(slow);
    slow.send(`{"type":1,"invocationId":"0","target":"SubscribeDevice","arguments":[${dev}]}${RS}`);
    await waitFor(() => slow.records.length > 0, 3_000, 'subscribe');
    const fast = await connect(() => a.token);
    let fastGot = 0;
    fast.on(HUB_EVENTS.liveMeasurement, () => {
      fastGot++;
    });
    await fast.invoke(HUB_METHODS.subscribeDevice, dev);
    // The slow client stops reading: its socket buffers fill up on both ends.
    const socket = (slow.ws as unknown as { _socket: { pause(): void } })._socket;
    socket.pause();
    const values: Record<string, number> = {};
    for (let i = 0; i < 200; i++) values[`p${i}`] = i + 0.123456;
    const before = t.ctx.realtime.stats().droppedSlow;
    const n = 2_000;
    for (let i = 0; i < n; i++) {
      t.ctx.events.emit('readingCommitted', { deviceId: dev, userId: a.userId, ts: i, values });
      if ((i + 1) % 10 === 0) await waitFor(() => fastGot === i + 1, 30_000, `reading ${i + 1} at the fast client`);
    }
    expect(fastGot).toBe(n);
    expect(t.ctx.realtime.stats().droppedSlow).toBe(before + 1);
    expect(t.ctx.realtime.stats().connections).toBe(1);
  });
});

describe('access token expiry during a connection', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite', { accessTokenTtlSeconds: 3 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  it('withholds delivery once the token has expired and resumes after renegotiating with a fresh token', async () => {
    const a = await signUp(t.app);
    const dev = await addDevice(t.app, a);
    // Only the check before sending may notice the expiry here, not the periodic sweep.
    t.ctx.realtime.configure({ tickMs: 60_000 });
    let token = a.token;
    let cookie = a.refreshCookie;
    let refreshes = 0;
    const expiresAt = (jwt: string) =>
      (JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as { exp: number }).exp * 1000;
    // As the web app does: a fresh token from the refresh endpoint when the stored one has expired.
    const factory = async () => {
      if (expiresAt(token) > Date.now()) return token;
      const res = await t.app.inject({ method: 'POST', url: '/api/account/refreshtoken', cookies: { pw_refresh: cookie } });
      expect(res.statusCode).toBe(200);
      token = (res.json() as { token: string }).token;
      cookie = res.cookies.find((c) => c.name === 'pw_refresh')?.value ?? '';
      refreshes++;
      return token;
    };
    const c = officialClient(hubUrl(t.app), factory);
    const got: LiveMeasurement[] = [];
    c.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => got.push(m));
    let resubscribed = 0;
    c.onreconnected(async () => {
      await c.invoke(HUB_METHODS.subscribeDevice, dev);
      resubscribed++;
    });
    try {
      await c.start();
      await c.invoke(HUB_METHODS.subscribeDevice, dev);
      await sleep(expiresAt(token) - Date.now() + 100);
      t.ctx.events.emit('readingCommitted', { deviceId: dev, userId: a.userId, ts: 1, values: { P: 1 } });
      await waitFor(() => resubscribed === 1, 10_000, 'reconnect and resubscribe');
      expect(refreshes).toBe(1);
      t.ctx.events.emit('readingCommitted', { deviceId: dev, userId: a.userId, ts: 2, values: { P: 2 } });
      await waitFor(() => got.length > 0, 5_000, 'reading after reconnect');
      await sleep(100);
      expect(got.map((m) => m.ts)).toEqual([2]);
    } finally {
      await c.stop();
    }
  });
});

/** The config of an app instance on a shared test database (each instance opens its own storage on it). */
function instanceConfig(ts: { dataDir: string; databaseUrl: string }): AppConfig {
  return {
    ...loadConfig({
      DATA_DIR: ts.dataDir,
      JWT_SECRET: 'test-secret-for-signing-tokens-0123456789',
      DATABASE_URL: ts.databaseUrl,
      RCE_IMPORT: 'off',
    }),
    demo: null,
    simulate: false,
    webDistDir: '/nonexistent',
    logLevel: 'silent',
  };
}

describe('several instances on one PostgreSQL', () => {
  const instances: { app: FastifyInstance; ctx: AppContext }[] = [];
  let dispose: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const ts = await createTestStorage('postgres');
    dispose = ts.dispose;
    const config = instanceConfig(ts);
    for (let i = 0; i < 2; i++) {
      // Each instance has its own pool and LISTEN client, as separate processes would.
      const built = await buildApp(config, { storage: openStorage({ databaseUrl: ts.databaseUrl, dataDir: ts.dataDir }), logger: false });
      await built.app.listen({ port: 0, host: '127.0.0.1' });
      instances.push(built);
    }
  });
  afterAll(async () => {
    for (const { app } of instances) await app.close();
    await dispose();
  });

  it('delivers events committed on instance A to clients of instance B, once, and only to the owner', async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const u = await signUp(a.app);
    const other = await signUp(a.app);
    const dev = await addDevice(a.app, u);
    const onA = officialClient(hubUrl(a.app), () => u.token);
    const onB = officialClient(hubUrl(b.app), () => u.token);
    const otherOnB = officialClient(hubUrl(b.app), () => other.token);
    const got: Record<'a' | 'b' | 'other', LiveMeasurement[]> = { a: [], b: [], other: [] };
    const notes: unknown[] = [];
    onA.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => got.a.push(m));
    onB.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => got.b.push(m));
    onB.on(HUB_EVENTS.exportReady, (n) => notes.push(n));
    otherOnB.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => got.other.push(m));
    try {
      await Promise.all([onA.start(), onB.start(), otherOnB.start()]);
      await onA.invoke(HUB_METHODS.subscribeDevice, dev);
      await onB.invoke(HUB_METHODS.subscribeDevice, dev);
      // Bigger than one NOTIFY payload (8,000 bytes): it travels in parts.
      const big: Record<string, number> = {};
      for (let i = 0; i < 600; i++) big[`param_${i}`] = i + 0.5;
      for (let i = 0; i < 50; i++) a.ctx.events.emit('readingCommitted', { deviceId: dev, userId: u.userId, ts: i, values: { P: i } });
      a.ctx.events.emit('readingCommitted', { deviceId: dev, userId: u.userId, ts: 50, values: big });
      a.ctx.realtime.sendToUser(u.userId, 'exportReady', { exportId: 'e1', fileName: 'x.csv', downloadUrl: '/api/exports/e1' });
      await waitFor(() => got.b.length === 51 && notes.length === 1, 10_000, 'readings on B');
      await sleep(300);
      expect(got.b.map((m) => m.ts)).toEqual([...Array(51).keys()]);
      expect(got.b[50]?.values).toEqual(big);
      expect(got.a.map((m) => m.ts)).toEqual([...Array(51).keys()]);
      expect(got.other).toEqual([]);
      expect(notes).toEqual([{ exportId: 'e1', fileName: 'x.csv', downloadUrl: '/api/exports/e1' }]);

      // Logout on B closes the session's connection on A too.
      const closed = new Promise<Error | undefined>((resolve) => onA.onclose(resolve));
      const res = await b.app.inject({ method: 'GET', url: '/api/account/logout', headers: u.auth });
      expect(res.statusCode).toBe(200);
      expect(String(await closed)).toMatch(/Session has ended/);
    } finally {
      await Promise.all([onA.stop(), onB.stop(), otherOnB.stop()]);
    }
  });
});

describe('every revocation closes hub connections at once, on every instance', () => {
  const instances: { app: FastifyInstance; ctx: AppContext }[] = [];
  let storage: Awaited<ReturnType<typeof createTestStorage>>;

  beforeAll(async () => {
    storage = await createTestStorage('postgres');
    const config = instanceConfig(storage);
    for (let i = 0; i < 2; i++) {
      const built = await buildApp(config, {
        storage: openStorage({ databaseUrl: storage.databaseUrl, dataDir: storage.dataDir }),
        logger: false,
      });
      await built.app.listen({ port: 0, host: '127.0.0.1' });
      // The periodic check must not be what closes them here.
      built.ctx.realtime.configure({ sessionCheckMs: 3_600_000 });
      instances.push(built);
    }
  });
  afterAll(async () => {
    for (const { app } of instances) await app.close();
    await storage.dispose();
  });

  it('logout, a reused refresh token and a password reset end the sessions they name on both instances; other sessions stay', async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const u = await signUp(a.app);
    const other = await signUp(a.app);
    const login = async () => {
      const res = await b.app.inject({ method: 'POST', url: '/api/account/login', payload: { email: u.email, password: u.password } });
      expect(res.statusCode).toBe(200);
      return {
        token: (res.json() as { token: string }).token,
        cookie: res.cookies.find((c) => c.name === 'pw_refresh')?.value ?? '',
      };
    };
    const s2 = await login();
    const s3 = await login();
    const all: SignalRConnection[] = [];
    /** A session's connection on each instance, with the moment each closed and why. */
    const both = async (token: string) => {
      const conns = [officialClient(hubUrl(a.app), () => token), officialClient(hubUrl(b.app), () => token)];
      all.push(...conns);
      const closed = conns.map(
        (c) => new Promise<{ at: number; error: string }>((r) => c.onclose((e) => r({ at: Date.now(), error: String(e) }))),
      );
      await Promise.all(conns.map((c) => c.start()));
      return { conns, closed };
    };
    try {
      const first = await both(u.token);
      const second = await both(s2.token);
      const third = await both(s3.token);
      const bystander = await both(other.token);
      const expectClosed = async (session: Awaited<ReturnType<typeof both>>, since: number) => {
        for (const c of await Promise.all(session.closed)) {
          expect(c.error).toMatch(/Session has ended/);
          // Within a second of the call that ended the session (the periodic check is an hour away here).
          expect(c.at - since).toBeLessThan(10_000);
        }
        for (const c of session.conns) expect(c.state).toBe(HubConnectionState.Disconnected);
      };
      const stillOpen = (...sessions: Awaited<ReturnType<typeof both>>[]) => {
        for (const s of sessions) for (const c of s.conns) expect(c.state).toBe(HubConnectionState.Connected);
      };

      // Logout on B ends the first session.
      let since = Date.now();
      expect((await b.app.inject({ method: 'GET', url: '/api/account/logout', headers: u.auth })).statusCode).toBe(200);
      await expectClosed(first, since);
      stillOpen(second, third, bystander);

      // The second session's refresh token rotated on A, and the old one presented again on B after the
      // grace period for tabs (moved into the past here rather than waited for): that session ends.
      const rotated = await a.app.inject({ method: 'POST', url: '/api/account/refreshtoken', cookies: { pw_refresh: s2.cookie } });
      expect(rotated.statusCode).toBe(200);
      await storage.storage.db
        .updateTable('refresh_tokens')
        .set({ used_at: Date.now() - 3_600_000 })
        .where('used_at', 'is not', null)
        .execute();
      since = Date.now();
      const reused = await b.app.inject({ method: 'POST', url: '/api/account/refreshtoken', cookies: { pw_refresh: s2.cookie } });
      expect(reused.statusCode).toBe(401);
      await expectClosed(second, since);
      stillOpen(third, bystander);

      // A password reset on A ends every session of the user, the third one (and a new one) included.
      const fourth = await both((await login()).token);
      const resetToken = 'reset-token-of-the-revocation-test';
      await storage.storage.db
        .insertInto('password_resets')
        .values({ token_hash: sha256(resetToken), user_id: u.userId, expires_at: Date.now() + 600_000, created_at: Date.now() })
        .execute();
      since = Date.now();
      const reset = await a.app.inject({
        method: 'POST',
        url: '/api/reset_password',
        payload: { token: resetToken, password: 'newsecret1' },
      });
      expect(reset.statusCode).toBe(200);
      await expectClosed(third, since);
      await expectClosed(fourth, since);
      stillOpen(bystander);
      // None of them connects again with its old token.
      await expect(officialClient(hubUrl(b.app), () => s3.token).start()).rejects.toThrow(/401|Unauthorized/);
    } finally {
      await Promise.all(all.map((c) => c.stop()));
    }
  });
});

describe('readings between instances only while another instance is there', () => {
  it('a lone instance sends its readings to nobody; a second one gets them once it says hello, and no more after it stops', async () => {
    const ts = await createTestStorage('postgres');
    const config = instanceConfig(ts);
    const open = () => buildApp(config, { storage: openStorage({ databaseUrl: ts.databaseUrl, dataDir: ts.dataDir }), logger: false });
    // A plain LISTEN client (not an instance: it never says hello) hears every notification.
    const listener = new pg.Client({ connectionString: ts.databaseUrl });
    const heard: { readings: number[]; presence: string[]; statuses: number } = { readings: [], presence: [], statuses: 0 };
    listener.on('notification', (n) => {
      const env = JSON.parse(n.payload ?? '{}');
      if (env.h) heard.presence.push(env.h);
      for (const e of env.b ?? []) {
        if (e.k === 'reading') heard.readings.push(e.e.ts);
        if (e.k === 'status') heard.statuses++;
      }
    });
    await listener.connect();
    await listener.query(`LISTEN ${FANOUT_CHANNEL}`);
    const a = await open();
    let b: Awaited<ReturnType<typeof open>> | null = null;
    try {
      const emit = (tsOf: number) => a.ctx.events.emit('readingCommitted', { deviceId: 1, userId: 1, ts: tsOf, values: { P: 1 } });
      await waitFor(() => heard.presence.includes('hello'), 5_000, "A's hello");
      emit(1);
      emit(2);
      // A status change still goes out alone (and shows that notifications arrive at all).
      a.ctx.events.emit('deviceStatusChanged', { deviceId: 1, userId: 1, status: 'online', weakSignal: false });
      await waitFor(() => heard.statuses === 1, 5_000, 'status published');
      await sleep(200);
      expect(heard.readings).toEqual([]);

      b = await open();
      // A hears B's hello (and answers it) before B serves anyone.
      await waitFor(() => heard.presence.filter((h) => h === 'beat').length >= 1, 5_000, "A's answer to B's hello");
      emit(3);
      await waitFor(() => heard.readings.includes(3), 5_000, 'reading 3 published');

      await b.app.close();
      b = null;
      await waitFor(() => heard.presence.includes('bye'), 5_000, "B's bye");
      await sleep(100);
      emit(4);
      await sleep(300);
      expect(heard.readings).toEqual([3]);
    } finally {
      await b?.app.close();
      await a.app.close();
      await listener.end();
      await ts.dispose();
    }
  });
});

describe.each(DIALECTS)('one user flooding the hub on %s', (dialect) => {
  let t: TestApp;
  const raws: RawClient[] = [];
  const clients: SignalRConnection[] = [];
  beforeAll(async () => {
    // No rate limit here: every flooding call runs, so the bounds on what runs at once are what is tested.
    t = await buildTestApp(dialect, { hubRateLimit: { max: 0, windowMs: 60_000 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.stop()));
    for (const r of raws.splice(0)) r.ws.terminate();
    t.ctx.realtime.configure({ maxQueuedInvocations: 1024, invocationWindow: 4, userInvocations: 4 });
  });
  afterAll(async () => t?.close());

  /** Frames of `perFrame` SubscribeDevice calls each (ids counting from `first`), as the probe sent them. */
  const floodFrames = (frames: number, perFrame: number, deviceId: number, first = 0) =>
    Array.from({ length: frames }, (_, f) =>
      Array.from(
        { length: perFrame },
        (_, i) => `{"type":1,"invocationId":"${first + f * perFrame + i}","target":"SubscribeDevice","arguments":[${deviceId}]}${RS}`,
      ).join(''),
    );

  it("answers a flooding connection's calls in order, a few at a time, while another user's calls and requests go on", async () => {
    const flooder = await signUp(t.app);
    const other = await signUp(t.app);
    const own = await addDevice(t.app, flooder);
    const otherDevice = await addDevice(t.app, other);
    t.ctx.realtime.configure({ maxQueuedInvocations: 100_000 });
    const raw = await RawClient.open(t.app, flooder.token);
    raws.push(raw);
    const frames = floodFrames(20, 350, own);
    const total = 20 * 350;
    {
      for (const f of frames) raw.send(f);
      await waitFor(() => t.ctx.realtime.stats().invocations.waiting > 0, 5_000, 'the flood queued');

      // Another user, meanwhile: connects, subscribes and is answered, and the API answers, while most of
      // the flood still waits (its calls do not run ahead of theirs).
      const c = officialClient(hubUrl(t.app), () => other.token);
      clients.push(c);
      await c.start();
      await expect(c.invoke(HUB_METHODS.subscribeDevice, otherDevice)).resolves.toBe(true);
      const health = await fetch(`${hubUrl(t.app).replace(HUB_PATH, '')}/api/health`);
      expect(health.status).toBe(200);
      const answeredMeanwhile = raw.records.length;
      expect(answeredMeanwhile).toBeLessThan(total);

      await waitFor(() => raw.records.length === total, 120_000, 'every flooding call answered');
      expect(raw.closed).toBe(false);
      const ids = raw.messages().map((m) => Number(m.invocationId));
      expect(ids).toEqual([...Array(total).keys()]);
      expect(raw.messages().every((m) => m.type === 3 && m.result === true)).toBe(true);
      const { peakPerConnection, peakPerUser } = t.ctx.realtime.stats().invocations;
      expect(peakPerConnection).toBe(4);
      expect(peakPerUser).toBe(4);
    }
  });

  it("shares the user's window between the user's connections", async () => {
    const flooder = await signUp(t.app);
    const own = await addDevice(t.app, flooder);
    t.ctx.realtime.configure({ maxQueuedInvocations: 100_000, invocationWindow: 3, userInvocations: 5 });
    const conns = await Promise.all([1, 2, 3].map(() => RawClient.open(t.app, flooder.token)));
    raws.push(...conns);
    for (const conn of conns) for (const f of floodFrames(4, 300, own)) conn.send(f);
    await waitFor(() => conns.every((c) => c.records.length === 1200), 120_000, 'every call answered');
    for (const conn of conns) expect(conn.messages().map((m) => Number(m.invocationId))).toEqual([...Array(1200).keys()]);
    const { peakPerConnection, peakPerUser } = t.ctx.realtime.stats().invocations;
    expect(peakPerConnection).toBe(3);
    expect(peakPerUser).toBe(5);
  });

  it('closes a connection with more unanswered calls than allowed, with an error, and keeps the others', async () => {
    const flooder = await signUp(t.app);
    const own = await addDevice(t.app, flooder);
    const calm = await RawClient.open(t.app, flooder.token);
    raws.push(calm);
    const raw = await RawClient.open(t.app, flooder.token);
    raws.push(raw);
    const before = t.ctx.realtime.stats().invocations.floodClosed;
    // 4 × 350 = 1,400 calls at once: past the 1,024 a connection may have unanswered.
    for (const f of floodFrames(4, 350, own)) raw.send(f);
    await waitFor(() => raw.closed, 10_000, 'the flooding connection closed');
    const close = raw.messages().at(-1);
    expect(close).toMatchObject({ type: 7, error: expect.stringMatching(/Too many invocations waiting/) });
    expect(close?.allowReconnect).toBeUndefined();
    expect(t.ctx.realtime.stats().invocations.floodClosed).toBe(before + 1);
    // Nothing of it keeps running, and the user's other connection is served as before.
    await waitFor(() => t.ctx.realtime.stats().invocations.running === 0, 10_000, 'the flood gone');
    calm.send(`{"type":1,"invocationId":"c1","target":"SubscribeDevice","arguments":[${own}]}${RS}`);
    await waitFor(() => calm.records.length === 1, 5_000, 'the calm connection answered');
    expect(calm.messages()[0]).toMatchObject({ type: 3, invocationId: 'c1', result: true });
  });

  it('refuses a user past the connections one user may have', async () => {
    const u = await signUp(t.app);
    t.ctx.realtime.configure({ maxConnectionsPerUser: 2 });
    try {
      raws.push(await RawClient.open(t.app, u.token), await RawClient.open(t.app, u.token));
      const res = await fetch(`${hubUrl(t.app)}/negotiate?negotiateVersion=1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.token}` },
      });
      expect(res.status).toBe(429);
      expect(await res.json()).toMatchObject({ statusCode: 429, errors: [{ key: 'errors.tooManyRequests' }] });
      // Another user is not counted against them.
      const other = await signUp(t.app);
      const c = officialClient(hubUrl(t.app), () => other.token);
      clients.push(c);
      await c.start();
      expect(c.state).toBe(HubConnectionState.Connected);
    } finally {
      t.ctx.realtime.configure({ maxConnectionsPerUser: 256 });
    }
  });
});

describe('hub calls past the per-user rate limit', () => {
  it('are answered with an error in their turn, without running; another user keeps calling', async () => {
    const t = await buildTestApp('sqlite', { hubRateLimit: { max: 5, windowMs: 60_000 }, metricsToken: 'metrics-token-0123456789' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const clients: SignalRConnection[] = [];
    try {
      const u = await signUp(t.app);
      const other = await signUp(t.app);
      const dev = await addDevice(t.app, u);
      const otherDev = await addDevice(t.app, other);
      const c = officialClient(hubUrl(t.app), () => u.token);
      const o = officialClient(hubUrl(t.app), () => other.token);
      clients.push(c, o);
      await Promise.all([c.start(), o.start()]);
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, () =>
          c.invoke(HUB_METHODS.subscribeDevice, dev).then(
            (r: unknown) => String(r),
            (e: unknown) => String(e),
          ),
        ),
      );
      expect(outcomes.slice(0, 5)).toEqual(Array(5).fill('true'));
      for (const refused of outcomes.slice(5)) expect(refused).toMatch(/Too many hub calls, try again in \d+ s\./);
      expect(c.state).toBe(HubConnectionState.Connected);
      await expect(o.invoke(HUB_METHODS.subscribeDevice, otherDev)).resolves.toBe(true);
      expect(t.ctx.realtime.stats().invocations.refused).toBe(3);
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics-token-0123456789' } });
      expect(metrics.body).toMatch(/phasewatch_rate_limited_total\{limit="hub"\} 3/);

      // A connection that goes on calling after a queue's worth of refusals is closed as flooding.
      t.ctx.realtime.configure({ maxQueuedInvocations: 10 });
      const flooder = await signUp(t.app);
      const own = await addDevice(t.app, flooder);
      const raw = await RawClient.open(t.app, flooder.token);
      // One call at a time (never more than one unanswered), until the connection is closed.
      for (let i = 0; i < 30 && !raw.closed; i++) {
        raw.send(`{"type":1,"invocationId":"${i}","target":"SubscribeDevice","arguments":[${own}]}${RS}`);
        await waitFor(() => raw.records.length > i || raw.closed, 5_000, `answer ${i}`);
      }
      await waitFor(() => raw.closed, 5_000, 'the flooder closed');
      const messages = raw.messages();
      expect(messages.at(-1)).toMatchObject({ type: 7, error: 'Connection closed with an error. Too many hub calls.' });
      // Answered in order up to the close: 5 run, then 10 refusals; the 11th closed it.
      const completions = messages.filter((m) => m.type === 3);
      expect(completions).toHaveLength(15);
      expect(completions.map((m) => m.invocationId)).toEqual(completions.map((_, i) => String(i)));
      expect(completions.slice(0, 5).every((m) => m.result === true)).toBe(true);
      expect(completions.slice(5).every((m) => /Too many hub calls/.test(String(m.error)))).toBe(true);
      raw.ws.terminate();
    } finally {
      await Promise.all(clients.map((c) => c.stop()));
      await t.close();
    }
  });
});
