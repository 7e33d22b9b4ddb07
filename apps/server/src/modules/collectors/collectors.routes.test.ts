import type { DeviceListItem } from '@phasewatch/shared';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { useOwnBroker } from '../../test/broker.js';
import { fakeFox, fakeFoxDiscovery, fakeShelly3em, fakeShellyPro3em } from '../../test/collectors/fake-devices.js';
import { TASMOTA_ENERGY_SENSOR } from '../../test/collectors/fixtures.js';
import { DIALECTS } from '../../test/storage.js';

type User = Awaited<ReturnType<typeof signUp>>;

const broker = useOwnBroker();

describe.each(DIALECTS)('collected devices on %s', (dialect) => {
  let t: TestApp;
  let a: User;
  let b: User;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    t = await buildTestApp(dialect, { mqttUrl: broker.url() });
    a = await signUp(t.app);
    b = await signUp(t.app);
  });
  afterEach(async () => {
    for (const s of stops.splice(0)) await s();
  });
  afterAll(async () => {
    await t.close();
  });

  const list = async (u: User) => (await t.app.inject({ method: 'GET', url: '/api/devices', headers: u.auth })).json() as DeviceListItem[];
  const post = (u: User, url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: u.auth, payload });

  it('tests a connection: model, MAC and phases of a device that answers; why not of one that does not', async () => {
    const fox = await fakeFox('4321').start();
    stops.push(() => fox.stop());
    const ok = await post(a, '/api/collectors/test', { kind: 'fox-energy', address: fox.url, key: '4321' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, kind: 'fox-energy', model: 'Wi-MEF-3', phases: 3, typeCode: 13, values: { vave1: 239.7 } });

    expect((await post(a, '/api/collectors/test', { kind: 'fox-energy', address: fox.url, key: '0000' })).json()).toMatchObject({
      ok: false,
      errorKey: 'deviceError',
    });
    // Outside COLLECTOR_NETWORKS (loopback only in tests): refused before any connection.
    expect((await post(a, '/api/collectors/test', { kind: 'fox-energy', address: 'http://10.20.30.40' })).json()).toMatchObject({
      ok: false,
      errorKey: 'networkRefused',
    });
    expect((await post(a, '/api/collectors/test', { kind: 'shelly-gen2', address: 'http://127.0.0.1:9' })).json()).toMatchObject({
      ok: false,
      errorKey: 'unreachable',
    });
    // A Shelly says its generation itself.
    const gen1 = await fakeShelly3em().start();
    stops.push(() => gen1.stop());
    expect((await post(a, '/api/collectors/test', { kind: 'shelly-gen2', address: gen1.url })).json()).toMatchObject({
      ok: true,
      kind: 'shelly-gen1',
      model: 'SHEM-3',
      mac: 'C4:5B:BE:5F:8E:56',
      phases: 3,
    });
    expect((await post(a, '/api/collectors/test', { kind: 'fox-energy', address: 'ftp://x' })).statusCode).toBe(400);
  });

  it('a connection test never fails on what a device says: values no device can measure are left out, as polling does', async () => {
    const pro = await fakeShellyPro3em().start();
    stops.push(() => pro.stop());
    pro.state.em.a_voltage = 'n/a';
    const text = await post(a, '/api/collectors/test', { kind: 'shelly-gen2', address: pro.url });
    expect(text.statusCode).toBe(200);
    expect(text.json().ok).toBe(true);
    expect(text.json().values).not.toHaveProperty('vave1');
    expect(text.json().values).toHaveProperty('vave2');
    pro.state.em.a_voltage = 236.1;
    pro.rewrite = (body) => body.replace('"a_voltage":236.1', '"a_voltage":1e309');
    const infinite = await post(a, '/api/collectors/test', { kind: 'shelly-gen2', address: pro.url });
    expect(infinite.statusCode).toBe(200);
    expect(infinite.json().ok).toBe(true);
    expect(infinite.json().values).not.toHaveProperty('vave1');
    // Nothing usable at all: a failed test naming why, still not a 5xx.
    pro.rewrite = (body) => body.replace(/:(-?\d+(\.\d+)?)([,}])/g, ':1e309$3');
    const none = await post(a, '/api/collectors/test', { kind: 'shelly-gen2', address: pro.url });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toMatchObject({ ok: false });
  });

  it('adds a Fox ENERGY-3 by address: its values arrive in our names and units, the key is never answered', async () => {
    const fox = await fakeFox('s3cr3t-key').start();
    stops.push(() => fox.stop());
    const res = await post(a, '/api/devices', {
      name: 'Fox',
      typeCode: 13,
      source: { kind: 'fox-energy', address: fox.url, key: 's3cr3t-key', pollSeconds: 1 },
    });
    expect(res.statusCode).toBe(200);
    const { device } = res.json() as { device: { id: number; mac: string; model: string; reportingIntervalSeconds: number } };
    expect(device.model).toBe('Wi-MEF-3');
    expect(device.mac).toMatch(/^02:/);
    expect(device.reportingIntervalSeconds).toBe(1);
    await expect
      .poll(async () => (await list(a)).find((d) => d.id === device.id)?.latestReading?.values.vave1, { timeout: 15_000 })
      .toBe(239.7);
    const row = (await list(a)).find((d) => d.id === device.id) as DeviceListItem;
    expect(row.status).toBe('online');
    expect(row.latestReading?.values).toMatchObject({
      vave2: 243.7,
      iave1: 1.97,
      pave3: 69.7,
      pfave1: -0.75,
      frq1: 50.01,
      eai1: 4951.294,
      eae3: 0.144,
      ere1: 2316.914,
      balance: 0,
      balance_export: 0,
    });
    const status = await t.app.inject({ method: 'GET', url: `/api/devices/${device.id}/collector`, headers: a.auth });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({
      kind: 'fox-energy',
      address: fox.url,
      pollSeconds: 1,
      hasKey: true,
      state: 'polling',
      lastError: null,
    });
    expect(status.json().lastSuccessAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    for (const url of ['/api/devices', `/api/devices/${device.id}`, `/api/devices/${device.id}/collector`])
      expect((await t.app.inject({ method: 'GET', url, headers: a.auth })).body).not.toContain('s3cr3t-key');
    // Another user's device: 404, and a device of A's without a collector: 404 too.
    expect((await t.app.inject({ method: 'GET', url: `/api/devices/${device.id}/collector`, headers: b.auth })).statusCode).toBe(404);
    const plain = (await post(a, '/api/devices', { name: 'Plain', typeCode: 13, mac: '02:00:00:00:22:01' })).json() as {
      device: { id: number };
    };
    expect((await t.app.inject({ method: 'GET', url: `/api/devices/${plain.device.id}/collector`, headers: a.auth })).statusCode).toBe(404);
    // Deleting the device stops its collector.
    await t.app.inject({ method: 'DELETE', url: `/api/devices/${device.id}`, headers: a.auth });
    const asked = fox.requests.length;
    await new Promise((r) => setTimeout(r, 2500));
    expect(fox.requests.length - asked).toBeLessThanOrEqual(2);
  });

  it('follows a meter to its new address: new settings are tested with the stored key, then saved', async () => {
    const fox = await fakeFox('9753').start();
    stops.push(() => fox.stop());
    const res = await post(a, '/api/devices', {
      name: 'Moving',
      typeCode: 13,
      source: { kind: 'fox-energy', address: fox.url, key: '9753', pollSeconds: 1 },
    });
    const id = (res.json() as { device: { id: number } }).device.id;
    const retest = (u: User, payload: object) => post(u, `/api/devices/${id}/collector/test`, payload);
    const put = (u: User, payload: object) =>
      t.app.inject({ method: 'PUT', url: `/api/devices/${id}/collector`, headers: u.auth, payload });
    // The router gave the meter another address: the old one answers nothing.
    const moved = fakeFox('9753');
    await moved.start();
    stops.push(() => moved.stop());
    await fox.stop();
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: `/api/devices/${id}/collector`, headers: a.auth })).json().state, {
        timeout: 15_000,
      })
      .toBe('retrying');
    expect((await retest(a, { address: 'http://127.0.0.1:9' })).json()).toMatchObject({ ok: false, errorKey: 'unreachable' });
    // Tested with the stored key (never answered): the meter at its new address answers.
    expect((await retest(a, { address: moved.url })).json()).toMatchObject({ ok: true, model: 'Wi-MEF-3' });
    expect((await retest(b, { address: moved.url })).statusCode).toBe(404);
    expect((await put(b, { kind: 'fox-energy', address: moved.url })).statusCode).toBe(404);
    const ok = await put(a, { kind: 'fox-energy', address: moved.url, pollSeconds: 2 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ address: moved.url, pollSeconds: 2, hasKey: true, lastError: null });
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: `/api/devices/${id}/collector`, headers: a.auth })).json().state, {
        timeout: 15_000,
      })
      .toBe('polling');
    expect((await t.app.inject({ method: 'GET', url: `/api/devices/${id}`, headers: a.auth })).json().reportingIntervalSeconds).toBe(2);
    // An empty key forgets it: the meter then refuses (status "false"), and the state says so.
    expect((await put(a, { kind: 'fox-energy', address: moved.url, key: '' })).json().hasKey).toBe(false);
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: `/api/devices/${id}/collector`, headers: a.auth })).json().lastErrorKey, {
        timeout: 15_000,
      })
      .toBe('deviceError');
  });

  it('lists the Fox devices that answer the discovery (sent to 127.0.0.1 here, never a broadcast)', async () => {
    const responder = await fakeFoxDiscovery([0x60, 0x01, 0x94, 0x12, 0x34, 0x56], 12);
    stops.push(() => responder.close());
    t.config.collectorDiscovery = { host: '127.0.0.1', port: responder.port };
    const res = await t.app.inject({ method: 'GET', url: '/api/collectors/discover', headers: a.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ devices: [{ address: 'http://127.0.0.1', mac: '60:01:94:12:34:56', deviceType: 12 }] });
    expect((await t.app.inject({ method: 'GET', url: '/api/collectors/discover' })).statusCode).toBe(401);
  });

  it('discovery is off where it was not turned on: 403 naming why, no packet sent', async () => {
    const saved = t.config.collectorDiscovery;
    t.config.collectorDiscovery = null;
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/collectors/discover', headers: a.auth });
      expect(res.statusCode).toBe(403);
      expect(res.json().errors[0]).toMatchObject({ key: 'errors.discoveryOff' });
    } finally {
      t.config.collectorDiscovery = saved;
    }
  });

  it('refuses to save a source that cannot be read, naming why, and saves nothing', async () => {
    const before = (await list(a)).length;
    const res = await post(a, '/api/devices', {
      name: 'Gone',
      typeCode: 13,
      source: { kind: 'fox-energy', address: 'http://127.0.0.1:9' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ field: 'source.address', key: 'errors.collectorTestFailed' });
    const refused = await post(a, '/api/devices', {
      name: 'Far',
      typeCode: 13,
      source: { kind: 'shelly-gen2', address: 'http://192.168.1.20' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/COLLECTOR_NETWORKS/);
    expect((await post(a, '/api/devices', { name: 'NoMac', typeCode: 13 })).statusCode).toBe(400);
    expect((await list(a)).length).toBe(before);
  });

  it('a Shelly Pro 3EM takes its MAC; a Gen1 3EM whose totals restart adds no false energy', async () => {
    const pro = await fakeShellyPro3em().start();
    stops.push(() => pro.stop());
    const res = await post(a, '/api/devices', {
      name: 'Pro',
      typeCode: 13,
      source: { kind: 'shelly-gen2', address: pro.url, pollSeconds: 1 },
    });
    expect(res.json().device.mac).toBe('0C:B8:15:FC:AF:F4');
    // The meter's own import counters are its meter value: "Meter total" reads what the meter shows.
    const probed = (await post(a, '/api/collectors/test', { kind: 'shelly-gen2', address: pro.url })).json() as {
      values: Record<string, number>;
    };
    const counter = (probed.values.eai1 ?? 0) + (probed.values.eai2 ?? 0) + (probed.values.eai3 ?? 0);
    expect(counter).toBeGreaterThan(0);
    expect(res.json().device.meterValueKwh).toBeCloseTo(counter, 3);

    const gen1 = await fakeShelly3em().start();
    stops.push(() => gen1.stop());
    const created = await post(a, '/api/devices', {
      name: '3EM',
      typeCode: 13,
      source: { kind: 'shelly-gen1', address: gen1.url, pollSeconds: 1 },
    });
    const id = (created.json() as { device: { id: number } }).device.id;
    const latest = async () => (await list(a)).find((d) => d.id === id);
    await expect.poll(async () => (await latest())?.latestReading?.values.eai1, { timeout: 15_000 }).toBe(5);
    // 200 Wh later on phase 1, then a power loss: the totals start again from zero.
    gen1.state.emeters = gen1.state.emeters.map((m, i) => (i === 0 ? { ...m, total: 5200 } : m));
    await expect.poll(async () => (await latest())?.latestReading?.values.eai1, { timeout: 15_000 }).toBe(5.2);
    gen1.state.emeters = gen1.state.emeters.map((m) => ({ ...m, total: 0 }));
    await expect.poll(async () => (await latest())?.latestReading?.values.eai1, { timeout: 15_000 }).toBe(0);
    gen1.state.emeters = gen1.state.emeters.map((m, i) => (i === 0 ? { ...m, total: 30 } : m));
    await expect.poll(async () => (await latest())?.latestReading?.values.eai1, { timeout: 15_000 }).toBe(0.03);
    // Measured: 0.2 kWh before the restart and 0.03 after, nothing for the drop to zero or the climb back; on
    // top of the meter value, the counters the meter showed when it was added (5 + 2 + 2 kWh).
    const meterValue = (created.json() as { device: { meterValueKwh: number } }).device.meterValueKwh;
    expect(meterValue).toBeGreaterThan(0);
    expect(((await latest())?.totalEnergyKwh ?? 0) - meterValue).toBeCloseTo(0.23, 6);
  });

  it('hears a Tasmota device on the broker: connection test by its status answers, readings in its local time', async () => {
    const topic = `plug_${dialect}_${Math.random().toString(36).slice(2, 8)}`;
    const device = await mqtt.connectAsync(broker.url());
    stops.push(() => device.endAsync());
    // A fake Tasmota: answers Status, Status 5 and Status 10 as the firmware does.
    await device.subscribeAsync(`cmnd/${topic}/Status`);
    device.on('message', (_t, payload) => {
      const n = payload.toString();
      if (n === '' || n === '0')
        void device.publishAsync(
          `stat/${topic}/STATUS`,
          JSON.stringify({ Status: { Module: 49, DeviceName: 'Gosund SP1', Topic: topic } }),
        );
      if (n === '5')
        void device.publishAsync(
          `stat/${topic}/STATUS5`,
          JSON.stringify({ StatusNET: { Hostname: topic, IPAddress: '127.0.0.1', Mac: '2C:3A:E8:12:34:56' } }),
        );
      if (n === '10') void device.publishAsync(`stat/${topic}/STATUS10`, JSON.stringify({ StatusSNS: TASMOTA_ENERGY_SENSOR }));
    });
    const tested = await post(a, '/api/collectors/test', { kind: 'tasmota', address: topic });
    expect(tested.json()).toMatchObject({
      ok: true,
      kind: 'tasmota',
      model: 'Gosund SP1',
      mac: '2C:3A:E8:12:34:56',
      phases: 1,
      typeCode: 20,
    });
    const res = await post(a, '/api/devices', { name: 'Plug', typeCode: 20, source: { kind: 'tasmota', address: topic, pollSeconds: 10 } });
    expect(res.statusCode).toBe(200);
    const id = (res.json() as { device: { id: number } }).device.id;
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: `/api/devices/${id}/collector`, headers: a.auth })).json().state, {
        timeout: 10_000,
      })
      .toBe('listening');
    // The device's local time (Warsaw: the user's country is PL) a minute ago, without offset, as Tasmota sends it.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const local = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Warsaw', dateStyle: 'short', timeStyle: 'medium' })
      .format(at)
      .replace(' ', 'T');
    await device.publishAsync(`tele/${topic}/SENSOR`, JSON.stringify({ ...TASMOTA_ENERGY_SENSOR, Time: local }));
    await expect
      .poll(async () => (await list(a)).find((d) => d.id === id)?.latestReading, { timeout: 10_000 })
      .toMatchObject({
        ts: at.getTime(),
        values: { eai1: 12.345, pave1: 123, vave1: 231, iave1: 0.563, pfave1: 0.95 },
      });
    // Garbage on the topic is recorded, never a crash.
    await device.publishAsync(`tele/${topic}/SENSOR`, '<html>');
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: `/api/devices/${id}/collector`, headers: a.auth })).json().lastErrorKey, {
        timeout: 10_000,
      })
      .toBe('notJson');
  });
});
