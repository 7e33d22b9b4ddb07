import {
  DefaultHttpClient,
  HttpClient,
  type HttpRequest,
  type HttpResponse,
  HubConnectionBuilder,
  HubConnectionState,
  NullLogger,
  type HubConnection as SignalRConnection,
} from '@microsoft/signalr';
import { HUB_EVENTS, HUB_METHODS, HUB_PATH, type LiveMeasurement } from '@phasewatch/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { signUp } from '../test/app.js';
import { buildTestDeployment, type TestDeployment } from '../test/instances.js';
import { signConnectionToken, verifyConnectionToken } from './dashboard-hub.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function base(app: FastifyInstance): string {
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('not listening');
  return `http://127.0.0.1:${addr.port}`;
}

/** Sends negotiate to another instance than the one the client was built for: a round-robin proxy's worst case. */
class NegotiateElsewhere extends HttpClient {
  readonly inner = new DefaultHttpClient(NullLogger.instance);
  negotiatedAt: string[] = [];
  constructor(
    private readonly from: string,
    private readonly to: string,
  ) {
    super();
  }
  send(request: HttpRequest): Promise<HttpResponse> {
    if (request.url?.includes('/negotiate')) {
      request.url = request.url.replace(this.from, this.to);
      this.negotiatedAt.push(request.url);
    }
    return this.inner.send(request);
  }
}

/** The status of a raw upgrade (101 when it opened). */
function upgradeStatus(url: string): Promise<number> {
  return new Promise<number>((resolve) => {
    const ws = new WebSocket(url);
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.terminate();
      resolve(101);
    });
    ws.on('error', () => {});
  });
}

describe('hub connection tokens', () => {
  it('are signed: a changed character, another key or an expiry in the past is refused', () => {
    const key = Buffer.alloc(32, 7);
    const token = signConnectionToken(key, { userId: 42, expiresAt: Date.now() + 60_000, connectionId: 'A'.repeat(22) });
    expect(token).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(verifyConnectionToken(key, token)).toMatchObject({ userId: 42, connectionId: 'A'.repeat(22) });
    expect(verifyConnectionToken(Buffer.alloc(32, 8), token)).toBeNull();
    expect(verifyConnectionToken(key, token.replace(/^42\./, '43.'))).toBeNull();
    const last = token.at(-2) === 'A' ? 'B' : 'A';
    expect(verifyConnectionToken(key, `${token.slice(0, -2)}${last}${token.at(-1)}`)).toBeNull();
    expect(verifyConnectionToken(key, token, Date.now() + 61_000)).toBeNull();
    expect(verifyConnectionToken(key, 'abc')).toBeNull();
  });
});

describe('hub behind a round-robin proxy: negotiate on one instance, WebSocket on another', () => {
  let dep: TestDeployment;
  let a: FastifyInstance;
  let b: FastifyInstance;
  const clients: SignalRConnection[] = [];
  beforeAll(async () => {
    dep = await buildTestDeployment(2);
    a = (dep.instances[0] as { app: FastifyInstance }).app;
    b = (dep.instances[1] as { app: FastifyInstance }).app;
    await a.listen({ port: 0, host: '127.0.0.1' });
    await b.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await dep?.close();
  });

  it('the official client connects, subscribes and gets live values', async () => {
    const u = await signUp(a);
    const res = await a.inject({
      method: 'POST',
      url: '/api/devices',
      headers: u.auth,
      payload: { name: 'm', mac: '30:00:00:00:00:01', typeCode: 20 },
    });
    const dev = res.json() as { device: { id: number }; ingestKey: string };
    const http = new NegotiateElsewhere(base(b), base(a));
    const c = new HubConnectionBuilder()
      .withUrl(`${base(b)}${HUB_PATH}`, { accessTokenFactory: () => u.token, httpClient: http })
      .configureLogging(NullLogger.instance)
      .build();
    clients.push(c);
    const got: LiveMeasurement[] = [];
    c.on(HUB_EVENTS.liveMeasurement, (m: LiveMeasurement) => got.push(m));
    await c.start();
    expect(c.state).toBe(HubConnectionState.Connected);
    expect(http.negotiatedAt[0]).toContain(base(a));
    // The WebSocket is on B.
    expect(dep.instances.map((i) => i.ctx.realtime.stats().connections)).toEqual([0, 1]);
    await c.invoke(HUB_METHODS.subscribeDevice, dev.device.id);
    // A reading ingested on A reaches the client on B.
    const ingest = await a.inject({
      method: 'POST',
      url: '/api/ingest',
      headers: { 'x-device-key': dev.ingestKey },
      payload: { readings: [{ ts: new Date().toISOString(), values: { vave1: 231 } }] },
    });
    expect(ingest.statusCode).toBe(200);
    const deadline = Date.now() + 5_000;
    while (got.length === 0 && Date.now() < deadline) await sleep(20);
    expect(got.length).toBeGreaterThan(0);
  });

  it("refuses another user's token, a tampered one, an expired one and a second use on the same instance", async () => {
    const u = await signUp(a);
    const other = await signUp(a);
    const negotiate = async (app: FastifyInstance, token: string) => {
      const r = await fetch(`${base(app)}${HUB_PATH}/negotiate?negotiateVersion=1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await r.json()) as { connectionToken: string }).connectionToken;
    };
    const ws = (app: FastifyInstance, id: string, token: string) =>
      `${base(app).replace('http', 'ws')}${HUB_PATH}?id=${id}&access_token=${encodeURIComponent(token)}`;

    const id = await negotiate(a, u.token);
    expect(await upgradeStatus(ws(b, id, other.token))).toBe(404);
    const flipped = `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`;
    expect(await upgradeStatus(ws(b, flipped, u.token))).toBe(404);
    expect(await upgradeStatus(ws(b, id, u.token))).toBe(101);
    // Used once on B: refused there again.
    expect(await upgradeStatus(ws(b, id, u.token))).toBe(409);

    for (const i of dep.instances) i.ctx.realtime.configure({ negotiateTtlMs: 300 });
    try {
      const short = await negotiate(a, u.token);
      await sleep(400);
      expect(await upgradeStatus(ws(b, short, u.token))).toBe(404);
    } finally {
      for (const i of dep.instances) i.ctx.realtime.configure({ negotiateTtlMs: 60_000 });
    }
  });
});
