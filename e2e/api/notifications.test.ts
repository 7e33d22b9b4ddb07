import { type HubConnection, HubConnectionBuilder } from '@microsoft/signalr';
import { HUB_EVENTS, HUB_PATH, type NotificationEvent, type NotificationsResponse } from '@phasewatch/shared';
import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from '../../scripts/testing/smtp-sink.js';
import { browserKeys, startPushReceiver } from '../support/push-receiver.js';
import { createPgDatabase, type RunningServer, registerUser, startServer } from '../support/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const METRICS_TOKEN = 'e2e-metrics-token-notifications';

let push: Awaited<ReturnType<typeof startPushReceiver>>;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  push = await startPushReceiver();
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await push?.close();
  await smtp?.close();
});

/**
 * The whole way of an alarm through the built server (a child process, so NODE_EXTRA_CA_CERTS reaches
 * the process that makes the push request): a sag ingested over HTTP reaches its owner on the page (the
 * official SignalR client), as a Web Push request the test's HTTPS endpoint receives and decrypts, and as a
 * mail the test's SMTP server receives; when the voltage recovers the alarm ends with its duration.
 */
describe.each(['sqlite', 'postgres'] as const)('an alarm end to end on %s', (dialect) => {
  let server: RunningServer;
  let hub: HubConnection | null = null;

  beforeAll(async () => {
    server = await startServer({
      dialect,
      env: {
        SMTP_URL: smtp.url,
        PUSH_ALLOW_PRIVATE_ENDPOINTS: '1',
        NODE_EXTRA_CA_CERTS: push.caFile,
        PUBLIC_URL: 'https://phasewatch.example',
        METRICS_TOKEN,
      },
    });
  });
  afterAll(async () => {
    await hub?.stop();
    await server?.stop();
  });

  it('reaches the page, the browser and the mailbox once, and clears with its duration', async () => {
    const base = server.baseUrl;
    const email = `alarm-${dialect}@example.com`;
    const { token } = await registerUser(base, email);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const api = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    };
    const created = (await api('POST', '/api/devices', { name: 'Garage meter', mac: '02:E2:E0:00:00:01', typeCode: 13 })) as {
      device: { id: number; notifications: Record<string, unknown> };
      ingestKey: string;
    };
    const deviceId = created.device.id;
    await api('PUT', `/api/devices/${deviceId}/notifications`, {
      ...created.device.notifications,
      pushEnabled: true,
      emailEnabled: true,
      // The test runs at any hour; quiet hours are the rules' unit tests' business.
      disableAtNight: false,
    });

    // This "browser" subscribes twice: one endpoint works, the other's push service says it is gone.
    const browser = browserKeys();
    const { publicKey } = (await api('GET', '/api/push/vapid-public-key')) as { publicKey: string };
    await api('POST', '/api/push/subscriptions', {
      endpoint: `${push.origin}/ok/${dialect}`,
      keys: { p256dh: browser.p256dh, auth: browser.auth },
    });
    await api('POST', '/api/push/subscriptions', {
      endpoint: `${push.origin}/gone/${dialect}`,
      keys: { p256dh: browser.p256dh, auth: browser.auth },
    });

    hub = new HubConnectionBuilder()
      .withUrl(`${base}${HUB_PATH}`, { accessTokenFactory: () => token })
      .configureLogging({ log: () => {} })
      .build();
    const events: NotificationEvent[] = [];
    hub.on(HUB_EVENTS.notification, (e: NotificationEvent) => events.push(e));
    await hub.start();

    const ingest = async (ts: number, values: Record<string, number>) => {
      const res = await fetch(`${base}/api/ingest`, {
        method: 'POST',
        headers: { 'x-device-key': created.ingestKey, 'content-type': 'application/json' },
        body: JSON.stringify({ readings: [{ ts: new Date(ts).toISOString(), values }] }),
      });
      expect(res.status).toBe(200);
    };
    const mailsBefore = smtp.mails.length;
    const t0 = Date.now() - 180_000;
    await ingest(t0, { vave1: 230.4, vave2: 231, vave3: 229.8 });
    await ingest(t0 + 60_000, { vave1: 201.2, vmin1: 198.6, vave2: 231, vave3: 229.8 });

    // On the page: the hub event of each new alarm.
    const deadline = Date.now() + 20_000;
    while (events.length < 2 && Date.now() < deadline) await sleep(25);
    expect(events.map((e) => e.item?.kind).sort()).toEqual(['limit_warning', 'voltage_drop']);
    expect(events.every((e) => e.deviceId === deviceId && e.item?.held === null)).toBe(true);

    // In the browser: one push message for the reading's two alarms, VAPID-signed, decrypted as a browser would.
    const [request] = await push.waitFor(`/ok/${dialect}`);
    expect(request?.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request?.headers.ttl)).toBeGreaterThan(0);
    const payload = JSON.parse(browser.decrypt(request?.body as Buffer).toString('utf8')) as Record<string, unknown>;
    expect(payload).toMatchObject({
      title: 'Voltage warning level exceeded',
      body: 'Garage meter: phase 1 voltage at 198.6 V, beyond the warning level (207 V). (and 1 more)',
      url: `/notifications?deviceId=${deviceId}`,
    });
    const vapid = /^vapid t=([^,]+), k=(.+)$/.exec(String(request?.headers.authorization));
    expect(vapid?.[2]).toBe(publicKey);
    const raw = Buffer.from(publicKey, 'base64url');
    const key = await importJWK(
      {
        kty: 'EC',
        crv: 'P-256',
        x: raw.subarray(1, 33).toString('base64url'),
        y: raw.subarray(33, 65).toString('base64url'),
      },
      'ES256',
    );
    const { payload: claims } = await jwtVerify(vapid?.[1] as string, key);
    expect(claims.aud).toBe(push.origin);

    // By mail, once.
    const mails = await smtp.waitFor(mailsBefore + 1);
    const mail = mails[mailsBefore];
    expect(mail?.to).toEqual([email]);
    expect(mail?.subject).toBe('Voltage warning level exceeded: Garage meter');
    expect(mail?.text).toContain('Garage meter: phase 1 voltage fell to 198.6 V, below 207 V.');

    // The subscription its push service called gone is removed: the next alarm does not try it.
    await push.waitFor(`/gone/${dialect}`);
    const metrics = async () =>
      (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => r.text()))
        .split('\n')
        .filter((l) => l.startsWith('phasewatch_notification_deliveries_total'));
    const goneDeadline = Date.now() + 10_000;
    while (!(await metrics()).some((l) => l.includes('outcome="gone"')) && Date.now() < goneDeadline) await sleep(50);
    expect(await metrics()).toContain('phasewatch_notification_deliveries_total{channel="push",outcome="gone"} 1');

    // The voltage recovers: both alarms end, with the time the sag lasted; nothing more is sent.
    await ingest(t0 + 150_000, { vave1: 229.9, vave2: 231, vave3: 229.8 });
    let list: NotificationsResponse | null = null;
    const clearDeadline = Date.now() + 20_000;
    while (Date.now() < clearDeadline) {
      list = (await api('GET', '/api/notifications')) as unknown as NotificationsResponse;
      if (list.items.length === 2 && list.items.every((i) => i.state === 'cleared')) break;
      await sleep(50);
    }
    expect(list?.items.map((i) => [i.kind, i.state, i.durationSeconds, i.worstValue, i.sent])).toEqual([
      ['voltage_drop', 'cleared', 90, 198.6, { push: true, email: true }],
      ['limit_warning', 'cleared', 90, 198.6, { push: true, email: true }],
    ]);
    await sleep(300);
    expect(events).toHaveLength(2);
    expect(push.requests.filter((r) => r.path.endsWith(`/${dialect}`))).toHaveLength(2);
    expect(smtp.mails.length).toBe(mailsBefore + 1);

    // A critical sag on another device: pushed with high urgency, and the gone endpoint is not tried again.
    const second = (await api('POST', '/api/devices', { name: 'Shed meter', mac: '02:E2:E0:00:00:02', typeCode: 20 })) as {
      device: { id: number; notifications: Record<string, unknown> };
      ingestKey: string;
    };
    await api('PUT', `/api/devices/${second.device.id}/notifications`, {
      ...second.device.notifications,
      pushEnabled: true,
      disableAtNight: false,
    });
    await fetch(`${base}/api/ingest`, {
      method: 'POST',
      headers: { 'x-device-key': second.ingestKey, 'content-type': 'application/json' },
      body: JSON.stringify({ readings: [{ ts: new Date().toISOString(), values: { vave1: 150 } }] }),
    });
    const [, critical] = await push.waitFor(`/ok/${dialect}`, 2);
    expect(critical?.headers.urgency).toBe('high');
    expect(JSON.parse(browser.decrypt(critical?.body as Buffer).toString('utf8')).title).toBe('Voltage critical level exceeded');
    await sleep(300);
    expect(push.requests.filter((r) => r.path === `/gone/${dialect}`)).toHaveLength(1);
  });
});

describe('two instances on one PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(async () => {
    const databaseUrl = await createPgDatabase();
    const env = { JWT_SECRET: 'e2e-notifications-shared-secret-0123456789', SMTP_URL: smtp.url, PUBLIC_URL: 'https://phasewatch.example' };
    a = await startServer({ databaseUrl, env });
    b = await startServer({ databaseUrl, env });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('record one alarm and send it once when a device’s readings reach both', async () => {
    const email = `two-instances-${Date.now()}@example.com`;
    const { token } = await registerUser(a.baseUrl, email);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = (await (
      await fetch(`${a.baseUrl}/api/devices`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Shared meter', mac: '02:E2:E0:00:00:09', typeCode: 20 }),
      })
    ).json()) as { device: { id: number; notifications: object }; ingestKey: string };
    await fetch(`${a.baseUrl}/api/devices/${created.device.id}/notifications`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ ...created.device.notifications, emailEnabled: true, disableAtNight: false, voltageDropThreshold: 50 }),
    });
    const hubs = [a, b].map((s) =>
      new HubConnectionBuilder()
        .withUrl(`${s.baseUrl}${HUB_PATH}`, { accessTokenFactory: () => token })
        .configureLogging({ log: () => {} })
        .build(),
    );
    const events: NotificationEvent[][] = [[], []];
    hubs.forEach((h, i) => {
      h.on(HUB_EVENTS.notification, (e: NotificationEvent) => events[i]?.push(e));
    });
    await Promise.all(hubs.map((h) => h.start()));
    try {
      const mailsBefore = smtp.mails.length;
      const send = async (s: RunningServer, ts: number, vave1: number) => {
        const res = await fetch(`${s.baseUrl}/api/ingest`, {
          method: 'POST',
          headers: { 'x-device-key': created.ingestKey, 'content-type': 'application/json' },
          body: JSON.stringify({ readings: [{ ts: new Date(ts).toISOString(), values: { vave1 } }] }),
        });
        expect(res.status).toBe(200);
        // Each instance judges what it committed; give the other a moment, as a device's next reading would.
        await sleep(400);
      };
      // The device's readings go to either instance (a load balancer): the sag begins on B, deepens on A,
      // goes on on B, ends on A.
      const t0 = Date.now() - 60_000;
      await send(a, t0, 230.2);
      await send(b, t0 + 10_000, 201.5);
      await send(a, t0 + 20_000, 198.1);
      await send(b, t0 + 30_000, 200.4);
      await send(a, t0 + 40_000, 229.6);
      const deadline = Date.now() + 20_000;
      let items: NotificationsResponse['items'] = [];
      while (Date.now() < deadline) {
        items = ((await (await fetch(`${b.baseUrl}/api/notifications`, { headers })).json()) as NotificationsResponse).items;
        if (items.length > 0 && items.every((i) => i.state === 'cleared')) break;
        await sleep(100);
      }
      expect(items.map((i) => [i.kind, i.state, i.occurrences, i.durationSeconds, i.worstValue])).toEqual([
        ['limit_warning', 'cleared', 1, 30, 198.1],
      ]);
      // The page on either instance heard of it once; one mail.
      await smtp.waitFor(mailsBefore + 1);
      await sleep(500);
      expect(events.map((e) => e.length)).toEqual([1, 1]);
      expect(smtp.mails.length).toBe(mailsBefore + 1);
    } finally {
      await Promise.all(hubs.map((h) => h.stop()));
    }
  });
});
