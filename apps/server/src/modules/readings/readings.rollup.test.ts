import { bucketEnergy, localDayStarts, zonedTimeToUtc } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS, packedRollupRows } from '../../test/storage.js';

const MIN = 60_000;
const TZ = 'Europe/Warsaw';

type Reading = { ts: number; values: Record<string, number> };

describe.each(DIALECTS)('rollups maintained on ingest (%s)', (dialect) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    user = await signUp(t.app);
  });
  afterAll(async () => t.close());

  const device = async (mac: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/devices', headers: user.auth, payload: { name: mac, mac, typeCode: 20 } });
    return res.json() as { device: { id: number }; ingestKey: string };
  };
  const post = async (key: string, readings: Reading[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ingest',
      headers: { 'x-device-key': key },
      payload: { readings: readings.map((r) => ({ ts: new Date(r.ts).toISOString(), values: r.values })) },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const get = async (id: number, q: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/devices/${id}/readings?${q}`, headers: user.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** Every stored rollup row of a device (all columns but the device id): packed UTC levels byte for byte, local days. */
  const rollups = async (id: number) => {
    const db = t.ctx.storage.db;
    const days = await db.selectFrom('rollup_day').selectAll().where('device_id', '=', id).orderBy('bucket').execute();
    return {
      packed: await packedRollupRows(t.ctx.storage, id),
      days: days.map(({ device_id: _, ...rest }) => rest),
    };
  };

  it('late, overlapping, repeated and partial readings leave every level equal to a rebuild from the final raw rows', async () => {
    const d = await device('20:00:00:00:00:01');
    // 22:00 local on the Saturday before the autumn DST change: the touched days include the 25-hour one.
    const base = zonedTimeToUtc(TZ, 2026, 10, 24, 22);
    const a: Reading[] = Array.from({ length: 360 }, (_, i) => ({
      ts: base + i * MIN,
      values: { vave1: 230 + (i % 11), pave1: 100 + (i % 13) * 5, eai1: 100 + i * 0.01 },
    }));
    await post(d.ingestKey, a);

    const b: Reading[] = [];
    // New timestamps between stored ones, inside buckets that already have rows.
    for (let i = 60; i < 90; i++) b.push({ ts: base + i * MIN + 30_000, values: { vave1: 215 + (i % 7), eai1: 100 + i * 0.01 + 0.004 } });
    // Repeated timestamps with other values: at i = 110 the stored 230 V was its 15-minute bucket's only minimum.
    for (let i = 100; i < 111; i++) b.push({ ts: base + i * MIN, values: { vave1: 240, pave1: 999, eai1: 100 + i * 0.01 } });
    // Repeated timestamps carrying only another parameter: the stored voltage stays.
    for (let i = 120; i < 126; i++) b.push({ ts: base + i * MIN, values: { pave1: 1 } });
    // A counter reset: the meter restarts from zero for ten minutes, then a swapped-back meter jumps up again.
    for (let i = 200; i < 210; i++) b.push({ ts: base + i * MIN, values: { eai1: 0.5 + (i - 200) * 0.01 } });
    // Sent newest first: the writer sorts.
    await post(d.ingestKey, b.reverse());
    // An earlier stretch arriving last, and a single reading into the middle of a stored bucket.
    await post(
      d.ingestKey,
      Array.from({ length: 60 }, (_, i) => ({ ts: base - 120 * MIN + i * 2 * MIN, values: { vave1: 228, eai1: 99 + i * 0.001 } })),
    );
    await post(d.ingestKey, [{ ts: base + 300 * MIN + 15_000, values: { vave1: 200, pave1: 5, eai1: 103.001 } }]);
    await t.ctx.telemetry.compactNow();

    const from = base - 120 * MIN;
    const to = base + 360 * MIN;
    const raw = await get(d.device.id, `from=${from}&to=${to}&interval=raw&params=vave1,pave1,eai1`);
    const ts = raw.ts as number[];
    const vave1 = raw.series.vave1.values as (number | null)[];
    const pave1 = raw.series.pave1.values as (number | null)[];
    const eai1 = raw.series.eai1.value as (number | null)[];
    expect(ts.length).toBe(360 + 30 + 60 + 1);
    // Raw rows keep what a repeat did not resend, and take what it did.
    expect(vave1[ts.indexOf(base + 121 * MIN)]).toBe(230 + (121 % 11));
    expect(pave1[ts.indexOf(base + 121 * MIN)]).toBe(1);
    expect(vave1[ts.indexOf(base + 100 * MIN)]).toBe(240);

    // Each interval from rollups against the same figures computed here from the raw rows.
    const samples = ts.flatMap((x, i) => (eai1[i] === null ? [] : [{ ts: x, value: eai1[i] as number }]));
    for (const interval of ['15m', '1h', '24h'] as const) {
      const roll = await get(d.device.id, `from=${from}&to=${to}&interval=${interval}&params=vave1,pave1,eai1`);
      const edges: number[] = interval === '24h' ? [...localDayStarts(from, to, TZ), zonedTimeToUtc(TZ, 2026, 10, 26)] : [...roll.ts, to];
      if (interval === '24h') expect(roll.ts).toEqual(edges.slice(0, -1));
      const edge = (i: number) => edges[i] ?? Number.NaN;
      expect(edge(2) - edge(1)).toBe(interval === '24h' ? 25 * 3_600_000 : edge(1) - edge(0));
      const { energy } = bucketEnergy(samples, edges);
      roll.series.eai1.delta.forEach((e: number, k: number) => {
        expect(e, `${interval} energy ${k}`).toBeCloseTo(energy[k] as number, 6);
      });
      for (const [name, values] of [
        ['vave1', vave1],
        ['pave1', pave1],
      ] as const) {
        edges.slice(0, -1).forEach((lo, k) => {
          const inBucket = ts.flatMap((x, i) =>
            x >= lo && x < (edges[k + 1] as number) && values[i] !== null ? [values[i] as number] : [],
          );
          const s = roll.series[name];
          if (inBucket.length === 0) {
            // The earlier stretch sent no power: its buckets say so rather than 0.
            expect([s.min[k], s.max[k], s.avg[k]], `${interval} ${name} ${k}`).toEqual([null, null, null]);
            return;
          }
          expect(s.min[k], `${interval} ${name} min ${k}`).toBe(Math.min(...inBucket));
          expect(s.max[k], `${interval} ${name} max ${k}`).toBe(Math.max(...inBucket));
          // Averages carry the meter's precision and a little more (2 decimals for W and V), not 17 digits.
          const mean = inBucket.reduce((x, y) => x + y, 0) / inBucket.length;
          expect(s.avg[k], `${interval} ${name} avg ${k}`).toBe(Math.round(mean * 100) / 100);
        });
      }
    }
    // The bucket whose minimum was replaced now has the next-lowest reading (231 V at i = 111) as its minimum.
    const q15 = await get(d.device.id, `from=${base + 105 * MIN}&to=${base + 120 * MIN}&interval=15m&params=vave1`);
    expect(q15.series.vave1.min).toEqual([231]);
    expect(q15.series.vave1.max).toEqual([240]);

    // Answers from stored rollups equal the same answers folded from raw rows on the fly, bit for bit.
    for (const interval of ['15m', '30m', '1h', '24h'] as const) {
      const q = { from: from + 7 * MIN, to: to - 11 * MIN, interval, params: ['vave1', 'pave1', 'eai1'] };
      const stored = await t.ctx.telemetry.readings.readings(d.device.id, TZ, q);
      expect(stored.ts.length, interval).toBeGreaterThan(1);
      expect(await t.ctx.telemetry.readings.readingsFromRaw(d.device.id, TZ, q), interval).toEqual(stored);
    }

    // The same final raw rows written in one go to a fresh device give bit-identical rollup rows.
    const fresh = await device('20:00:00:00:00:02');
    await post(
      fresh.ingestKey,
      ts.map((x, i) => ({
        ts: x,
        values: Object.fromEntries(
          (
            [
              ['vave1', vave1[i]],
              ['pave1', pave1[i]],
              ['eai1', eai1[i]],
            ] as const
          ).filter(([, v]) => v !== null),
        ) as Record<string, number>,
      })),
    );
    await t.ctx.telemetry.compactNow();
    const incremental = await rollups(d.device.id);
    // 15-minute and hourly spans of the three parameters and the reading counts, and the days.
    expect(incremental.packed.filter((r) => r.width === 15 * MIN).length).toBeGreaterThan(4);
    expect(incremental.days.length).toBeGreaterThan(1);
    expect(incremental).toEqual(await rollups(fresh.device.id));
  });

  it('readings arriving one at a time in and out of order build the same rollups as one batch', async () => {
    const one = await device('20:00:00:00:00:03');
    const all = await device('20:00:00:00:00:04');
    const base = zonedTimeToUtc(TZ, 2026, 3, 28, 23);
    // Every 40 s for 2 hours (crossing midnight local), sent in a scrambled order, one per request.
    const readings: Reading[] = Array.from({ length: 180 }, (_, i) => ({
      ts: base + i * 40_000,
      values: { vave1: 225 + ((i * 7) % 13), eai1: i % 90 === 89 ? 0.1 : 10 + i * 0.02 },
    }));
    const order = readings.map((_, i) => (i * 37) % readings.length);
    expect(new Set(order).size).toBe(readings.length);
    for (const i of order) await post(one.ingestKey, [readings[i] as Reading]);
    await post(all.ingestKey, readings);
    await t.ctx.telemetry.compactNow();
    expect(await rollups(one.device.id)).toEqual(await rollups(all.device.id));
  });

  it('history batches rolled up from their own columns equal their rows read back: after live readings, over stored ones, with -0', async () => {
    const a = await device('20:00:00:00:00:05');
    const b = await device('20:00:00:00:00:06');
    const base = zonedTimeToUtc(TZ, 2026, 5, 10, 8);
    const reading = (i: number, shift = 0): Reading => ({
      ts: base + i * MIN,
      values: { vave1: 228 + ((i * 3 + shift) % 7), pave1: i % 11 === 0 ? -0 : 100 + ((i + shift) % 9), eai1: 50 + i * 0.01 },
    });
    const final = new Map<number, Reading>();
    // Live readings for the first 20 minutes (one a request: nothing rolled up at once).
    for (let i = 0; i < 20; i++) {
      await post(a.ingestKey, [reading(i)]);
      final.set(i, reading(i));
    }
    // A history batch continuing them over three hours: rolled up from its columns, the 20 stored rows read.
    const history = Array.from({ length: 180 }, (_, k) => reading(20 + k));
    await post(a.ingestKey, history);
    for (const r of history) final.set((r.ts - base) / MIN, r);
    // Sent again with other values from 150 to 260 minutes: below the watermark (late), over stored rows
    // above it (read back, not folded from the batch), and new ones.
    const resend = Array.from({ length: 110 }, (_, k) => reading(150 + k, 5));
    await post(a.ingestKey, resend);
    for (const r of resend) final.set((r.ts - base) / MIN, r);
    await post(
      b.ingestKey,
      [...final.values()].sort((x, y) => x.ts - y.ts),
    );
    await t.ctx.telemetry.compactNow();
    expect(await rollups(a.device.id)).toEqual(await rollups(b.device.id));
    for (const interval of ['15m', '1h', '24h'] as const) {
      const q = { from: base, to: base + 5 * 60 * MIN, interval, params: ['vave1', 'pave1', 'eai1'] };
      const stored = await t.ctx.telemetry.readings.readings(a.device.id, TZ, q);
      expect(stored.ts.length, interval).toBeGreaterThan(0);
      expect(await t.ctx.telemetry.readings.readingsFromRaw(a.device.id, TZ, q), interval).toEqual(stored);
    }
  });
});
