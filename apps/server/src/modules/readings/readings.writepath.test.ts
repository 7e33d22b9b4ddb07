import { PARAMETERS, zonedTimeToUtc } from '@phasewatch/shared';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { createTestStorage, DIALECTS, insertOwnerWithDevices, packedRollupRows, type TestStorage } from '../../test/storage.js';
import { ReadingsRepository } from './readings.repository.js';
import { floorTo, H1 } from './readings.rollup.js';
import { ReadingsService } from './readings.service.js';

const TZ = 'Europe/Warsaw';
const MIN = 60_000;
type Reading = { ts: number; values: Record<string, number> };

describe.each(DIALECTS)('live write path (%s)', (dialect) => {
  let ts: TestStorage | undefined;
  const repos: ReadingsRepository[] = [];
  afterEach(async () => {
    for (const r of repos.splice(0)) await r.close();
    await ts?.dispose();
  });

  it('a round moves every device with nothing to roll up at once and rolls up the others as before', async () => {
    ts = await createTestStorage(dialect);
    await insertOwnerWithDevices(ts.storage.db as never, 40, TZ);
    const repo = new ReadingsRepository(ts.storage);
    repos.push(repo);
    const target = floorTo(Date.now(), H1) - 2 * H1;
    // Devices 1-38: live readings after the target only (a fleet's first minutes). 39: an hour before it
    // as well. 40: nothing at all.
    for (let id = 1; id <= 38; id++)
      await repo.write([{ deviceId: id, tz: TZ, readings: [{ ts: target + 5 * MIN + id, values: { vave1: 230 } }] }]);
    const history: Reading[] = Array.from({ length: 30 }, (_, i) => ({ ts: target - H1 + i * 2 * MIN, values: { eai1: 5 + i * 0.1 } }));
    await repo.write([{ deviceId: 39, tz: TZ, readings: history.slice(0, 10) }]);
    await repo.write([{ deviceId: 39, tz: TZ, readings: [...history.slice(10), { ts: target + MIN, values: { eai1: 9 } }] }]);
    expect(await repo.watermark(1)).toBe(0);
    while (await repo.compactDue(target, 10_000)) {}
    for (let id = 1; id <= 38; id++) expect(await repo.watermark(id)).toBe(target);
    expect(await repo.watermark(39)).toBe(target);
    expect(await repo.watermark(40)).toBe(0);
    // Device 39's hour was rolled up: its quarter-hours answer as the raw rows do.
    const service = new ReadingsService(repo);
    const q = { from: target - H1, to: target, interval: '15m' as const, params: ['eai1'] };
    const rolled = await service.readings(39, TZ, q);
    expect(rolled.ts).toHaveLength(4);
    expect((await packedRollupRows(ts.storage, 39)).length).toBeGreaterThan(0);
  });

  it('a restart between live writes and their roll-up loses nothing: answers from raw rows, then the same rollups as one batch', async () => {
    ts = await createTestStorage(dialect);
    await insertOwnerWithDevices(ts.storage.db as never, 2, TZ);
    const start = zonedTimeToUtc(TZ, 2026, 10, 25, 1);
    const readings: Reading[] = Array.from({ length: 240 }, (_, i) => ({
      ts: start + i * MIN,
      values: { eai1: 10 + i * 0.02 - (i % 5 === 4 ? 0.001 : 0), vave1: 225 + (i % 9) },
    }));
    // Device 1: one reading per write, as a live meter sends them; nothing rolled up yet.
    const live = new ReadingsRepository(ts.storage);
    for (const r of readings) await live.write([{ deviceId: 1, tz: TZ, readings: [r] }]);
    // "Crash": that repository is gone without a compaction; a new one starts on the same data.
    const restarted = new ReadingsRepository(ts.storage);
    repos.push(live, restarted);
    expect(await restarted.watermark(1)).toBe(0);
    await restarted.write([{ deviceId: 2, tz: TZ, readings }]);
    expect(await restarted.watermark(2)).toBe(floorTo(readings[239]?.ts ?? 0, H1));

    const service = new ReadingsService(restarted);
    const ask = (id: number, interval: '15m' | '1h' | '24h') =>
      service.readings(id, TZ, { from: start - H1, to: start + 5 * H1, interval, params: ['eai1', 'vave1'] });
    for (const interval of ['15m', '1h', '24h'] as const) expect(await ask(1, interval), interval).toEqual(await ask(2, interval));
    const before = await Promise.all((['15m', '1h', '24h'] as const).map((i) => ask(1, i)));

    while (await restarted.compactDue(floorTo(Date.now(), H1), 10_000)) {}
    expect(await restarted.watermark(1)).toBe(await restarted.watermark(2));
    expect(await packedRollupRows(ts.storage, 1)).toEqual(await packedRollupRows(ts.storage, 2));
    const days = async (id: number) =>
      (
        await ts?.storage.db
          .selectFrom('rollup_day')
          .select(['bucket', 'bucket_end', 'n', 'tz', 'data'])
          .where('device_id', '=', id)
          .orderBy('bucket')
          .execute()
      )?.map((r) => ({ ...r, data: Buffer.from(r.data).toString('hex') }));
    expect(await days(1)).toEqual(await days(2));
    expect(await Promise.all((['15m', '1h', '24h'] as const).map((i) => ask(1, i)))).toEqual(before);
  });
});

describe.each(DIALECTS)('bounded memory whatever devices send (%s)', (dialect) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    user = await signUp(t.app);
  });
  afterAll(async () => t.close());

  it('thousands of parameter sets in writes and reads prepare a bounded number of statements', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: user.auth,
      payload: { name: 'r', mac: '40:00:00:00:00:01', typeCode: 13 },
    });
    const { device, ingestKey } = res.json() as { device: { id: number }; ingestKey: string };
    let seed = 7;
    const rnd = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    const now = Date.now() - 3 * H1;
    const usable = PARAMETERS.filter((p) => p.kind !== 'state' && p.name !== 'rssi');
    // 2,000 writes (600 on PostgreSQL, where each is a transaction over the network), each with its own
    // set of parameters, through the shared writer as ingest calls it. The previous code prepared a
    // statement per set: on either database this many sets leave a trace far above the bound.
    const identity = await t.ctx.telemetry.ingest.authenticate(ingestKey);
    const writes = dialect === 'sqlite' ? 2000 : 600;
    for (let i = 0; i < writes; i++) {
      const values: Record<string, number> = {};
      for (const p of usable) if (rnd() < 0.3) values[p.name] = p.kind === 'counter' ? 100 + i : Math.round(rnd() * 1000) / 10;
      values.vave1 = 230;
      await t.ctx.telemetry.writer.write({ deviceId: identity.id, tz: identity.timezone, readings: [{ ts: now + i * 1000, values }] });
    }
    for (let i = 0; i < 250; i++) {
      const params = usable.filter(() => rnd() < 0.2).map((p) => p.name);
      const interval = i % 2 ? 'raw' : '15m';
      const r = await t.app.inject({
        method: 'GET',
        url: `/api/devices/${device.id}/readings?from=${now - H1}&to=${now + 2 * H1}&interval=${interval}&params=${['vave1', ...params].join(',')}`,
        headers: user.auth,
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    await t.ctx.telemetry.compactNow();
    if (dialect === 'sqlite') {
      const counts = await t.ctx.telemetry.readingsRepository.statementCount();
      expect(counts.writes).toBeLessThan(150);
      expect(counts.reads).toBeLessThanOrEqual(400);
    } else {
      // Named (server-side prepared) statements per connection: the fixed upserts only.
      const pool = t.ctx.storage.pgPool as pg.Pool;
      const clients = await Promise.all(Array.from({ length: 5 }, () => pool.connect()));
      try {
        for (const c of clients) {
          const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements');
          expect(rows[0]?.n).toBeLessThanOrEqual(10);
        }
      } finally {
        for (const c of clients) c.release();
      }
    }
  }, 180_000);
});

describe('live flushes on PostgreSQL', () => {
  let ts: TestStorage | undefined;
  afterEach(async () => ts?.dispose());

  it('take one statement and no transaction; a late reading takes the transaction; a deleted device keeps nothing', async () => {
    ts = await createTestStorage('postgres');
    await insertOwnerWithDevices(ts.storage.db as never, 3, TZ);
    const pool = ts.storage.pgPool as pg.Pool;
    const repo = new ReadingsRepository(ts.storage);
    const t0 = floorTo(Date.now(), H1) - 3 * H1;
    const raw = async (id: number) =>
      (await pool.query('SELECT ts, vave1, rssi FROM readings WHERE device_id = $1 ORDER BY ts', [id])).rows.map((r) => [
        Number(r.ts),
        r.vave1,
        r.rssi,
      ]);
    await repo.write([{ deviceId: 1, tz: TZ, readings: [{ ts: t0, values: { vave1: 230 } }] }]);

    const query = vi.spyOn(pool, 'query');
    const connect = vi.spyOn(pool, 'connect');
    // Transactions take a client of their own (pool.query takes one too, and gives it back at once).
    const transactions = () => connect.mock.calls.length - query.mock.calls.length;
    await repo.write([
      { deviceId: 1, tz: TZ, readings: [{ ts: t0 + MIN, values: { vave1: 231, rssi: -70 } }] },
      {
        deviceId: 2,
        tz: TZ,
        readings: [
          { ts: t0 + MIN, values: { vave1: 232 } },
          { ts: t0 + 2 * MIN, values: { vave1: 233, rssi: -60 } },
        ],
      },
    ]);
    expect(query).toHaveBeenCalledTimes(1);
    expect(transactions()).toBe(0);
    expect(await raw(1)).toEqual([
      [t0, 230, null],
      [t0 + MIN, 231, -70],
    ]);
    expect(await raw(2)).toEqual([
      [t0 + MIN, 232, null],
      [t0 + 2 * MIN, 233, -60],
    ]);
    const device = async (id: number) =>
      (await pool.query('SELECT last_seen, last_rssi FROM devices WHERE id = $1', [id])).rows.map((r) => [
        Number(r.last_seen),
        r.last_rssi,
      ])[0];
    expect(await device(2)).toEqual([t0 + 2 * MIN, -60]);

    // Device 1 rolled up past its readings: a reading before its watermark is late, and the whole flush
    // (device 2's live reading too) goes through the transaction, which rolls the late one's hour up again.
    while (await repo.compactDue(floorTo(Date.now(), H1), 10_000)) {}
    expect(await repo.watermark(1)).toBeGreaterThan(t0);
    const before = (await packedRollupRows(ts.storage, 1)).length;
    expect(before).toBeGreaterThan(0);
    query.mockClear();
    connect.mockClear();
    await repo.write([
      { deviceId: 1, tz: TZ, readings: [{ ts: t0 + 3 * MIN, values: { vave1: 240 } }] },
      { deviceId: 2, tz: TZ, readings: [{ ts: Date.now() - MIN, values: { vave1: 234 } }] },
    ]);
    expect(transactions()).toBe(1);
    expect((await raw(1)).map((r) => r[1])).toEqual([230, 231, 240]);
    expect((await raw(2)).map((r) => r[1])).toEqual([232, 233, 234]);
    const service = new ReadingsService(repo);
    const hour = await service.readings(1, TZ, { from: t0, to: t0 + H1, interval: '1h', params: ['vave1'] });
    const vave1 = hour.series.vave1;
    expect(vave1?.kind).toBe('instant');
    expect(vave1?.kind === 'instant' ? [...vave1.max] : []).toEqual([240]);

    // A device deleted after its readings were accepted: nothing of it is kept, the others are.
    await pool.query('DELETE FROM devices WHERE id = 3');
    query.mockClear();
    connect.mockClear();
    await repo.write([
      { deviceId: 2, tz: TZ, readings: [{ ts: Date.now(), values: { vave1: 235 } }] },
      { deviceId: 3, tz: TZ, readings: [{ ts: Date.now(), values: { vave1: 236 } }] },
    ]);
    expect(query).toHaveBeenCalledTimes(1);
    expect(transactions()).toBe(0);
    expect((await raw(2)).map((r) => r[1])).toEqual([232, 233, 234, 235]);
    expect(await raw(3)).toEqual([]);
    await repo.close();
  });
});
