import {
  addLocalDays,
  type Comparison,
  type ConsumptionResponse,
  type HeatmapResponse,
  localParts,
  type SumComparisonResponse,
  zonedTimeToUtc,
} from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';

const MIN = 60_000;
const H = 3_600_000;
const TZ = 'Europe/Warsaw';
type User = Awaited<ReturnType<typeof signUp>>;

/** 1 + … + 24: a day's energy when each local hour h uses h + 1 kWh. */
const DAY = 300;

/**
 * A meter whose local hour h uses (h + 1) × m kWh, m doubling from `doubleFrom` on, with vave1 = 200 + h:
 * readings every 15 minutes, the counter stepping (h + 1) × m / 4 after each. Every figure of the tests
 * below is computed by hand from this rule.
 */
function readings(from: number, to: number, doubleFrom = Number.POSITIVE_INFINITY) {
  const out: { ts: string; values: Record<string, number> }[] = [];
  let e = 1000;
  for (let t = from; t <= to; t += 15 * MIN) {
    const h = localParts(t, TZ).hour;
    out.push({ ts: new Date(t).toISOString(), values: { eai1: Math.round(e * 1e6) / 1e6, vave1: 200 + h } });
    e += ((h + 1) * (t >= doubleFrom ? 2 : 1)) / 4;
  }
  return out;
}

describe.each(DIALECTS)('analytics (%s)', (dialect) => {
  let t: TestApp;
  let user: User;
  let meter: number;
  let second: number;
  let macs = 0;
  const get = async <T>(url: string, who = user) => {
    const res = await t.app.inject({ method: 'GET', url, headers: who.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const heatmap = (kind: string, from: string, to: string, parameter = 'energy', id = meter) =>
    get<HeatmapResponse>(`/api/analytics/heatmap?deviceId=${id}&parameter=${parameter}&kind=${kind}&from=${from}&to=${to}`);

  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    user = await signUp(t.app);
    const ids: number[] = [];
    for (let k = 0; k < 2; k++) {
      const mac = `50:00:00:00:00:${String(++macs).padStart(2, '0')}`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: user.auth,
        payload: { name: `Meter ${k}`, mac, typeCode: 13 },
      });
      const d = res.json() as { device: { id: number }; ingestKey: string };
      ids.push(d.device.id);
      const all = [
        ...readings(zonedTimeToUtc(TZ, 2026, 3, 1), zonedTimeToUtc(TZ, 2026, 5, 1)),
        ...(k === 0 ? readings(zonedTimeToUtc(TZ, 2026, 10, 19), zonedTimeToUtc(TZ, 2026, 11, 2), zonedTimeToUtc(TZ, 2026, 10, 26)) : []),
      ];
      for (let i = 0; i < all.length; i += 5000) {
        const r = await t.app.inject({
          method: 'POST',
          url: '/api/ingest',
          headers: { 'x-device-key': d.ingestKey },
          payload: { readings: all.slice(i, i + 5000) },
        });
        expect(r.statusCode, r.body).toBe(200);
      }
    }
    [meter, second] = ids as [number, number];
    await t.ctx.telemetry.compactNow();
  });
  afterAll(async () => t?.close());

  it('daily heatmap: a cell per local hour, 23 on the spring day and 25 on the autumn day', async () => {
    const spring = await heatmap('daily', '2026-03-28', '2026-03-30');
    expect(spring).toMatchObject({
      kind: 'daily',
      unit: 'kWh',
      aggregate: 'sum',
      timezone: TZ,
      rows: ['2026-03-28', '2026-03-29', '2026-03-30'],
    });
    expect(spring.columns).toHaveLength(24);
    expect(spring.values.map((r) => r.length)).toEqual([24, 23, 24]);
    const hours24 = Array.from({ length: 24 }, (_, h) => h);
    const spring29 = hours24.filter((h) => h !== 2);
    expect(spring.hours).toEqual([hours24, spring29, hours24]);
    expect(spring.values[0]).toEqual(hours24.map((h) => h + 1));
    expect(spring.values[1]).toEqual(spring29.map((h) => h + 1));
    // Each cell starts at its local hour; the row ends at the next local midnight.
    const d29 = zonedTimeToUtc(TZ, 2026, 3, 29);
    expect(spring.starts?.[1]?.slice(0, 4)).toEqual([d29, d29 + H, d29 + 2 * H, d29 + 3 * H]);
    expect(spring.rowEnds?.[1]).toBe(d29 + 23 * H);

    const autumn = await heatmap('daily', '2026-10-25', '2026-10-25');
    const autumn25 = [0, 1, 2, 2, ...hours24.slice(3)];
    expect(autumn.hours).toEqual([autumn25]);
    expect(autumn.values).toEqual([autumn25.map((h) => h + 1)]);

    // An instantaneous parameter: the mean of the hour's readings.
    const volts = await heatmap('daily', '2026-03-29', '2026-03-29', 'vave1');
    expect(volts).toMatchObject({ unit: 'V', aggregate: 'average' });
    expect(volts.values).toEqual([spring29.map((h) => 200 + h)]);
  });

  it('weekly heatmap: each day of the week and hour averaged over the weeks', async () => {
    // 19 Oct 2026 is a Monday; the second week uses twice as much; the Sunday of the first has 02:00 twice.
    const w = await heatmap('weekly', '2026-10-19', '2026-11-01');
    expect(w.rows).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(w.starts).toBeNull();
    for (const [d, row] of w.values.entries()) {
      expect(row, `day ${d + 1}`).toEqual(Array.from({ length: 24 }, (_, h) => (d === 6 && h === 2 ? (3 + 3 + 6) / 3 : 1.5 * (h + 1))));
    }
  });

  it('monthly and yearly heatmaps: local days and months, the range cutting them', async () => {
    const m = await heatmap('monthly', '2026-03-01', '2026-04-30');
    expect(m.rows).toEqual(['2026-03', '2026-04']);
    expect(m.values.map((r) => r.length)).toEqual([31, 30]);
    expect(m.values[0]).toEqual(Array.from({ length: 31 }, (_, i) => (i === 28 ? DAY - 3 : DAY)));
    expect(m.values[1]).toEqual(Array(30).fill(DAY));
    expect(m.starts?.[0]?.[28]).toBe(zonedTimeToUtc(TZ, 2026, 3, 29));
    const oct = await heatmap('monthly', '2026-10-20', '2026-10-26');
    // Days outside the range are empty; 25 October has its hour 02:00 twice (+3); from the 26th on, twice as much.
    expect(oct.values[0]?.slice(17, 27)).toEqual([null, null, DAY, DAY, DAY, DAY, DAY, DAY + 3, 2 * DAY, null]);

    const y = await heatmap('yearly', '2026-03-15', '2026-04-30');
    expect(y.rows).toEqual(['2026']);
    // March from the 15th (17 days, the 29th of 23 hours) and all of April.
    expect(y.values[0]).toEqual([null, null, 17 * DAY - 3, 30 * DAY, null, null, null, null, null, null, null, null]);
    expect(y.starts?.[0]?.[3]).toBe(zonedTimeToUtc(TZ, 2026, 4, 1));
  });

  it('heatmap input: the range limit, bad dates and another user', async () => {
    const bad = async (query: string, field: string, key: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/analytics/heatmap?${query}`, headers: user.auth });
      expect(res.statusCode, query).toBe(400);
      expect((res.json() as { errors: unknown[] }).errors).toContainEqual(expect.objectContaining({ field, key }));
    };
    await bad(`deviceId=${meter}&kind=daily&from=2025-01-01&to=2026-03-01`, 'to', 'validation.rangeTooLong');
    await bad(`deviceId=${meter}&kind=daily&from=2026-03-02&to=2026-03-01`, 'to', 'validation.dateOrder');
    await bad(`deviceId=${meter}&kind=daily&from=2026-02-30&to=2026-03-01`, 'from', 'validation.date');
    await bad(`deviceId=${meter}&kind=daily&from=2026-03-01&to=2026-03-01&parameter=volts`, 'parameter', 'validation.parameter');
    const other = await signUp(t.app);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/analytics/heatmap?deviceId=${meter}&kind=daily&from=2026-03-01&to=2026-03-01`,
      headers: other.auth,
    });
    expect(res.statusCode).toBe(404);
  });

  it('consumption table: the Total does not add a production device (issue 33), which is still shown', async () => {
    const from = zonedTimeToUtc(TZ, 2026, 3, 28);
    const to = addLocalDays(from, 3, TZ);
    const put = (role: string | null) =>
      t.app.inject({ method: 'PUT', url: `/api/devices/${second}`, headers: user.auth, payload: { role } });
    expect((await put('production')).statusCode).toBe(200);
    try {
      const c = await get<ConsumptionResponse>(
        `/api/analytics/consumption?deviceIds=${meter},${second}&from=${from}&to=${to}&interval=24h`,
      );
      expect(c.devices.map((d) => [d.total, d.inTotal])).toEqual([
        [3 * DAY - 3, true],
        [3 * DAY - 3, false],
      ]);
      expect(c.total).toBe(3 * DAY - 3);
      expect(c.rows[0]).toMatchObject({ values: [DAY, DAY], total: DAY });
    } finally {
      expect((await put(null)).statusCode).toBe(200);
    }
  });

  it('consumption table: energy per device and bucket with totals, sorted and paged', async () => {
    const from = zonedTimeToUtc(TZ, 2026, 3, 28);
    const to = addLocalDays(from, 3, TZ);
    const c = await get<ConsumptionResponse>(`/api/analytics/consumption?deviceIds=${meter},${second}&from=${from}&to=${to}&interval=24h`);
    expect(c.devices).toEqual([
      { id: meter, name: 'Meter 0', total: 3 * DAY - 3, inTotal: true },
      { id: second, name: 'Meter 1', total: 3 * DAY - 3, inTotal: true },
    ]);
    expect(c.total).toBe(2 * (3 * DAY - 3));
    expect(c.rows).toEqual([
      { start: from, end: addLocalDays(from, 1, TZ), values: [DAY, DAY], total: 2 * DAY },
      { start: addLocalDays(from, 1, TZ), end: addLocalDays(from, 2, TZ), values: [DAY - 3, DAY - 3], total: 2 * DAY - 6 },
      { start: addLocalDays(from, 2, TZ), end: to, values: [DAY, DAY], total: 2 * DAY },
    ]);
    const sorted = await get<ConsumptionResponse>(
      `/api/analytics/consumption?deviceIds=${meter}&from=${from}&to=${to}&interval=1h&sort=device:${meter}&dir=desc&pageSize=25&page=1`,
    );
    expect(sorted.totalRows).toBe(71);
    expect(sorted.rows).toHaveLength(25);
    expect(sorted.rows.slice(0, 4).map((r) => r.values[0])).toEqual([24, 24, 24, 23]);
    const last = await get<ConsumptionResponse>(
      `/api/analytics/consumption?deviceIds=${meter}&from=${from}&to=${to}&interval=1h&pageSize=25&page=3`,
    );
    expect(last.rows).toHaveLength(21);
    expect(last.rows[20]?.values).toEqual([24]);
    const months = await get<ConsumptionResponse>(
      `/api/analytics/consumption?deviceIds=${meter}&from=${zonedTimeToUtc(TZ, 2026, 3, 1)}&to=${zonedTimeToUtc(TZ, 2026, 5, 1)}&interval=month`,
    );
    expect(months.rows.map((r) => r.values[0])).toEqual([31 * DAY - 3, 30 * DAY]);
    const other = await signUp(t.app);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/analytics/consumption?deviceIds=${meter}&from=${from}&to=${to}`,
      headers: other.auth,
    });
    expect(res.statusCode).toBe(404);
  });

  it('sum comparison: periods and devices side by side with the difference in kWh and %', async () => {
    const post = async (body: object) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/analytics/sums', headers: user.auth, payload: body });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as SumComparisonResponse;
    };
    const march = { deviceId: meter, from: String(zonedTimeToUtc(TZ, 2026, 3, 1)), to: String(zonedTimeToUtc(TZ, 2026, 4, 1)) };
    const april = { deviceId: meter, from: String(zonedTimeToUtc(TZ, 2026, 4, 1)), to: String(zonedTimeToUtc(TZ, 2026, 5, 1)) };
    const s = await post({ items: [march, april, { ...march, deviceId: second }] });
    expect(s).toMatchObject({ parameter: 'energy', unit: 'kWh', aggregate: 'sum' });
    expect(s.items.map((i) => [i.value, i.difference, i.percent])).toEqual([
      [31 * DAY - 3, null, null],
      [30 * DAY, -DAY + 3, -3.19],
      [31 * DAY - 3, 0, 0],
    ]);
    expect(s.items.map((i) => i.coverage)).toEqual([1, 1, 1]);
    // A period whose history began on its last day: how much of it has data, and no percentage against it
    // (a month with data against 1 day of 28 said −96 %), either way round.
    const feb = { deviceId: meter, from: String(zonedTimeToUtc(TZ, 2026, 2, 2)), to: String(zonedTimeToUtc(TZ, 2026, 3, 2)) };
    const thin = await post({ items: [march, feb] });
    expect(thin.items[1]?.value).toBe(DAY);
    expect(thin.items[1]?.coverage).toBeCloseTo(1 / 28, 2);
    expect(thin.items[1]?.difference).toBe(DAY - (31 * DAY - 3));
    expect(thin.items[1]?.percent).toBeNull();
    const reversed = await post({ items: [feb, march] });
    expect(reversed.items[0]?.coverage).toBeCloseTo(1 / 28, 2);
    expect(reversed.items[1]?.percent).toBeNull();
    // A long period (days counted): March–April fully covered, January–February not at all.
    const spring = { deviceId: meter, from: march.from, to: april.to };
    const winter = { deviceId: meter, from: String(zonedTimeToUtc(TZ, 2026, 1, 1)), to: String(zonedTimeToUtc(TZ, 2026, 3, 1)) };
    const long = await post({ items: [spring, winter] });
    expect(long.items.map((i) => i.coverage)).toEqual([1, 0]);
    expect(long.items[1]?.percent).toBeNull();
    // Not whole days: hours (10:00–14:00 local on 10 March, hours 10…13 use 11 + 12 + 13 + 14).
    const day = zonedTimeToUtc(TZ, 2026, 3, 10);
    const part = await post({ items: [{ deviceId: meter, from: String(day + 10 * H), to: String(day + 14 * H) }, march] });
    expect(part.items[0]?.value).toBe(50);
    const volts = await post({ parameter: 'vave1', items: [march, april] });
    expect(volts).toMatchObject({ unit: 'V', aggregate: 'average' });
    // Every hour of every day once, so the mean of 200 + h is 211.5 (the 23-hour day lacks 202).
    expect(volts.items[1]?.value).toBe(211.5);
    const res = await t.app.inject({ method: 'POST', url: '/api/analytics/sums', headers: user.auth, payload: { items: [march] } });
    expect(res.statusCode).toBe(400);
  });

  it('saved comparisons: create, list, rename, delete, with the rules of the spec', async () => {
    const send = (method: 'POST' | 'PUT' | 'GET' | 'DELETE', url: string, payload?: unknown, who = user) =>
      t.app.inject({ method, url, headers: who.auth, ...(payload === undefined ? {} : { payload: payload as object }) });
    const series = [
      { deviceId: meter, parameter: 'vave1' },
      { deviceId: second, parameter: 'energy' },
    ];
    for (const [body, field, key] of [
      [{ name: 'ab', series }, 'name', 'validation.comparisonName'],
      [{ name: 'x'.repeat(31), series }, 'name', 'validation.comparisonName'],
      [{ name: 'Kitchen', series: [] }, 'series', 'validation.parameters'],
      [{ name: 'Kitchen', series: [{ deviceId: meter, parameter: 'nope' }] }, 'series.0.parameter', 'validation.parameter'],
      [{ name: 'Kitchen', series: [series[0], series[0]] }, 'series', 'validation.duplicateSeries'],
    ] as const) {
      const res = await send('POST', '/api/comparisons', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect((res.json() as { errors: unknown[] }).errors).toContainEqual(expect.objectContaining({ field, key }));
    }
    const created = await send('POST', '/api/comparisons', { name: '  Kuchnia i łazienka ', series });
    expect(created.statusCode, created.body).toBe(200);
    const c = created.json() as Comparison;
    expect(c).toMatchObject({ name: 'Kuchnia i łazienka', series });
    expect((await send('GET', '/api/comparisons')).json()).toEqual([c]);
    const renamed = await send('PUT', `/api/comparisons/${c.id}`, { name: 'Mutfak', series: [series[1]] });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: c.id, name: 'Mutfak', series: [series[1]] });
    // Another user: the comparison does not exist, nor may a series name another's device.
    const other = await signUp(t.app);
    for (const [method, url, body] of [
      ['GET', `/api/comparisons/${c.id}`, undefined],
      ['PUT', `/api/comparisons/${c.id}`, { name: 'Stolen', series: [series[1]] }],
      ['DELETE', `/api/comparisons/${c.id}`, undefined],
      ['POST', '/api/comparisons', { name: 'Spy', series: [series[0]] }],
    ] as const) {
      expect((await send(method, url, body, other)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await send('GET', '/api/comparisons', undefined, other)).json()).toEqual([]);
    expect((await send('GET', `/api/comparisons/${c.id}`)).json()).toMatchObject({ name: 'Mutfak' });
    expect((await send('DELETE', `/api/comparisons/${c.id}`)).statusCode).toBe(200);
    expect((await send('GET', `/api/comparisons/${c.id}`)).statusCode).toBe(404);
    expect((await send('DELETE', `/api/comparisons/${c.id}`)).statusCode).toBe(404);
  });
});
