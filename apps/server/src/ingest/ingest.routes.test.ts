import { bucketEnergy, localDayStarts, zonedTimeToUtc } from '@phasewatch/shared';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReadingCommitted } from '../events/bus.js';
import { buildTestApp, signUp, type TestApp } from '../test/app.js';
import { useOwnBroker } from '../test/broker.js';
import { DIALECTS } from '../test/storage.js';
import { INGEST_BODY_LIMIT } from './ingest.routes.js';

const MIN = 60_000;

const broker = useOwnBroker();

describe.each(DIALECTS)('ingest, readings and energy (%s)', (dialect) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    // Long retention: the DST fixtures are fixed dates in 2026, whatever the clock says.
    t = await buildTestApp(dialect, { mqttUrl: broker.url(), rawRetentionDays: 36_500 });
    user = await signUp(t.app);
  });
  afterAll(async () => t.close());

  const device = async (mac: string, typeCode = 20) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/devices', headers: user.auth, payload: { name: mac, mac, typeCode } });
    return res.json() as { device: { id: number; mac: string }; ingestKey: string };
  };
  const post = (key: string, readings: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/ingest', headers: { 'x-device-key': key }, payload: { readings } as object });
  const rawCount = async (id: number) =>
    Number(
      (
        await t.ctx.storage.db
          .selectFrom('readings')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('device_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('accepts a batch after commit, emits events, and a repeat is idempotent', async () => {
    const d = await device('10:00:00:00:00:01');
    const base = Date.now() - 19.5 * MIN;
    const readings = Array.from({ length: 20 }, (_, i) => ({
      ts: new Date(base + i * MIN).toISOString(),
      values: { vave1: 230 + i, eai1: 100 + i * 0.1, rssi: -80 },
    }));
    const seen: ReadingCommitted[] = [];
    const visible: Promise<number>[] = [];
    const statuses: unknown[] = [];
    const onReading = (e: ReadingCommitted) => {
      seen.push(e);
      // Emitted after commit: a query issued from the listener already sees every row.
      visible.push(rawCount(e.deviceId));
    };
    const onStatus = (e: unknown) => statuses.push(e);
    t.ctx.events.on('readingCommitted', onReading);
    t.ctx.events.on('deviceStatusChanged', onStatus);
    const res = await post(d.ingestKey, readings);
    t.ctx.events.off('readingCommitted', onReading);
    expect(res.statusCode).toBe(200);
    // The device's coming online is announced once, soon after the answer (it does not wait for it).
    await vi.waitFor(() => expect(statuses).toHaveLength(1), { timeout: 5_000 });
    t.ctx.events.off('deviceStatusChanged', onStatus);
    expect(res.json()).toEqual({ accepted: 20 });
    expect(await rawCount(d.device.id)).toBe(20);
    expect(seen).toHaveLength(20);
    expect(await Promise.all(visible)).toEqual(Array(20).fill(20));
    expect(seen[19]).toEqual({
      deviceId: d.device.id,
      userId: user.userId,
      ts: base + 19 * MIN,
      values: { vave1: 249, eai1: 101.9, rssi: -80 },
    });
    expect(statuses).toEqual([{ deviceId: d.device.id, userId: user.userId, status: 'online', weakSignal: true }]);

    const again = await post(d.ingestKey, readings);
    expect(again.json()).toEqual({ accepted: 20 });
    expect(await rawCount(d.device.id)).toBe(20);
    const list = (await t.app.inject({ method: 'GET', url: '/api/devices', headers: user.auth })).json();
    expect(list.find((x: { id: number }) => x.id === d.device.id)).toMatchObject({
      status: 'online',
      weakSignal: true,
      totalEnergyKwh: 1.9,
    });
  });

  it('raw readings from a time inside a 5-minute bucket give the delta from the reading just before', async () => {
    const d = await device('10:00:00:00:00:0F');
    const start = Math.floor((Date.now() - 2 * 3_600_000) / (5 * MIN)) * 5 * MIN;
    const readings = Array.from({ length: 10 }, (_, i) => ({
      ts: new Date(start + i * MIN).toISOString(),
      values: { eai1: 1000 + i / 10 },
    }));
    expect((await post(d.ingestKey, readings)).json()).toEqual({ accepted: 10 });
    const q = new URLSearchParams({ from: String(start + 2 * MIN), to: String(start + 6 * MIN), interval: 'raw', params: 'eai1' });
    const res = await t.app.inject({ method: 'GET', url: `/api/devices/${d.device.id}/readings?${q}`, headers: user.auth });
    expect(res.statusCode).toBe(200);
    const delta = res.json().series.eai1.delta as number[];
    expect(delta).toHaveLength(4);
    for (const e of delta) expect(e).toBeCloseTo(0.1, 9);
  });

  it('rejects bad input with a clear 4xx and writes nothing', async () => {
    const d = await device('10:00:00:00:00:02');
    const ok = { ts: new Date(Date.now() - MIN).toISOString(), values: { vave1: 230 } };
    expect((await post('wrong-key', [ok])).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/ingest', payload: { readings: [ok] } })).statusCode).toBe(401);
    const cases: [unknown, string][] = [
      [[ok, { ts: ok.ts, values: { nope: 1 } }], 'readings.1.values.nope'],
      [[ok, { ts: ok.ts, values: { vave1: 'x' } }], 'readings.1.values.vave1'],
      [[ok, { ts: ok.ts, values: { vave1: null } }], 'readings.1.values.vave1'],
      [[ok, { ts: new Date(Date.now() + 10 * MIN).toISOString(), values: { vave1: 1 } }], 'readings.1.ts'],
      [[ok, { ts: 'yesterday', values: { vave1: 1 } }], 'readings.1.ts'],
      [[ok, { ts: '2026-01-01T00:00:00', values: { vave1: 1 } }], 'readings.1.ts'],
      [[ok, { ts: '1900-01-01T00:00:00Z', values: { vave1: 1 } }], 'readings.1.ts'],
      [[ok, { ts: '2026-02-31T10:00:00Z', values: { vave1: 1 } }], 'readings.1.ts'],
      [[ok, { ts: '2026-02-30T10:00:00.000Z', values: { vave1: 1 } }], 'readings.1.ts'],
      [[ok, { ts: ok.ts, values: { eai1: 1e303 } }], 'readings.1.values.eai1'],
      [[ok, { ts: ok.ts, values: { eai1: -3 } }], 'readings.1.values.eai1'],
      [[ok, { ts: ok.ts, values: { pave1: 2e9 } }], 'readings.1.values.pave1'],
      [Array.from({ length: 5001 }, () => ok), 'readings'],
      [[], 'readings'],
    ];
    for (const [readings, field] of cases) {
      const res = await post(d.ingestKey, readings);
      expect(res.statusCode, JSON.stringify(readings).slice(0, 200)).toBe(400);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    // NaN / Infinity cannot be written in JSON: a body carrying them is malformed.
    const nan = await t.app.inject({
      method: 'POST',
      url: '/api/ingest',
      headers: { 'x-device-key': d.ingestKey, 'content-type': 'application/json' },
      payload: `{"readings":[{"ts":"${ok.ts}","values":{"vave1":NaN}}]}`,
    });
    expect(nan.statusCode).toBe(400);
    expect(await rawCount(d.device.id)).toBe(0);
    // A full batch of 5,000 fits the body limit.
    const base = Date.now() - 6000 * MIN;
    const full = Array.from({ length: 5000 }, (_, i) => ({
      ts: new Date(base + i * MIN).toISOString(),
      values: { vave1: 230, eai1: i * 0.01 },
    }));
    expect((await post(d.ingestKey, full)).json()).toEqual({ accepted: 5000 });
    expect(await rawCount(d.device.id)).toBe(5000);
  });

  it('looks up many devices’ keys sent at once together: every known key is taken, an unknown one refused', async () => {
    const fleet = await Promise.all(Array.from({ length: 30 }, (_, n) => device(`10:00:00:00:02:${String(n).padStart(2, '0')}`)));
    const ts = new Date(Date.now() - MIN).toISOString();
    const answers = await Promise.all([
      ...fleet.map((d) => post(d.ingestKey, [{ ts, values: { vave1: 230 } }])),
      post('no-such-key', [{ ts, values: { vave1: 230 } }]),
      // The same key twice in one turn: both wait for the one lookup.
      post(fleet[0]?.ingestKey as string, [{ ts: new Date(Date.now() - 2 * MIN).toISOString(), values: { vave1: 231 } }]),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([...fleet.map(() => 200), 401, 200]);
    for (const d of fleet.slice(0, 3)) expect(await rawCount(d.device.id)).toBeGreaterThan(0);
    expect(await rawCount(fleet[0]?.device.id as number)).toBe(2);
  });

  it('refuses a deleted device’s key at once, though its identity was cached a moment before', async () => {
    const d = await device('10:00:00:00:03:01');
    const reading = (ago: number) => [{ ts: new Date(Date.now() - ago * MIN).toISOString(), values: { vave1: 230 } }];
    // Two POSTs: the second is answered from the identity cache.
    expect((await post(d.ingestKey, reading(3))).statusCode).toBe(200);
    expect((await post(d.ingestKey, reading(2))).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/devices/${d.device.id}`, headers: user.auth });
    expect(del.statusCode).toBe(200);
    const after = await post(d.ingestKey, reading(1));
    expect(after.statusCode).toBe(401);
    expect(await rawCount(d.device.id)).toBe(0);
  });

  it('answers a batch read into columns exactly as one parsed as objects (same errors, same stored rows)', async () => {
    const rawPost = (key: string, body: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        headers: { 'x-device-key': key, 'content-type': 'application/json' },
        payload: body,
      });
    const base = Date.now() - 500 * MIN;
    const readings = Array.from({ length: 400 }, (_, i) => ({
      ts: new Date(base + i * MIN).toISOString(),
      values: { vave1: 230 + (i % 7) / 10, pave1: -12.5 + i, eai1: 100 + i * 0.001 },
    }));
    const plain = JSON.stringify({ readings });
    // An escaped key (`\u0074s` is `ts`) sends the same batch down the general path.
    const escaped = plain.replace('"ts"', '"\\u0074s"');
    expect(plain.length).toBeGreaterThan(16_384);
    // Two readings outside the window: the same field errors either way, and nothing stored.
    const late = JSON.parse(plain) as { readings: { ts: string }[] };
    (late.readings[7] as { ts: string }).ts = new Date(Date.now() + 10 * MIN).toISOString();
    (late.readings[9] as { ts: string }).ts = '1900-01-01T00:00:00.000Z';
    const lateText = JSON.stringify(late);
    const a = await device('10:00:00:00:00:1A');
    const b = await device('10:00:00:00:00:1B');
    const fast = await rawPost(a.ingestKey, lateText);
    const slow = await rawPost(b.ingestKey, lateText.replace('"ts"', '"\\u0074s"'));
    expect(fast.statusCode).toBe(400);
    expect(fast.json()).toEqual(slow.json());
    expect((fast.json() as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual(['readings.7.ts', 'readings.9.ts']);
    expect(await rawCount(a.device.id)).toBe(0);
    // Accepted either way, with the same rows read back.
    expect((await rawPost(a.ingestKey, plain)).json()).toEqual({ accepted: 400 });
    expect((await rawPost(b.ingestKey, escaped)).json()).toEqual({ accepted: 400 });
    const rows = async (id: number) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/devices/${id}/readings?from=${new Date(base).toISOString()}&to=${new Date(base + 400 * MIN).toISOString()}&params=vave1,pave1,eai1&interval=raw`,
        headers: user.auth,
      });
      expect(res.statusCode).toBe(200);
      return res.json() as { ts: unknown[]; series: Record<string, { values: number[] }> };
    };
    const fromColumns = await rows(a.device.id);
    expect(fromColumns.series.pave1?.values.slice(0, 3)).toEqual([-12.5, -11.5, -10.5]);
    expect(fromColumns).toEqual(await rows(b.device.id));
    expect(await rawCount(a.device.id)).toBe(400);
  });

  it('names every bad field of a well-formed batch, in order, with the same messages', async () => {
    const d = await device('10:00:00:00:00:06');
    const ts = new Date(Date.now() - MIN).toISOString();
    const res = await post(d.ingestKey, [
      { ts, values: { vave1: 230 } },
      { ts: new Date(Date.now() + 10 * MIN).toISOString(), values: { eai1: -3, vave1: 2e9 } },
      { ts: '2026-02-30T10:00:00.000Z', values: {} },
      { ts: '1900-01-01T00:00:00Z', values: { pave1: -5 } },
      { ts, values: { rssi: -60 } },
    ]);
    expect(res.statusCode).toBe(400);
    const errors = [
      { field: 'readings.1.ts', message: 'is more than 5 minutes in the future' },
      { field: 'readings.1.values.eai1', message: 'must not be negative (a cumulative counter)' },
      { field: 'readings.1.values.vave1', message: 'must be between 0 and 100000' },
      { field: 'readings.2.ts', message: 'must be an ISO-8601 timestamp with Z or an offset' },
      { field: 'readings.2.values', message: 'needs at least one parameter' },
      { field: 'readings.3.ts', message: 'is older than the raw retention (36500 days)' },
    ];
    expect(res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      errors,
    });
    expect(await rawCount(d.device.id)).toBe(0);
  });

  it('refuses values a parameter cannot have, naming the field and the reason (HTTP and MQTT check alike)', async () => {
    const d = await device('10:00:00:00:00:0A');
    const ts = new Date(Date.now() - MIN).toISOString();
    const res = await post(d.ingestKey, [
      { ts, values: { rel1: 0.5, alarm: -5, rssi: 1e9 } },
      { ts, values: { alarm: 2.5, pfave1: 1.5, vave1: -230 } },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'readings.0.values.rel1', message: 'must be one of 0, 1' },
      { field: 'readings.0.values.alarm', message: 'must be between 0 and 4294967295' },
      { field: 'readings.0.values.rssi', message: 'must be between -150 and 0' },
      { field: 'readings.1.values.alarm', message: 'must be a whole number' },
      { field: 'readings.1.values.pfave1', message: 'must be between -1 and 1' },
      { field: 'readings.1.values.vave1', message: 'must be between 0 and 100000' },
    ]);
    expect(await rawCount(d.device.id)).toBe(0);
    const good = await post(d.ingestKey, [{ ts, values: { rel1: 1, alarm: 4, rssi: -61, pfave1: -0.9, vave1: 231 } }]);
    expect(good.json()).toEqual({ accepted: 1 });
  });

  it('sorts a batch out of order and merges repeated timestamps in it, later values winning', async () => {
    const d = await device('10:00:00:00:00:07');
    const base = Math.floor((Date.now() - 3_600_000) / MIN) * MIN;
    const at = (m: number) => new Date(base + m * MIN).toISOString();
    const res = await post(d.ingestKey, [
      { ts: at(2), values: { vave1: 232 } },
      { ts: at(0), values: { vave1: 230, rssi: -70 } },
      { ts: at(1), values: { vave1: 231 } },
      { ts: at(0), values: { vave1: 229 } },
    ]);
    expect(res.json()).toEqual({ accepted: 4 });
    expect(await rawCount(d.device.id)).toBe(3);
    const q = new URLSearchParams({ from: String(base), to: String(base + 3 * MIN), interval: 'raw', params: 'vave1,rssi' });
    const raw = (await t.app.inject({ method: 'GET', url: `/api/devices/${d.device.id}/readings?${q}`, headers: user.auth })).json();
    expect(raw.ts).toEqual([base, base + MIN, base + 2 * MIN]);
    expect(raw.series.vave1.values).toEqual([229, 231, 232]);
    expect(raw.series.rssi.values).toEqual([-70, null, null]);
  });

  it('parses bodies with prototype keys or escapes as before, and keeps the body limit', async () => {
    const d = await device('10:00:00:00:00:05');
    const ts = new Date(Date.now() - MIN).toISOString();
    const raw = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        headers: { 'x-device-key': d.ingestKey, 'content-type': 'application/json' },
        payload,
      });
    for (const key of ['__proto__', '\\u005f_proto__', 'constructor']) {
      const res = await raw(`{"readings":[{"ts":"${ts}","values":{"${key}":{"vave1":1}}}]}`);
      expect(res.statusCode, key).toBe(400);
      expect(res.json().errors[0].field, key).toMatch(/^(body|readings\.0\.values\.constructor)$/);
    }
    // An escape elsewhere goes through the default parser and is still accepted.
    const escaped = await raw(`{"readings":[{"ts":"${ts.replace('T', '\\u0054')}","values":{"vave1":231}}]}`);
    expect(escaped.json()).toEqual({ accepted: 1 });
    // A body that is not all ASCII is read as UTF-8: the name comes back as sent.
    const utf8 = await raw(`{"readings":[{"ts":"${ts}","values":{"zählerstand€":1}}]}`);
    expect(utf8.json().errors).toEqual([{ field: 'readings.0.values.zählerstand€', message: 'is not a known parameter' }]);
    expect((await raw('')).statusCode).toBe(400);
    expect((await raw('{"readings":[')).json().errors).toEqual([{ field: 'body', message: 'malformed JSON' }]);
    const huge = `{"readings":[{"ts":"${ts}","values":{"vave1":1}}],"pad":"${'x'.repeat(INGEST_BODY_LIMIT)}"}`;
    expect((await raw(huge)).statusCode).toBe(413);
    expect(await rawCount(d.device.id)).toBe(1);
  });

  it('rollups answer like a computation from raw rows; energy across DST days with a reset and a gap', async () => {
    // The user's zone decides local days; the test user registered in PL → Europe/Warsaw.
    const d = await device('10:00:00:00:00:03');
    const tz = 'Europe/Warsaw';
    const start = zonedTimeToUtc(tz, 2026, 3, 28);
    const end = zonedTimeToUtc(tz, 2026, 3, 31);
    const readings: { ts: string; values: Record<string, number> }[] = [];
    let counter = 500;
    const samples: { ts: number; value: number }[] = [];
    for (let ts = start - 2 * 3_600_000; ts < end; ts += 7 * MIN) {
      const hourUtc = new Date(ts).getUTCHours();
      if (ts >= zonedTimeToUtc(tz, 2026, 3, 29, 9) && ts < zonedTimeToUtc(tz, 2026, 3, 29, 15)) continue; // a 6-hour gap
      counter += 0.05 + (hourUtc % 5) * 0.01;
      if (ts >= zonedTimeToUtc(tz, 2026, 3, 30, 12) && samples.every((s) => s.ts < zonedTimeToUtc(tz, 2026, 3, 30, 12))) counter = 0.02; // reset
      samples.push({ ts: ts, value: counter });
      readings.push({ ts: new Date(ts).toISOString(), values: { eai1: counter, vave1: 220 + (ts % 17), pave1: (ts / MIN) % 300 } });
    }
    // Out of order and in two requests: the rollups must not care.
    const half = Math.floor(readings.length / 2);
    expect((await post(d.ingestKey, readings.slice(half))).statusCode).toBe(200);
    expect((await post(d.ingestKey, readings.slice(0, half))).statusCode).toBe(200);

    const get = (q: string) => t.app.inject({ method: 'GET', url: `/api/devices/${d.device.id}/readings?${q}`, headers: user.auth });
    const days = localDayStarts(start, end, tz);
    expect(days.length).toBe(3);
    const edges = [...days, end];
    const expectedDays = bucketEnergy(samples, edges).energy;
    const daily = (await get(`from=${start}&to=${end}&interval=24h&params=eai1,vave1`)).json();
    expect(daily.ts).toEqual(days);
    expect((edges[2] ?? 0) - (edges[1] ?? 0)).toBe(23 * 3_600_000);
    daily.series.eai1.delta.forEach((e: number, i: number) => {
      expect(e).toBeCloseTo(expectedDays[i] ?? Number.NaN, 6);
    });
    expect(daily.series.eai1.delta.every((e: number) => e >= 0)).toBe(true);

    // Hourly from rollups vs raw rows: energy per hour and avg/min/max.
    const from = start;
    const to = from + 2 * 86_400_000;
    const hourly = (await get(`from=${from}&to=${to}&interval=1h&params=eai1,vave1`)).json();
    const hourEdges = [...hourly.ts, to];
    const expectedHours = bucketEnergy(samples, hourEdges).energy;
    hourly.series.eai1.delta.forEach((e: number, i: number) => {
      expect(e).toBeCloseTo(expectedHours[i] ?? Number.NaN, 6);
    });
    const raw = (await get(`from=${from}&to=${from + 3 * 3_600_000}&interval=raw&params=vave1`)).json();
    const firstHour = raw.series.vave1.values.slice(0, raw.ts.filter((x: number) => x < from + 3_600_000).length) as number[];
    expect(hourly.series.vave1.min[0]).toBe(Math.min(...firstHour));
    expect(hourly.series.vave1.max[0]).toBe(Math.max(...firstHour));
    expect(hourly.series.vave1.avg[0]).toBeCloseTo(firstHour.reduce((a, b) => a + b, 0) / firstHour.length, 2);
    const q15 = (await get(`from=${from}&to=${to}&interval=15m&params=eai1`)).json();
    const q30 = (await get(`from=${from}&to=${to}&interval=30m&params=eai1`)).json();
    const sum = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0);
    // Each figure is rounded to 1 mWh, so sums of many agree to well within a Wh.
    expect(sum(q15.series.eai1.delta)).toBeCloseTo(sum(expectedHours), 4);
    expect(sum(q30.series.eai1.delta)).toBeCloseTo(sum(expectedHours), 4);

    const tooLong = await get(`from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z&interval=raw`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors).toContainEqual({ field: 'to', message: 'Data range is too long.', key: 'validation.rangeTooLong' });
    expect((await get('from=x&to=y')).statusCode).toBe(400);
    expect((await get(`from=${from}&to=${to}&params=nope`)).statusCode).toBe(400);

    const energy = (await t.app.inject({ method: 'GET', url: `/api/devices/${d.device.id}/energy`, headers: user.auth })).json();
    const total = bucketEnergy(samples, [samples[0]?.ts ?? 0, end + 1]).energy[0] ?? Number.NaN;
    expect(energy.measuredTotalKwh).toBeCloseTo(total, 6);
    expect(energy.total).toBeCloseTo(total, 6);
    expect(energy.timezone).toBe(tz);
  });

  it('takes readings over MQTT through the real broker into the same writer', async () => {
    const d = await device('10:00:00:00:00:04');
    const client = await mqtt.connectAsync(broker.url(), { protocolVersion: 5 });
    const ts = new Date(Date.now() - MIN).toISOString();
    await client.publishAsync(
      `phasewatch/${d.device.mac.replaceAll(':', '')}/readings`,
      JSON.stringify({ key: d.ingestKey, readings: [{ ts, values: { vave1: 231 } }] }),
      { qos: 1 },
    );
    await client.publishAsync('phasewatch/100000000004/readings', 'not json', { qos: 1 });
    await client.publishAsync(
      'phasewatch/100000000004/readings',
      JSON.stringify({ key: 'bad', readings: [{ ts, values: { vave1: 1 } }] }),
      { qos: 1 },
    );
    await client.publishAsync(
      'phasewatch/AABBCCDDEEFF/readings',
      JSON.stringify({ key: d.ingestKey, readings: [{ ts, values: { vave1: 1 } }] }),
      { qos: 1 },
    );
    const ts2 = new Date(Date.now() - 2 * MIN).toISOString();
    await client.publishAsync(`phasewatch/${d.device.mac}/readings`, JSON.stringify({ readings: [{ ts: ts2, values: { vave1: 232 } }] }), {
      qos: 1,
      properties: { userProperties: { key: d.ingestKey } },
    });
    await client.endAsync();
    const stats = t.ctx.telemetry.mqtt?.stats;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (stats?.received ?? 0) < 5) await new Promise((r) => setTimeout(r, 50));
    while (Date.now() < deadline && (stats?.accepted ?? 0) + (stats?.rejected ?? 0) < 5) await new Promise((r) => setTimeout(r, 50));
    expect(stats).toMatchObject({ received: 5, accepted: 2, rejected: 3 });
    expect(await rawCount(d.device.id)).toBe(2);
  });
});
