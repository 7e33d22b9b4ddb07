import { HubConnectionBuilder } from '@microsoft/signalr';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  HUB_EVENTS,
  HUB_PATH,
  type NotificationEvent,
  type NotificationsResponse,
  PUSH_SUBSCRIPTIONS_PER_USER,
} from '@phasewatch/shared';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from '../../../../../scripts/testing/smtp-sink.js';
import { buildApp } from '../../app.js';
import { buildTestApp, signUp, type TestApp, testHosts } from '../../test/app.js';
import { createTestStorage, DIALECTS } from '../../test/storage.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

const KEYS = { p256dh: `B${'A'.repeat(86)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' };

describe.each(DIALECTS)('notifications over the API on %s', (dialect) => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let port = 0;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await buildTestApp(dialect, { smtpUrl: sink.url, publicUrl: 'https://phasewatch.example' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const a = t.app.server.address();
    port = typeof a === 'object' && a ? a.port : 0;
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  async function deviceOf(user: Awaited<ReturnType<typeof signUp>>, name: string, mac: string, settings: Record<string, unknown> = {}) {
    const res = await t.app.inject({ method: 'POST', url: '/api/devices', headers: user.auth, payload: { name, mac, typeCode: 13 } });
    expect(res.statusCode).toBe(200);
    const { device, ingestKey } = res.json() as { device: { id: number }; ingestKey: string };
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${device.id}/notifications`,
      headers: user.auth,
      // Tests run at any hour: the quiet hours are the rules' unit tests' business.
      payload: { ...DEFAULT_NOTIFICATION_SETTINGS, disableAtNight: false, emailEnabled: true, ...settings },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().notifications.emailEnabled).toBe(settings.emailEnabled ?? true);
    return { id: device.id, key: ingestKey };
  }
  const ingest = async (key: string, ts: number, values: Record<string, number>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ingest',
      headers: { 'x-device-key': key },
      payload: { readings: [{ ts: new Date(ts).toISOString(), values }] },
    });
    expect(res.statusCode).toBe(200);
  };
  const list = async (user: { auth: Record<string, string> }, query = '') =>
    (await t.app.inject({ method: 'GET', url: `/api/notifications${query}`, headers: user.auth })).json() as NotificationsResponse;

  it('an ingested sag reaches the owner’s hub and mailbox once, lists, reads, acknowledges, and clears with its duration', async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    const dev = await deviceOf(owner, 'Main <b>meter</b>', '02:AB:CD:00:00:01');
    const hub = new HubConnectionBuilder()
      .withUrl(`http://127.0.0.1:${port}${HUB_PATH}`, { accessTokenFactory: () => owner.token })
      .configureLogging({ log: () => {} })
      .build();
    const otherHub = new HubConnectionBuilder()
      .withUrl(`http://127.0.0.1:${port}${HUB_PATH}`, { accessTokenFactory: () => other.token })
      .configureLogging({ log: () => {} })
      .build();
    const events: NotificationEvent[] = [];
    const othersEvents: NotificationEvent[] = [];
    hub.on(HUB_EVENTS.notification, (e: NotificationEvent) => events.push(e));
    otherHub.on(HUB_EVENTS.notification, (e: NotificationEvent) => othersEvents.push(e));
    await hub.start();
    await otherHub.start();
    const mailsBefore = sink.mails.length;
    try {
      const t0 = Date.now() - 120_000;
      await ingest(dev.key, t0, { vave1: 231, vave2: 230, vave3: 229 });
      await ingest(dev.key, t0 + 10_000, { vave1: 231, vave2: 201.3, vmin2: 199.8, vave3: 229 });
      await ingest(dev.key, t0 + 20_000, { vave1: 231, vave2: 196.4, vave3: 229 });
      await until('two hub events', () => (events.length >= 2 ? events : undefined));
      expect(events.map((e) => e.item?.kind).sort()).toEqual(['limit_warning', 'voltage_drop']);
      expect(events[0]).toMatchObject({ deviceId: dev.id, level: 'warning', message: expect.stringMatching(/^notifications\.kinds\./) });
      expect(events[0]?.item).toMatchObject({ state: 'active', held: null, read: false, deviceName: 'Main <b>meter</b>' });

      // One mail for the two alarms of the one reading, in the user's language, the device name escaped in HTML.
      const [mail] = (await sink.waitFor(mailsBefore + 1)).slice(mailsBefore);
      expect(mail?.to).toEqual([owner.email]);
      expect(mail?.subject).toBe('Voltage warning level exceeded: Main <b>meter</b>');
      expect(mail?.text).toContain('Main <b>meter</b>: phase 2 voltage at 199.8 V, beyond the warning level (207 V).');
      expect(mail?.text).toContain('Main <b>meter</b>: phase 2 voltage fell to 199.8 V, below 207 V.');
      expect(mail?.text).toContain('https://phasewatch.example/notifications?deviceId=');
      expect(mail?.html).toContain('Main &#60;b&#62;meter&#60;/b&#62;');
      expect(mail?.html).not.toContain('<b>meter');

      await t.ctx.notifications.settled();
      let answer = await list(owner);
      expect(answer.unread).toBe(2);
      expect(answer.items.map((i) => i.kind)).toEqual(['voltage_drop', 'limit_warning']);
      const drop = answer.items[0];
      expect(drop).toMatchObject({
        deviceId: dev.id,
        state: 'active',
        endedAt: null,
        worstValue: 196.4,
        unit: 'V',
        phase: 2,
        threshold: 207,
        occurrences: 1,
        held: null,
        sent: { push: false, email: true },
      });
      // Another user sees none of it, and cannot touch it.
      expect((await list(other)).items).toEqual([]);
      expect(othersEvents).toEqual([]);
      for (const action of ['read', 'acknowledge'])
        expect(
          (await t.app.inject({ method: 'POST', url: `/api/notifications/${drop?.id}/${action}`, headers: other.auth })).statusCode,
        ).toBe(404);

      const read = await t.app.inject({ method: 'POST', url: `/api/notifications/${drop?.id}/read`, headers: owner.auth });
      expect(read.json()).toMatchObject({ read: true, state: 'active' });
      expect((await t.app.inject({ method: 'GET', url: '/api/notifications/unread-count', headers: owner.auth })).json()).toEqual({
        unread: 1,
      });
      const ack = await t.app.inject({ method: 'POST', url: `/api/notifications/${drop?.id}/acknowledge`, headers: owner.auth });
      expect(ack.json()).toMatchObject({ state: 'acknowledged', read: true, acknowledgedAt: expect.any(String) });
      expect((await list(owner, '?state=acknowledged')).items.map((i) => i.id)).toEqual([drop?.id]);
      expect((await list(owner, '?state=active')).items.map((i) => i.kind)).toEqual(['limit_warning']);
      expect((await list(owner, `?kind=limit_warning&deviceId=${dev.id}`)).items).toHaveLength(1);
      expect((await list(owner, '?limit=1')).nextBefore).toBe(drop?.id);

      // The voltage recovers: both end with their duration; no second mail.
      await ingest(dev.key, t0 + 80_000, { vave1: 231, vave2: 229.5, vave3: 229 });
      await t.ctx.notifications.settled();
      answer = await until('cleared alarms', async () => {
        const a = await list(owner);
        return a.items.every((i) => i.state === 'cleared') ? a : undefined;
      });
      for (const item of answer.items) {
        expect(item.durationSeconds).toBe(70);
        expect(item.endedAt).not.toBeNull();
      }
      expect(answer.items[0]?.acknowledgedAt).not.toBeNull();
      expect((await list(owner, '?state=cleared')).items).toHaveLength(2);
      await sleep(200);
      expect(sink.mails.length).toBe(mailsBefore + 1);
      expect(events).toHaveLength(2);

      const all = await t.app.inject({ method: 'POST', url: '/api/notifications/read-all', headers: owner.auth });
      expect(all.json()).toEqual({ unread: 0 });
    } finally {
      await hub.stop();
      await otherHub.stop();
    }
  });

  it('raises the consumption alarm when the billing period’s stored energy and the new readings pass the threshold', async () => {
    const owner = await signUp(t.app);
    const dev = await deviceOf(owner, 'Energy meter', '02:AB:CD:00:00:03', { totalConsumptionThreshold: 1.5, emailEnabled: false });
    // The current billing period began ten days ago (monthly): the readings below are all inside it.
    const start = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/devices/${dev.id}`, headers: owner.auth, payload: { billingStartDate: start } }))
        .statusCode,
    ).toBe(200);
    const now = Date.now();
    await ingest(dev.key, now - 30 * 60_000, { eai1: 100, vave1: 230 });
    await ingest(dev.key, now - 20 * 60_000, { eai1: 101, vave1: 230 });
    // The rule starts from the stored figure of the period (1 kWh so far) and the newest reading.
    await t.ctx.notifications.settled();
    await ingest(dev.key, now - 10 * 60_000, { eai1: 101.4, vave1: 230 });
    await t.ctx.notifications.settled();
    expect((await list(owner)).items).toEqual([]);
    await ingest(dev.key, now - 60_000, { eai1: 101.7, vave1: 230 });
    await t.ctx.notifications.settled();
    const [alarm] = (await list(owner)).items;
    expect(alarm).toMatchObject({ kind: 'consumption', state: 'active', worstValue: 1.7, unit: 'kWh', threshold: 1.5 });
  });

  it('a failing mail server is retried, and shows in the metrics', async () => {
    const owner = await signUp(t.app);
    const dev = await deviceOf(owner, 'Retry meter', '02:AB:CD:00:00:02', { voltageDropThreshold: 50 });
    const before = sink.mails.length;
    sink.failNext(1, 451);
    await ingest(dev.key, Date.now() - 1000, { vave1: 190 });
    await t.ctx.notifications.settled();
    await sink.waitFor(before + 1);
    const metrics = await t.ctx.metrics.registry.getSingleMetricAsString('phasewatch_notification_deliveries_total');
    expect(metrics).toMatch(/channel="email",outcome="retry"\} [1-9]/);
    expect(metrics).toMatch(/channel="email",outcome="sent"\} [1-9]/);
  });

  it('refuses push endpoints that are not https or resolve to loopback, private or link-local addresses', async () => {
    const user = await signUp(t.app);
    testHosts.set('push.example.test', ['93.184.216.34']);
    testHosts.set('intranet.example.test', ['10.1.2.3']);
    testHosts.set('rebind.example.test', ['93.184.216.34', '127.0.0.1']);
    const post = (endpoint: string) =>
      t.app.inject({ method: 'POST', url: '/api/push/subscriptions', headers: user.auth, payload: { endpoint, keys: KEYS } });
    for (const endpoint of [
      'http://push.example.test/x',
      'https://intranet.example.test/x',
      'https://rebind.example.test/x',
      'https://127.0.0.1/x',
      'https://[::1]/x',
      'https://[::ffff:7f00:1]/x',
      'https://169.254.169.254/latest',
      // The metadata address carried in IPv6 (IPv4-compatible, NAT64, 6to4): the collectors' guard refuses it too.
      'https://[::a9fe:a9fe]/latest',
      'https://[64:ff9b::a9fe:a9fe]/latest',
      'https://[2002:a9fe:a9fe::1]/latest',
      'https://192.168.1.1/x',
      'https://unknown.example.test/x',
      'https://user:pw@push.example.test/x',
    ]) {
      const res = await post(endpoint);
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json().errors[0].field, endpoint).toBe('endpoint');
    }
    expect((await post('https://push.example.test/abc')).statusCode).toBe(200);
    expect((await post('https://93.184.216.34/abc')).statusCode).toBe(200);
    // Unsubscribing takes only the user's own endpoint.
    const other = await signUp(t.app);
    const del = (u: typeof user, endpoint: string) =>
      t.app.inject({ method: 'DELETE', url: '/api/push/subscriptions', headers: u.auth, payload: { endpoint } });
    expect((await del(other, 'https://push.example.test/abc')).json()).toEqual({ removed: false });
    expect((await del(user, 'https://push.example.test/abc')).json()).toEqual({ removed: true });
    // At most PUSH_SUBSCRIPTIONS_PER_USER browsers: one more is a 409 naming why; an existing one still renews.
    // (one is there already: https://93.184.216.34/abc)
    for (let i = 1; i < PUSH_SUBSCRIPTIONS_PER_USER; i++) expect((await post(`https://push.example.test/many-${i}`)).statusCode).toBe(200);
    const full = await post('https://push.example.test/one-too-many');
    expect(full.statusCode).toBe(409);
    expect(full.json().errors[0]).toMatchObject({ key: 'errors.pushSubscriptionLimit' });
    expect((await post('https://push.example.test/many-3')).statusCode).toBe(200);
    expect((await del(user, 'https://push.example.test/many-3')).json()).toEqual({ removed: true });
    expect((await post('https://push.example.test/one-too-many')).statusCode).toBe(200);
    // Another user has a budget of their own.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/push/subscriptions',
          headers: other.auth,
          payload: { endpoint: 'https://push.example.test/o', keys: KEYS },
        })
      ).statusCode,
    ).toBe(200);
    const key = await t.app.inject({ method: 'GET', url: '/api/push/vapid-public-key', headers: user.auth });
    expect(Buffer.from(key.json().publicKey, 'base64url')).toHaveLength(65);
  });

  it('sends the password-reset link by mail in the user’s language, and keeps it out of the log', async () => {
    const lines: string[] = [];
    const ts = await createTestStorage(dialect);
    const { app } = await buildApp(
      { ...t.config, dataDir: ts.dataDir, smtpUrl: sink.url, publicUrl: 'https://phasewatch.example' },
      { storage: ts.storage, logger: pino({ level: 'info' }, { write: (s: string) => lines.push(s) }) },
    );
    try {
      const reg = await app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { email: 'reset-me@example.com', password: 'secret1', country: 'PL', fullName: 'Zofia', language: 'pl' },
      });
      expect(reg.statusCode).toBe(200);
      const before = sink.mails.length;
      expect(
        (await app.inject({ method: 'POST', url: '/api/forgot_password', payload: { email: 'reset-me@example.com' } })).statusCode,
      ).toBe(200);
      const mail = (await sink.waitFor(before + 1))[before];
      expect(mail?.subject).toBe('Zresetuj hasło do Phasewatch');
      expect(mail?.text).toMatch(/^Dzień dobry Zofia,/);
      const token = /reset-password\?token=([\w-]+)/.exec(mail?.text ?? '')?.[1];
      expect(token).toBeTruthy();
      expect(lines.some((l) => l.includes('resetUrl') || l.includes(token as string))).toBe(false);
      expect((await app.inject({ method: 'POST', url: '/api/reset_password', payload: { token, password: 'new-pass' } })).statusCode).toBe(
        200,
      );
    } finally {
      await app.close();
      await ts.dispose();
    }
  });
});
