import { DEFAULT_COUNTER_RULES, DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CommittedObjects } from '../../ingest/committed-readings.js';
import type { NotificationRow } from '../../storage/schema.js';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';
import type { DeliveryDevice } from './notifications.dispatcher.js';
import { AlarmEngine } from './notifications.engine.js';
import { NotificationMetrics } from './notifications.metrics.js';
import { NotificationsRepository } from './notifications.repository.js';

const MIN = 60_000;
/** 2026-01-15 12:00 in Warsaw (the test users' zone, from country PL). */
const NOON = Date.UTC(2026, 0, 15, 11, 0);
const silent = { warn() {}, info() {}, error() {}, debug() {}, child: () => silent } as unknown as FastifyBaseLogger;

interface Delivery {
  kinds: string[];
  held: (string | null)[];
  at: number;
}

/**
 * The engine on real storage (both dialects), with a clock the test moves and the deliveries recorded
 * (the channels are tested end to end elsewhere). The app's own engine sees nothing: readings are handed
 * to this one directly.
 */
describe.each(DIALECTS)('alarm engine on %s', (dialect) => {
  let t: TestApp;
  let repo: NotificationsRepository;
  let clock = NOON;
  let deliveries: Delivery[];
  let user: Awaited<ReturnType<typeof signUp>>;
  let macs = 0;

  const engine = (periodEnergy = 0, latest: { ts: number; values: Record<string, number> } | null = null) =>
    new AlarmEngine({
      repo,
      store: repo,
      dispatcher: {
        deliver: async (_d: DeliveryDevice, rows: readonly NotificationRow[], now: number) => {
          if (rows.length) deliveries.push({ kinds: rows.map((r) => r.kind).sort(), held: rows.map((r) => r.held), at: now });
        },
      },
      periodEnergy: async () => ({ energyKwh: periodEnergy, latest }),
      counterRules: DEFAULT_COUNTER_RULES,
      log: silent,
      metrics: new NotificationMetrics(null),
      now: () => clock,
    });

  async function device(settings: Partial<NotificationSettings> = {}, typeCode = 13): Promise<number> {
    const mac = `02:EE:00:00:${String(Math.floor(macs / 100)).padStart(2, '0')}:${String(macs++ % 100).padStart(2, '0')}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: user.auth,
      payload: { name: `d${mac}`, mac, typeCode },
    });
    const id = (res.json() as { device: { id: number } }).device.id;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${id}/notifications`,
      headers: user.auth,
      payload: { ...DEFAULT_NOTIFICATION_SETTINGS, disableAtNight: true, notificationIntervalMinutes: 60, ...settings },
    });
    expect(put.statusCode).toBe(200);
    return id;
  }

  const feed = async (e: AlarmEngine, id: number, readings: { ts: number; values: Record<string, number> }[]) => {
    e.onReadings(new CommittedObjects(id, user.userId, readings));
    await e.settled();
  };
  const rows = (id: number) => repo.db.selectFrom('notifications').selectAll().where('device_id', '=', id).orderBy('id').execute();

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    repo = new NotificationsRepository(t.ctx.storage.db);
    user = await signUp(t.app);
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    clock = NOON;
    deliveries = [];
  });

  it('a sag raises drop and warning as one delivery, worsens, and clears with its duration and worst value', async () => {
    const e = engine();
    const id = await device();
    await feed(e, id, [{ ts: NOON - 2 * MIN, values: { vave1: 231, vave2: 230, vave3: 229 } }]);
    expect(await rows(id)).toEqual([]);
    await feed(e, id, [{ ts: NOON - MIN, values: { vave1: 231, vave2: 200, vmin2: 198.5, vave3: 229 } }]);
    expect(deliveries).toEqual([{ kinds: ['limit_warning', 'voltage_drop'], held: [null, null], at: NOON }]);
    clock = NOON + MIN;
    await feed(e, id, [{ ts: NOON, values: { vave1: 231, vave2: 195, vmin2: 190, vave3: 229 } }]);
    clock = NOON + 5 * MIN;
    await feed(e, id, [{ ts: NOON + 4 * MIN, values: { vave1: 231, vave2: 229, vmin2: 228, vave3: 229 } }]);
    const stored = await rows(id);
    expect(stored.map((r) => [r.kind, r.started_at, r.ended_at, r.worst_value, r.worst_phase, r.threshold, r.occurrences])).toEqual([
      ['limit_warning', NOON - MIN, NOON + 4 * MIN, 190, 2, 207, 1],
      ['voltage_drop', NOON - MIN, NOON + 4 * MIN, 190, 2, 207, 1],
    ]);
    expect(deliveries).toHaveLength(1);
  });

  it('a condition flapping within the interval stays one alarm, told once; after the interval it is a new one', async () => {
    const e = engine();
    const id = await device({ notificationIntervalMinutes: 30 });
    const sag = (ts: number) => ({ ts, values: { vave1: 200 } });
    const ok = (ts: number) => ({ ts, values: { vave1: 230 } });
    await feed(e, id, [sag(NOON), ok(NOON + MIN), sag(NOON + 2 * MIN), ok(NOON + 3 * MIN), sag(NOON + 20 * MIN), ok(NOON + 21 * MIN)]);
    let stored = await rows(id);
    expect(stored.map((r) => [r.kind, r.occurrences, r.ended_at])).toEqual([
      ['limit_warning', 3, NOON + 21 * MIN],
      ['voltage_drop', 3, NOON + 21 * MIN],
    ]);
    expect(deliveries).toHaveLength(1);
    // 31 minutes after the last end: a new alarm, told again.
    clock = NOON + 52 * MIN;
    await feed(e, id, [sag(NOON + 52 * MIN)]);
    stored = await rows(id);
    expect(stored).toHaveLength(4);
    expect(deliveries).toHaveLength(2);
  });

  it('holds delivery in quiet hours (the user’s 22:00–07:00, across midnight and a DST change) and never sends it later', async () => {
    const e = engine();
    const id = await device({ voltageDropThreshold: 50, notificationIntervalMinutes: 1 });
    // 23:30 in Warsaw.
    clock = Date.UTC(2026, 0, 15, 22, 30);
    await feed(e, id, [{ ts: clock - 1000, values: { vave1: 200 } }]);
    // 06:50 the next morning the alarm ends; 07:05 nothing arrives late.
    clock = Date.UTC(2026, 0, 16, 5, 50);
    await feed(e, id, [{ ts: clock - 1000, values: { vave1: 230 } }]);
    clock = Date.UTC(2026, 0, 16, 6, 5);
    await feed(e, id, [{ ts: clock - 1000, values: { vave1: 231 } }]);
    expect(deliveries).toEqual([{ kinds: ['limit_warning'], held: ['quietHours'], at: Date.UTC(2026, 0, 15, 22, 30) }]);
    expect((await rows(id)).map((r) => r.held)).toEqual(['quietHours']);

    // The spring change (2026-03-29): 06:30 CEST is still night, 07:05 CEST is day.
    const dst = await device({ voltageDropThreshold: 50, notificationIntervalMinutes: 1 });
    clock = Date.UTC(2026, 2, 29, 4, 30);
    await feed(e, dst, [
      { ts: clock - 1000, values: { vave1: 200 } },
      { ts: clock - 500, values: { vave1: 230 } },
    ]);
    clock = Date.UTC(2026, 2, 29, 5, 5);
    await feed(e, dst, [{ ts: clock - 1000, values: { vave1: 200 } }]);
    expect(deliveries.slice(1).map((d) => d.held)).toEqual([['quietHours'], [null]]);
  });

  it('a muted device records its alarms and delivers none; without quiet hours the night delivers', async () => {
    const e = engine();
    const muted = await device({ muteAll: true });
    await feed(e, muted, [{ ts: NOON - 1000, values: { vave1: 150 } }]);
    expect(deliveries).toEqual([
      { kinds: ['limit_critical', 'limit_warning', 'voltage_drop'], held: ['muted', 'muted', 'muted'], at: NOON },
    ]);
    const owl = await device({ disableAtNight: false, voltageDropThreshold: 50 });
    clock = Date.UTC(2026, 0, 15, 23, 0);
    await feed(e, owl, [{ ts: clock - 1000, values: { vave1: 200 } }]);
    expect(deliveries[1]?.held).toEqual([null]);
  });

  it('a condition found in readings that arrive long after it (a device sending its buffer) is listed as late, not sent', async () => {
    const e = engine();
    const id = await device();
    await feed(e, id, [
      { ts: NOON - 3 * 60 * MIN, values: { vave1: 200 } },
      { ts: NOON - 3 * 60 * MIN + MIN, values: { vave1: 230 } },
    ]);
    expect(deliveries[0]?.held).toEqual(['late', 'late']);
    const stored = await rows(id);
    expect(stored.every((r) => r.ended_at === NOON - 3 * 60 * MIN + MIN)).toBe(true);
  });

  it('judges readings forward only: a reading older than one judged already, or than a day, is ignored', async () => {
    const e = engine();
    const id = await device();
    await feed(e, id, [{ ts: NOON, values: { vave1: 230 } }]);
    await feed(e, id, [{ ts: NOON - MIN, values: { vave1: 150 } }]);
    expect(await rows(id)).toEqual([]);
    // History imported or backfilled (older than the horizon) raises nothing.
    const imported = await device();
    await feed(e, imported, [
      { ts: NOON - 25 * 60 * MIN, values: { vave1: 150 } },
      { ts: NOON - 25 * 60 * MIN + MIN, values: { vave1: 230 } },
    ]);
    expect(await rows(imported)).toEqual([]);
  });

  it('weak signal, and a voltage rise, each with their worst value', async () => {
    const e = engine();
    const id = await device();
    await feed(e, id, [
      { ts: NOON - 3000, values: { rssi: -80, vave1: 230, vmax1: 256 } },
      { ts: NOON - 2000, values: { rssi: -84, vave1: 230, vmax1: 258 } },
      { ts: NOON - 1000, values: { rssi: -60, vave1: 230, vmax1: 240 } },
    ]);
    const stored = await rows(id);
    expect(stored.map((r) => [r.kind, r.worst_value, r.ended_at])).toEqual([
      ['limit_warning', 258, NOON - 1000],
      ['voltage_rise', 258, NOON - 1000],
      ['weak_signal', -84, NOON - 1000],
    ]);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.kinds).toEqual(['limit_warning', 'voltage_rise', 'weak_signal']);
  });

  it('consumption: the billing period’s energy passing the threshold raises once; a new period clears it and counts from zero', async () => {
    // The stored figure of the period so far is 9 kWh (up to the reading of 500 kWh); the threshold 10 kWh.
    const e = engine(9, { ts: NOON - 3000, values: { eai1: 500 } });
    const id = await device({ totalConsumptionThreshold: 10 });
    // Periods start on the 15th (local midnight): NOON is in the one that began that morning.
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${id}`,
      headers: user.auth,
      payload: { billingStartDate: '2025-12-15' },
    });
    expect(put.statusCode).toBe(200);
    // The first reading the rule sees starts the meter from the stored figure (which includes that reading).
    await feed(e, id, [{ ts: NOON - 3000, values: { eai1: 500 } }]);
    await feed(e, id, [{ ts: NOON - 2000, values: { eai1: 500.5 } }]);
    expect(await rows(id)).toEqual([]);
    await feed(e, id, [{ ts: NOON - 1000, values: { eai1: 501.1 } }]);
    let stored = await rows(id);
    expect(stored.map((r) => [r.kind, r.worst_value, r.threshold, r.ended_at])).toEqual([['consumption', 10.1, 10, null]]);
    await feed(e, id, [{ ts: NOON, values: { eai1: 502 } }]);
    expect(deliveries).toHaveLength(1);
    // The next period starts on 15 February, 00:00 in Warsaw.
    const nextPeriod = Date.UTC(2026, 1, 15) - 60 * MIN;
    clock = nextPeriod + 5 * MIN;
    await feed(e, id, [{ ts: nextPeriod + 4 * MIN, values: { eai1: 502.1 } }]);
    stored = await rows(id);
    expect(stored.map((r) => [r.kind, r.ended_at])).toEqual([['consumption', nextPeriod]]);
  });

  it('offline raises an alarm, online clears it and says so once; offline again within the interval reopens', async () => {
    const e = engine();
    const id = await device();
    const status = async (s: 'online' | 'offline') => {
      e.onStatus({ deviceId: id, userId: user.userId, status: s, weakSignal: false });
      await e.settled();
    };
    await status('online');
    expect(await rows(id)).toEqual([]);
    await status('offline');
    clock += 10 * MIN;
    await status('online');
    clock += 5 * MIN;
    await status('offline');
    clock += 5 * MIN;
    await status('online');
    const stored = await rows(id);
    expect(stored.map((r) => [r.kind, r.occurrences, r.started_at, r.ended_at])).toEqual([
      ['offline', 2, NOON, NOON + 20 * MIN],
      ['online', 2, NOON + 20 * MIN, NOON + 20 * MIN],
    ]);
    expect(deliveries.map((d) => d.kinds)).toEqual([['offline'], ['online']]);
  });

  it('a fleet back online: its offline alarms are read in one query, each device answered with its own', async () => {
    const e = engine();
    const ids = [await device(), await device(), await device()];
    for (const id of ids.slice(0, 2)) e.onStatus({ deviceId: id, userId: user.userId, status: 'offline', weakSignal: false });
    await e.settled();
    const selects = vi.spyOn(repo.db, 'selectFrom');
    const answers = await Promise.all(ids.map((id) => repo.openAlarm(id, 'offline')));
    expect(selects).toHaveBeenCalledTimes(1);
    selects.mockRestore();
    expect(answers.map((a) => a?.device_id ?? null)).toEqual([ids[0], ids[1], null]);
    clock = NOON + 10 * MIN;
    for (const id of ids) e.onStatus({ deviceId: id, userId: user.userId, status: 'online', weakSignal: false });
    await e.settled();
    for (const id of ids) {
      const offline = (await rows(id)).filter((r) => r.kind === 'offline');
      expect(offline.map((r) => r.ended_at)).toEqual(id === ids[2] ? [] : [NOON + 10 * MIN]);
    }
  });

  it('alarms raised in one turn are stored by one statement; a second open alarm of the same device and kind is refused', async () => {
    const ids = [await device(), await device()];
    const alarm = (id: number, kind: string) => ({
      user_id: user.userId,
      device_id: id,
      kind,
      level: 'warning',
      started_at: NOON,
      ended_at: null,
      worst_value: -80,
      worst_phase: null,
      threshold: -75,
      held: null,
      created_at: NOON,
    });
    const inserts = vi.spyOn(repo.db, 'insertInto');
    const [a, b, c] = await Promise.all([
      repo.insertAlarm(alarm(ids[0] as number, 'weak_signal')),
      repo.insertAlarm(alarm(ids[1] as number, 'weak_signal')),
      repo.insertAlarm(alarm(ids[0] as number, 'weak_signal')),
    ]);
    // The first two together; the third (the same device and kind) in a statement of its own, after them.
    expect(inserts).toHaveBeenCalledTimes(2);
    inserts.mockRestore();
    expect([a?.device_id, b?.device_id, c]).toEqual([ids[0], ids[1], undefined]);
    expect((await rows(ids[0] as number)).map((r) => r.kind)).toEqual(['weak_signal']);
  });

  it('keeps each alarm’s changes its own while storage lags behind the readings (a new alarm does not take over the old one’s clear)', async () => {
    // A store that answers late, as the SQLite writer thread does behind a batch import's flushes.
    const slow = new Proxy(repo, {
      get: (target, key) => {
        const v = Reflect.get(target, key, target);
        return typeof v === 'function'
          ? async (...args: unknown[]) => {
              await new Promise((r) => setTimeout(r, 15));
              return v.apply(target, args);
            }
          : v;
      },
    });
    const e = new AlarmEngine({
      repo,
      store: slow,
      dispatcher: { deliver: async () => {} },
      periodEnergy: async () => ({ energyKwh: 0, latest: null }),
      counterRules: DEFAULT_COUNTER_RULES,
      log: silent,
      metrics: new NotificationMetrics(null),
      now: () => clock,
    });
    const id = await device({ voltageDropThreshold: 50, notificationIntervalMinutes: 30 });
    const at = (m: number, v: number) =>
      new CommittedObjects(id, user.userId, [{ ts: NOON - 3 * 60 * MIN + m * MIN, values: { vave1: v } }]);
    // The first alarm is stored; then its end and the next two alarms (an hour apart, each ending a minute
    // after it began) are judged long before storage keeps up.
    e.onReadings(at(0, 200));
    await e.settled();
    for (const m of [1, 60, 61, 120, 121]) e.onReadings(at(m, m % 60 === 0 ? 200 : 230));
    await e.settled();
    const stored = await rows(id);
    expect(stored.map((r) => [r.started_at - NOON, r.ended_at === null ? null : r.ended_at - NOON, r.occurrences])).toEqual(
      [0, 60, 120].map((m) => [-3 * 60 * MIN + m * MIN, -3 * 60 * MIN + (m + 1) * MIN, 1]),
    );
  });

  it('two instances seeing the same sag record one alarm, delivered by one of them', async () => {
    const a = engine();
    const b = engine();
    const id = await device({ voltageDropThreshold: 50 });
    const sag = [{ ts: NOON - 1000, values: { vave1: 200 } }];
    a.onReadings(new CommittedObjects(id, user.userId, sag));
    b.onReadings(new CommittedObjects(id, user.userId, sag));
    await Promise.all([a.settled(), b.settled()]);
    expect(await rows(id)).toHaveLength(1);
    expect(deliveries).toHaveLength(1);
    // The recovery reaches the other instance: it knows the alarm and ends it.
    clock = NOON + MIN;
    await feed(b, id, [{ ts: NOON, values: { vave1: 230 } }]);
    expect((await rows(id))[0]?.ended_at).toBe(NOON);
  });
});
