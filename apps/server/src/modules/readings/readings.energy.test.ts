import { addLocalDays, startOfLocalDay, zonedTimeToUtc } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { clearOfLocalMidnight } from '../../test/clock.js';
import { DIALECTS } from '../../test/storage.js';

const MIN = 60_000;
const H = 3_600_000;
const TZ = 'Europe/Warsaw';

type Reading = { ts: number; values: Record<string, number> };

/**
 * The energy rules of packages/shared/src/energy/counter.ts through the API: a bucket holds E(end) − E(start),
 * E interpolated between readings; gaps spread and flagged; noise never counted; answers the same
 * whether buckets come from rollups or from raw rows past the watermark.
 */
describe.each(DIALECTS)('energy where it was used (%s)', (dialect) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let macs = 0;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    user = await signUp(t.app);
  });
  afterAll(async () => t.close());

  const device = async () => {
    const mac = `30:00:00:00:00:${(++macs).toString(16).padStart(2, '0')}`;
    const res = await t.app.inject({ method: 'POST', url: '/api/devices', headers: user.auth, payload: { name: mac, mac, typeCode: 20 } });
    return res.json() as { device: { id: number }; ingestKey: string };
  };
  const post = async (key: string, readings: Reading[]) => {
    for (let i = 0; i < readings.length; i += 5000) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        headers: { 'x-device-key': key },
        payload: { readings: readings.slice(i, i + 5000).map((r) => ({ ts: new Date(r.ts).toISOString(), values: r.values })) },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  };
  const get = async (id: number, from: number, to: number, interval: string, params = 'eai1') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/devices/${id}/readings?from=${from}&to=${to}&interval=${interval}&params=${params}`,
      headers: user.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { ts: number[]; series: Record<string, { delta: (number | null)[]; estimated?: number[]; avg?: number[] }> };
  };
  /** The answer with rollups compacted, and checked to equal the one computed past the watermark before. */
  const settled = async (id: number, from: number, to: number, interval: string, params = 'eai1') => {
    const before = await get(id, from, to, interval, params);
    await t.ctx.telemetry.compactNow();
    const after = await get(id, from, to, interval, params);
    expect(after).toEqual(before);
    return after;
  };
  const energyOf = (r: Awaited<ReturnType<typeof get>>) => r.series.eai1?.delta ?? [];

  it('a 15-minute meter on local midnights: each quarter holds its own step and a day the counter difference between its midnights', async () => {
    const d = await device();
    const day = zonedTimeToUtc(TZ, 2026, 6, 10);
    // +0.3 kWh every 15 minutes from a local midnight, for two days and a quarter.
    await post(
      d.ingestKey,
      Array.from({ length: 2 * 96 + 2 }, (_, i) => ({ ts: day + i * 15 * MIN, values: { eai1: 1000 + i * 0.3 } })),
    );
    const days = await settled(d.device.id, day, addLocalDays(day, 2, TZ), '24h');
    expect(days.ts).toEqual([day, addLocalDays(day, 1, TZ)]);
    expect(energyOf(days)).toEqual([28.8, 28.8]);
    const quarters = await settled(d.device.id, day, day + 4 * H, '15m');
    expect(energyOf(quarters)).toEqual(Array(16).fill(0.3));
    const hours = await settled(d.device.id, day + 21 * H, day + 24 * H, '1h');
    // 21:00–22:00 holds 21:00 → 22:00: a zone starting at 22:00 is not charged for 21:45–22:00.
    expect(energyOf(hours)).toEqual([1.2, 1.2, 1.2]);
  });

  it('local days of 23 and 25 hours in Warsaw (2026-03-29, 2026-10-25) take the counter difference between their midnights', async () => {
    for (const [m, day, hours] of [
      [3, 29, 23],
      [10, 25, 25],
    ] as const) {
      const d = await device();
      const start = zonedTimeToUtc(TZ, 2026, m, day);
      const end = addLocalDays(start, 1, TZ);
      expect(end - start).toBe(hours * H);
      await post(
        d.ingestKey,
        Array.from({ length: hours * 4 + 9 }, (_, i) => ({ ts: start - H + i * 15 * MIN, values: { eai1: 10 + i * 0.25 } })),
      );
      const r = await settled(d.device.id, start, end, '24h');
      expect(r.ts).toEqual([start]);
      expect(energyOf(r)).toEqual([hours * 4 * 0.25]);
    }
  });

  it('interpolates boundaries between readings off them; a reset counts from zero mid-bucket and on a boundary', async () => {
    const d = await device();
    const t0 = Date.parse('2026-06-11T10:00:00Z');
    await post(d.ingestKey, [
      { ts: t0 + 5 * MIN, values: { eai1: 10 } },
      { ts: t0 + 20 * MIN, values: { eai1: 13 } },
      { ts: t0 + 35 * MIN, values: { eai1: 13.3 } },
    ]);
    // E(10:15) = 12 and E(10:30) = 13.2, and nothing is extrapolated past 10:35.
    expect(energyOf(await settled(d.device.id, t0, t0 + 45 * MIN, '15m'))).toEqual([2, 1.2, 0.1]);

    const r = await device();
    const t1 = Date.parse('2026-06-12T10:00:00Z');
    await post(r.ingestKey, [
      { ts: t1, values: { eai1: 500 } },
      { ts: t1 + 5 * MIN, values: { eai1: 501 } },
      { ts: t1 + 10 * MIN, values: { eai1: 0.4 } },
      { ts: t1 + 15 * MIN, values: { eai1: 0.9 } },
      { ts: t1 + 25 * MIN, values: { eai1: 900 } },
      { ts: t1 + 30 * MIN, values: { eai1: 0.5 } },
      { ts: t1 + 40 * MIN, values: { eai1: 1.5 } },
    ]);
    // [10:00, 10:15): 1 kWh, then 0.4 counted from zero, then the step to 0.9 that ends on the boundary.
    // [10:15, 10:30): 899.1 up to a swapped meter's 900; its reset on 10:30 ends in that bucket too (+0.5).
    expect(energyOf(await settled(r.device.id, t1, t1 + 45 * MIN, '15m'))).toEqual([1.9, 899.6, 1]);
  });

  it('spreads a 6-hour gap over its hours and flags them estimated', async () => {
    const d = await device();
    const t0 = Date.parse('2026-06-13T00:00:00Z');
    // Every 5 minutes, 1 kWh an hour, nothing between 01:00 and 07:00.
    const readings = Array.from({ length: 97 }, (_, i) => ({ ts: t0 + i * 5 * MIN, values: { eai1: 10 + i / 12, vave1: 230 } })).filter(
      (r) => r.ts <= t0 + H || r.ts >= t0 + 7 * H,
    );
    await post(d.ingestKey, readings);
    const r = await settled(d.device.id, t0, t0 + 8 * H, '1h', 'eai1,vave1');
    // Every hour is in the answer, the six without readings too, with their share of the gap.
    expect(r.ts).toEqual(Array.from({ length: 8 }, (_, h) => t0 + h * H));
    for (const e of energyOf(r)) expect(e).toBeCloseTo(1, 6);
    expect(r.series.eai1?.estimated).toEqual([1, 2, 3, 4, 5, 6]);
    // 01:00 itself is a reading (of the hour 01:00–02:00); the five hours after it have none.
    expect(r.series.vave1?.avg).toEqual([230, 230, null, null, null, null, null, 230]);
    const day = await settled(d.device.id, t0, t0 + 8 * H, '24h');
    expect(day.series.eai1?.estimated).toEqual([0]);
  });

  it('ignores jitter of −0.001 kWh, and counts a drop to near zero as a reset', async () => {
    const d = await device();
    const t0 = Date.parse('2026-06-14T00:00:00Z');
    const values = [100, 100.5, 100.499, 100.5, 100.499, 100.501, 100.5, 101];
    await post(
      d.ingestKey,
      values.map((v, i) => ({ ts: t0 + i * 2 * MIN, values: { eai1: v } })),
    );
    expect(energyOf(await settled(d.device.id, t0, t0 + 30 * MIN, '15m'))).toEqual([1]);
    expect(energyOf(await settled(d.device.id, t0, t0 + H, '1h'))).toEqual([1]);

    const r = await device();
    await post(
      r.ingestKey,
      [100, 101, 0.2, 0.7].map((v, i) => ({ ts: t0 + i * 2 * MIN, values: { eai1: v } })),
    );
    expect(energyOf(await settled(r.device.id, t0, t0 + 15 * MIN, '15m'))).toEqual([1.7]);
  });

  it('late and out-of-order readings give the answers in-order ones give, before and after compaction', async () => {
    const inOrder = await device();
    const scrambled = await device();
    const t0 = Date.parse('2026-06-15T22:00:00Z');
    // Every 40 s for 4 hours with noise, a reset and a 40-minute hole.
    const readings: Reading[] = [];
    let v = 50;
    for (let i = 0; i < 360; i++) {
      if (i >= 100 && i < 160) continue;
      v = i === 250 ? 0.3 : i % 7 === 3 ? v - 0.001 : v + 0.013;
      readings.push({ ts: t0 + i * 40_000, values: { eai1: Math.round(v * 1000) / 1000, pave1: 100 + (i % 9) } });
    }
    await post(inOrder.ingestKey, readings);
    await t.ctx.telemetry.compactNow();
    // The other device: the newest half first, rolled up, then the rest one by one in a scrambled order (late).
    await post(scrambled.ingestKey, readings.slice(150));
    await t.ctx.telemetry.compactNow();
    const rest = readings.slice(0, 150);
    for (let k = 0; k < rest.length; k++) await post(scrambled.ingestKey, [rest[(k * 37) % rest.length] as Reading]);
    for (const interval of ['15m', '30m', '1h', '24h']) {
      const want = await get(inOrder.device.id, t0 - H, t0 + 5 * H, interval, 'eai1,pave1');
      expect(await get(scrambled.device.id, t0 - H, t0 + 5 * H, interval, 'eai1,pave1'), interval).toEqual(want);
    }
  });

  it('energy today and in total equal the counter difference, wherever the watermark stands', async () => {
    const d = await device();
    // The server answers "today" at its own clock: the test's day must be the server's for all of it.
    await clearOfLocalMidnight([TZ], 60_000);
    const now = Date.now();
    const midnight = startOfLocalDay(now, TZ);
    // Every 10 minutes from yesterday 20:00 local up to now, now included, +0.1 kWh each: midnight is
    // always a reading (the 25th), also in the day's first 10 minutes.
    const first = midnight - 4 * H;
    const readings = Array.from({ length: Math.floor((now - first) / (10 * MIN)) + 1 }, (_, i) => ({
      ts: first + i * 10 * MIN,
      values: { eai1: 5 + i * 0.1 },
    }));
    await post(d.ingestKey, readings);
    const energy = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/devices/${d.device.id}/energy`, headers: user.auth })).json() as {
        today: { energyKwh: number; from: number };
        measuredTotalKwh: number;
      };
    const before = await energy();
    await t.ctx.telemetry.compactNow();
    const after = await energy();
    // (The spans end at the time of asking; the figures are the same.)
    expect([after.today.energyKwh, after.measuredTotalKwh]).toEqual([before.today.energyKwh, before.measuredTotalKwh]);
    const last = readings[readings.length - 1] as Reading;
    // E(now) − E(midnight): the midnight reading's counter is 5 + 24 × 0.1.
    expect(after.today.from).toBe(midnight);
    expect(after.today.energyKwh).toBeCloseTo((last.values.eai1 as number) - (5 + 24 * 0.1), 6);
    expect(after.measuredTotalKwh).toBeCloseTo((last.values.eai1 as number) - 5, 6);
  }, 120_000);
});
