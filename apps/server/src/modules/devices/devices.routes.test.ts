import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';

describe.each(DIALECTS)('devices API (%s)', (dialect) => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof signUp>>;
  let bob: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    alice = await signUp(t.app);
    bob = await signUp(t.app);
  });
  afterAll(async () => t.close());

  const create = (auth: Record<string, string>, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/devices', headers: auth, payload });

  it('registers a device with a one-time key and lists it', async () => {
    const res = await create(alice.auth, { name: 'Kitchen', mac: 'aa-bb-cc-dd-ee-01', typeCode: 20, model: 'PW-1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.ingestKey).toMatch(/^pwd_/);
    expect(body.device).toMatchObject({
      name: 'Kitchen',
      mac: 'AA:BB:CC:DD:EE:01',
      typeCode: 20,
      typeName: 'Single-phase energy meter',
      status: 'offline',
    });
    const list = await t.app.inject({ method: 'GET', url: '/api/devices', headers: alice.auth });
    expect(list.json()).toEqual([
      expect.objectContaining({
        id: body.device.id,
        name: 'Kitchen',
        model: 'PW-1',
        status: 'offline',
        weakSignal: false,
        location: null,
        tariff: null,
        totalEnergyKwh: 0,
      }),
    ]);
    // The key is stored hashed: the plain key appears nowhere in the table.
    const rows = await t.ctx.storage.db.selectFrom('devices').select('ingest_key_hash').execute();
    expect(rows.every((r) => r.ingest_key_hash !== body.ingestKey && r.ingest_key_hash.length === 64)).toBe(true);
  });

  it('rejects bad registrations and duplicate MACs', async () => {
    const bad = await create(alice.auth, { name: '', mac: 'nope', typeCode: 1.5 });
    expect(bad.statusCode).toBe(400);
    const fields = bad
      .json()
      .errors.map((e: { field: string }) => e.field)
      .sort();
    expect(fields).toEqual(['mac', 'name', 'typeCode']);
    await create(alice.auth, { name: 'A', mac: '00:00:00:00:00:0A', typeCode: 13 });
    const dup = await create(alice.auth, { name: 'B', mac: '00:00:00:00:00:0a', typeCode: 13 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().errors).toEqual([{ field: 'mac', message: expect.any(String), key: 'errors.macTaken' }]);
    // Another user may own the same MAC.
    expect((await create(bob.auth, { name: 'B', mac: '00:00:00:00:00:0A', typeCode: 13 })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/devices' })).statusCode).toBe(401);
  });

  it('updates, validates limits, meter value and notifications; another user gets 404', async () => {
    const id = (await create(alice.auth, { name: 'Garage', mac: '00:00:00:00:00:0B', typeCode: 16 })).json().device.id;
    const put = (url: string, payload: unknown, auth = alice.auth) =>
      t.app.inject({ method: 'PUT', url, headers: auth, payload: payload as object });
    const upd = await put(`/api/devices/${id}`, { friendlyName: 'Garage meter', billingPeriodMonths: 2 });
    expect(upd.json()).toMatchObject({ friendlyName: 'Garage meter', billingPeriodMonths: 2, name: 'Garage' });

    expect((await put(`/api/devices/${id}/limits`, { warningLevel: 50, criticalLevel: 100 })).json().limits).toEqual({
      warningLevel: 50,
      criticalLevel: 100,
    });
    expect((await put(`/api/devices/${id}/limits`, { warningLevel: 0, criticalLevel: 0.5 })).statusCode).toBe(200);
    for (const [payload, field, message, key] of [
      [
        { warningLevel: 20, criticalLevel: 20 },
        'warningLevel',
        'warning level must be less than critical level',
        'validation.warningBelowCritical',
      ],
      [{ warningLevel: 50.5, criticalLevel: 60 }, 'warningLevel', 'must be between 0 and 50 %', 'validation.warningRange'],
      [{ warningLevel: 10, criticalLevel: 100.1 }, 'criticalLevel', 'must be between 0 and 100 %', 'validation.criticalRange'],
      [{ warningLevel: -1, criticalLevel: 10 }, 'warningLevel', 'must be between 0 and 50 %', 'validation.warningRange'],
      [{ warningLevel: 'x', criticalLevel: 10 }, 'warningLevel', 'must be a valid number', 'validation.number'],
    ] as const) {
      const res = await put(`/api/devices/${id}/limits`, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toContainEqual({ field, message, key });
    }

    expect((await put(`/api/devices/${id}/meter-value`, { meterValueKwh: 1234.5 })).json().totalEnergyKwh).toBe(1234.5);
    expect((await put(`/api/devices/${id}/meter-value`, { meterValueKwh: -1 })).statusCode).toBe(400);

    const settings = {
      pushEnabled: true,
      emailEnabled: true,
      voltageDropThreshold: 10,
      voltageRiseThreshold: 12,
      totalConsumptionThreshold: 300,
      disableAtNight: true,
      notificationIntervalMinutes: 30,
      muteAll: false,
    };
    expect((await put(`/api/devices/${id}/notifications`, settings)).json().notifications).toEqual(settings);
    expect((await put(`/api/devices/${id}/notifications`, { ...settings, notificationIntervalMinutes: 0 })).statusCode).toBe(400);
    // emailEnabled sits beside pushEnabled and is required like it.
    const { emailEnabled: _, ...withoutEmail } = settings;
    expect((await put(`/api/devices/${id}/notifications`, withoutEmail)).json().errors[0].field).toBe('emailEnabled');

    for (const [method, url] of [
      ['GET', `/api/devices/${id}`],
      ['PUT', `/api/devices/${id}/meter-value`],
      ['DELETE', `/api/devices/${id}`],
      ['GET', `/api/devices/${id}/readings?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&interval=1h`],
      ['GET', `/api/devices/${id}/energy`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bob.auth, ...(method === 'PUT' ? { payload: { meterValueKwh: 1 } } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().errors, `${method} ${url}`).toEqual([{ message: 'Device not found', key: 'errors.deviceNotFound' }]);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/devices/abc', headers: alice.auth })).statusCode).toBe(400);
  });

  it('counts a solar device by what it exports and a meter by what it imports', async () => {
    const solar = (await create(alice.auth, { name: 'Roof', mac: '00:00:00:00:00:5A', typeCode: 10 })).json();
    const meter = (await create(alice.auth, { name: 'Grid', mac: '00:00:00:00:00:5B', typeCode: 13 })).json();
    const start = Date.now() - 3 * 3_600_000;
    const readings = (importKwh: number, exportKwh: number) =>
      [0, 1, 2].map((h) => ({
        ts: new Date(start + h * 3_600_000).toISOString(),
        values: { energy3phases_import: 100 + h * importKwh, energy3phases_export: 500 + h * exportKwh },
      }));
    for (const [d, imp, exp] of [
      [solar, 0.1, 2.5],
      [meter, 1.25, 0.5],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        headers: { 'x-device-key': d.ingestKey },
        payload: { readings: readings(imp, exp) },
      });
      expect(res.json()).toEqual({ accepted: 3 });
    }
    const list = (await t.app.inject({ method: 'GET', url: '/api/devices', headers: alice.auth })).json() as {
      id: number;
      totalEnergyKwh: number;
    }[];
    expect(list.find((d) => d.id === solar.device.id)?.totalEnergyKwh).toBeCloseTo(5, 9);
    expect(list.find((d) => d.id === meter.device.id)?.totalEnergyKwh).toBeCloseTo(2.5, 9);
    const energy = (await t.app.inject({ method: 'GET', url: `/api/devices/${solar.device.id}/energy`, headers: alice.auth })).json();
    expect(energy.source).toBe('energy3phases_export');
    expect(energy.total).toBeCloseTo(5, 9);
  });

  it('deletes a device with its readings and rollups', async () => {
    const created = (await create(alice.auth, { name: 'Temp', mac: '00:00:00:00:00:0C', typeCode: 20 })).json();
    // Three hours back: its hour is closed whatever the minute the test runs at (the compactor waits
    // COMPACT_GRACE_MS after an hour's end; an hour back failed in an hour's first two minutes).
    const ts = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const ing = await t.app.inject({
      method: 'POST',
      url: '/api/ingest',
      headers: { 'x-device-key': created.ingestKey },
      payload: { readings: [{ ts, values: { eai1: 1, vave1: 230 } }] },
    });
    expect(ing.json()).toEqual({ accepted: 1 });
    const count = async () => {
      const db = t.ctx.storage.db;
      const r = await db
        .selectFrom('readings')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('device_id', '=', created.device.id)
        .executeTakeFirstOrThrow();
      const r5 = await db
        .selectFrom('rollup_packed')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('device_id', '=', created.device.id)
        .executeTakeFirstOrThrow();
      const d = await db
        .selectFrom('rollup_day')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('device_id', '=', created.device.id)
        .executeTakeFirstOrThrow();
      return [Number(r.n), Number(r5.n), Number(d.n)];
    };
    // One raw row; once its hour is rolled up, packed rollups: 2 UTC levels × (eai1, vave1, reading counts); one local day.
    await t.ctx.telemetry.compactNow();
    expect(await count()).toEqual([1, 6, 1]);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/devices/${created.device.id}`, headers: alice.auth });
    expect(del.statusCode).toBe(200);
    expect(await count()).toEqual([0, 0, 0]);
    expect((await t.app.inject({ method: 'GET', url: `/api/devices/${created.device.id}`, headers: alice.auth })).statusCode).toBe(404);
  });
});
