import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../test/app.js';
import { useOwnBroker } from '../test/broker.js';
import { RATE_LIMITED_ROUTES } from './rate-limits.js';

const broker = useOwnBroker();

describe('rate limits', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;
  const devices: { id: number; key: string }[] = [];

  beforeAll(async () => {
    t = await buildTestApp('sqlite', {
      metricsToken: 'metrics-token-0123456789',
      rateLimits: {
        ingest: { max: 5, windowMs: 60_000 },
        reads: { max: 4, windowMs: 60_000 },
        jobs: { max: 1, windowMs: 3_600_000 },
        discovery: { max: 2, windowMs: 60_000 },
      },
    });
    user = await signUp(t.app);
    other = await signUp(t.app);
    for (const mac of ['02:00:00:00:AA:01', '02:00:00:00:AA:02']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: user.auth,
        payload: { name: mac, mac, typeCode: 13 },
      });
      devices.push({ id: res.json().device.id, key: res.json().ingestKey });
    }
  });
  afterAll(async () => t?.close());

  const ingest = (key: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/ingest',
      headers: { 'x-device-key': key },
      payload: { readings: [{ ts: new Date(Date.now() - 60_000).toISOString(), values: { vave1: 230 } }] },
    });

  it('names only routes the app has', () => {
    const names = new Set(t.ctx.routes.map((r) => `${r.method} ${r.url}`));
    for (const route of Object.keys(RATE_LIMITED_ROUTES)) expect(names.has(route), route).toBe(true);
  });

  it('limits ingest per device key: 429 with Retry-After in the error shape; another device is unaffected', async () => {
    const [a, b] = devices as [{ id: number; key: string }, { id: number; key: string }];
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await ingest(a.key)).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = await ingest(a.key);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      errors: [{ message: 'Too many requests, try again later', key: 'errors.tooManyRequests' }],
    });
    expect((await ingest(b.key)).statusCode).toBe(200);
  });

  it('limits expensive reads per user; another user keeps reading', async () => {
    const [a] = devices as [{ id: number; key: string }];
    const url = `/api/devices/${a.id}/energy`;
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await t.app.inject({ method: 'GET', url, headers: user.auth })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
    // Same route, other user: their own budget (and 404, since the device is not theirs).
    expect((await t.app.inject({ method: 'GET', url, headers: other.auth })).statusCode).toBe(404);
    // Cheap calls are not limited.
    expect((await t.app.inject({ method: 'GET', url: `/api/devices/${a.id}`, headers: user.auth })).statusCode).toBe(200);
  });

  it('limits tariff statistics, the advisor and heatmaps per user as expensive reads', async () => {
    // Whatever the answer (a tariff that does not exist is a 404), each request counts against the user's budget.
    const tariffId = 999_999;
    const [a] = devices as [{ id: number; key: string }];
    for (const url of [
      `/api/tariffs/${tariffId}/stats?from=2026-01-01&to=2026-01-31`,
      '/api/tariffs/advisor?from=2026-01-01&to=2026-01-31',
      `/api/analytics/heatmap?deviceId=${a.id}&kind=daily&from=2026-01-01&to=2026-01-07`,
    ]) {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) codes.push((await t.app.inject({ method: 'GET', url, headers: user.auth })).statusCode);
      expect(codes.slice(4), url).toEqual([429]);
      expect(
        codes.slice(0, 4).every((c) => c !== 429 && c < 500),
        `${url}: ${codes}`,
      ).toBe(true);
    }
  });

  it('limits Fox discovery per user on its own, lower limit', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 3; i++)
      codes.push((await t.app.inject({ method: 'GET', url: '/api/collectors/discover', headers: other.auth })).statusCode);
    expect(codes).toEqual([200, 200, 429]);
  });

  it('counts refusals in the metrics', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics-token-0123456789' } });
    expect(res.body).toMatch(/phasewatch_rate_limited_total\{limit="ingest"\} [3-9]/);
    expect(res.body).toMatch(/phasewatch_rate_limited_total\{limit="reads"\} [2-9]/);
  });
});

describe('rate limits switched off', () => {
  it('lets every request through when the limit is 0', async () => {
    const t = await buildTestApp('sqlite', {
      rateLimits: { ingest: { max: 0, windowMs: 60_000 }, reads: { max: 0, windowMs: 60_000 }, jobs: { max: 0, windowMs: 60_000 } },
    });
    try {
      const u = await signUp(t.app);
      for (let i = 0; i < 20; i++)
        expect((await t.app.inject({ method: 'GET', url: '/api/devices', headers: u.auth })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('rate limits on MQTT ingest', () => {
  it('refuses a device past its ingest limit over MQTT too, and counts it', async () => {
    const t = await buildTestApp('sqlite', {
      mqttUrl: broker.url(),
      metricsToken: 'metrics-token-0123456789',
      rateLimits: { ingest: { max: 3, windowMs: 60_000 }, reads: { max: 0, windowMs: 60_000 }, jobs: { max: 0, windowMs: 60_000 } },
    });
    try {
      const u = await signUp(t.app);
      const mac = '02:00:00:00:AB:01';
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: u.auth,
        payload: { name: 'mqtt', mac, typeCode: 13 },
      });
      const key = created.json().ingestKey as string;
      const client = await mqtt.connectAsync(broker.url(), { protocolVersion: 5 });
      for (let i = 0; i < 5; i++) {
        const ts = new Date(Date.now() - (10 - i) * 60_000).toISOString();
        await client.publishAsync(
          `phasewatch/${mac.replaceAll(':', '')}/readings`,
          JSON.stringify({ key, readings: [{ ts, values: { vave1: 230 + i } }] }),
          {
            qos: 1,
          },
        );
      }
      await client.endAsync();
      const stats = t.ctx.telemetry.mqtt?.stats;
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && (stats?.accepted ?? 0) + (stats?.rejected ?? 0) < 5) await new Promise((r) => setTimeout(r, 50));
      expect(stats).toMatchObject({ received: 5, accepted: 3, rejected: 2 });
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics-token-0123456789' } });
      expect(metrics.body).toMatch(/phasewatch_rate_limited_total\{limit="ingest"\} 2/);
    } finally {
      await t.close();
    }
  });
});

describe('failed device keys per address', () => {
  it('refuses an address past its unknown keys with 429, without a lookup; its known devices and other addresses go on', async () => {
    const t = await buildTestApp('sqlite', { ingestKeyFailures: { max: 5, windowMs: 60_000 }, metricsToken: 'metrics-token-0123456789' });
    try {
      const u = await signUp(t.app);
      const keys: string[] = [];
      for (const mac of ['02:00:00:00:AC:01', '02:00:00:00:AC:02']) {
        const res = await t.app.inject({ method: 'POST', url: '/api/devices', headers: u.auth, payload: { name: mac, mac, typeCode: 13 } });
        keys.push(res.json().ingestKey as string);
      }
      const [known, unseen] = keys as [string, string];
      const ingest = (key: string, remoteAddress = '127.0.0.1') =>
        t.app.inject({
          method: 'POST',
          url: '/api/ingest',
          remoteAddress,
          headers: { 'x-device-key': key },
          payload: { readings: [{ ts: new Date(Date.now() - 60_000).toISOString(), values: { vave1: 230 } }] },
        });
      expect((await ingest(known)).statusCode).toBe(200);
      const lookups = vi.spyOn(t.ctx.telemetry.devices, 'byIngestKeys');
      const codes: number[] = [];
      for (let i = 0; i < 8; i++) codes.push((await ingest(`made-up-key-${i}`)).statusCode);
      expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      // Refused unread: only the five failures were looked up.
      expect(lookups).toHaveBeenCalledTimes(5);
      const refused = await ingest('made-up-key-9');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({ statusCode: 429, errors: [{ key: 'errors.tooManyRequests' }] });
      // A device of that address already known goes on; a key it has not used lately waits for the window.
      expect((await ingest(known)).statusCode).toBe(200);
      expect((await ingest(unseen)).statusCode).toBe(429);
      // Another address is not affected.
      expect((await ingest('made-up-key-x', '127.0.0.2')).statusCode).toBe(401);
      expect((await ingest(unseen, '127.0.0.2')).statusCode).toBe(200);
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics-token-0123456789' } });
      expect(metrics.body).toMatch(/phasewatch_rate_limited_total\{limit="ingestKeyFailures"\} 5/);
    } finally {
      await t.close();
    }
  });
});
