import type { FastifyInstance } from 'fastify';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { useOwnBroker } from '../../test/broker.js';
import { DIALECTS } from '../../test/storage.js';

/**
 * Home Assistant MQTT discovery against a real Mosquitto: a subscriber reads what the server publishes
 * and checks each discovery payload against Home Assistant's MQTT sensor schema (its keys, the units each
 * device class takes, the state classes the Energy dashboard accepts) — no HA install needed.
 */

const broker = useOwnBroker();

/** Keys HA's MQTT sensor platform accepts in a discovery config (full names; a subset of the schema is enough here). */
const SENSOR_KEYS = new Set([
  'name',
  'unique_id',
  'object_id',
  'default_entity_id',
  'state_topic',
  'value_template',
  'unit_of_measurement',
  'device_class',
  'state_class',
  'suggested_display_precision',
  'availability',
  'availability_topic',
  'availability_mode',
  'payload_available',
  'payload_not_available',
  'device',
  'origin',
  'expire_after',
  'force_update',
  'icon',
  'json_attributes_topic',
  'json_attributes_template',
  'enabled_by_default',
  'entity_category',
  'qos',
  'encoding',
  'last_reset_value_template',
  'options',
  'platform',
]);
const DEVICE_KEYS = new Set([
  'identifiers',
  'connections',
  'name',
  'manufacturer',
  'model',
  'model_id',
  'sw_version',
  'hw_version',
  'serial_number',
  'suggested_area',
  'via_device',
  'configuration_url',
]);
/** Units HA allows per sensor device class (homeassistant/components/sensor/const.py, DEVICE_CLASS_UNITS). */
const CLASS_UNITS: Record<string, string[]> = {
  power: ['mW', 'W', 'kW', 'MW', 'GW', 'TW', 'BTU/h'],
  voltage: ['µV', 'mV', 'V', 'kV', 'MV'],
  current: ['mA', 'A'],
  frequency: ['Hz', 'kHz', 'MHz', 'GHz'],
  energy: ['J', 'kJ', 'MJ', 'GJ', 'mWh', 'Wh', 'kWh', 'MWh', 'GWh', 'TWh', 'cal', 'kcal', 'Mcal', 'Gcal'],
};
/** State classes HA allows per device class (DEVICE_CLASS_STATE_CLASSES). */
const CLASS_STATE_CLASSES: Record<string, string[]> = {
  power: ['measurement'],
  voltage: ['measurement'],
  current: ['measurement'],
  frequency: ['measurement'],
  energy: ['total', 'total_increasing'],
  monetary: ['total'],
};

/** What is wrong with a discovery payload by HA's schema, or an empty list. */
function schemaProblems(config: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(config)) if (!SENSOR_KEYS.has(k)) out.push(`unknown key ${k}`);
  for (const k of ['state_topic', 'unique_id', 'device_class', 'state_class', 'unit_of_measurement', 'value_template'])
    if (typeof config[k] !== 'string' || config[k] === '') out.push(`${k} missing`);
  const cls = config.device_class as string;
  if (cls === 'monetary') {
    if (!/^[A-Z]{3}$/.test(String(config.unit_of_measurement))) out.push('monetary unit must be an ISO 4217 code');
  } else if (!CLASS_UNITS[cls]?.includes(String(config.unit_of_measurement)))
    out.push(`${cls} does not take ${config.unit_of_measurement}`);
  if (!CLASS_STATE_CLASSES[cls]?.includes(String(config.state_class))) out.push(`${cls} does not take state_class ${config.state_class}`);
  const device = config.device as Record<string, unknown> | undefined;
  if (!device || !Array.isArray(device.identifiers) || device.identifiers.length === 0) out.push('device.identifiers missing');
  for (const k of Object.keys(device ?? {})) if (!DEVICE_KEYS.has(k)) out.push(`unknown device key ${k}`);
  for (const a of (config.availability as { topic?: unknown }[] | undefined) ?? [])
    if (typeof a.topic !== 'string') out.push('availability entry without topic');
  if (String(config.state_topic).includes('#') || String(config.state_topic).includes('+')) out.push('wildcard in state_topic');
  return out;
}

/** A subscriber keeping the last payload of each topic (retained ones included). */
async function listen(url: string) {
  const seen = new Map<string, string>();
  const client = mqtt.connect(url, { clientId: `ha-test-${Math.random().toString(36).slice(2, 8)}`, reconnectPeriod: 0 });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  client.on('message', (topic, payload) => seen.set(topic, payload.toString('utf8')));
  await client.subscribeAsync(['homeassistant/#', 'phasewatch/+/state', 'phasewatch/+/availability', 'phasewatch/bridge/availability'], {
    qos: 1,
  });
  return { seen, close: () => client.endAsync() };
}

let macs = 0;
async function device(app: FastifyInstance, user: Awaited<ReturnType<typeof signUp>>, typeCode = 13) {
  const mac = `02:4A:00:00:${String(Math.floor(macs / 100)).padStart(2, '0')}:${String(macs++ % 100).padStart(2, '0')}`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: user.auth,
    payload: { name: 'House meter', mac, typeCode },
  });
  expect(res.statusCode, res.body).toBe(200);
  const d = res.json() as { device: { id: number; shareWithHomeAssistant: boolean }; ingestKey: string };
  return { ...d, mac, compact: mac.toLowerCase().replaceAll(':', '') };
}

async function ingest(app: FastifyInstance, key: string, values: Record<string, number>, ts = Date.now()) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/ingest',
    headers: { 'x-device-key': key },
    payload: { readings: [{ ts: new Date(ts).toISOString(), values }] },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const configsOf = (seen: Map<string, string>, compact: string) =>
  [...seen.entries()].filter(([t]) => t.startsWith(`homeassistant/sensor/phasewatch_${compact}_`) && t.endsWith('/config'));

describe.each(DIALECTS)('Home Assistant MQTT discovery (%s)', (dialect) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    t = await buildTestApp(dialect, { haDiscovery: true, haMqttUrl: broker.url(), mqttUrl: '' });
    user = await signUp(t.app);
  });
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });
  afterAll(async () => t?.close());

  it('publishes a shared device as HA sensors (schema-valid), its state and availability; unsharing removes them', async () => {
    const sub = await listen(broker.url());
    closers.push(sub.close);
    const d = await device(t.app, user);
    expect(d.device.shareWithHomeAssistant).toBe(false);
    await ingest(t.app, d.ingestKey, {
      pave1: 400,
      pave2: 300.5,
      pave3: 100,
      vave1: 231.2,
      vave2: 229,
      vave3: 230,
      iave1: 1.8,
      iave2: 1.3,
      iave3: 0.4,
      frq1: 50.01,
      eai1: 100,
      eai2: 50.5,
      eai3: 20,
      energy3phases_export: 12.25,
    });
    await expect.poll(() => sub.seen.get('phasewatch/bridge/availability'), { timeout: 10_000 }).toBe('online');
    // Off by default: nothing about it.
    await new Promise((r) => setTimeout(r, 300));
    expect(configsOf(sub.seen, d.compact)).toEqual([]);

    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${d.device.id}`,
      headers: user.auth,
      payload: { shareWithHomeAssistant: true },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().shareWithHomeAssistant).toBe(true);
    await expect.poll(() => configsOf(sub.seen, d.compact).length, { timeout: 10_000 }).toBe(13);
    const configs = new Map(configsOf(sub.seen, d.compact).map(([topic, p]) => [topic, JSON.parse(p) as Record<string, unknown>]));
    for (const [topic, config] of configs) {
      expect(schemaProblems(config), topic).toEqual([]);
      expect(config.state_topic).toBe(`phasewatch/${d.compact}/state`);
      expect(topic).toBe(`homeassistant/sensor/${config.unique_id}/config`);
    }
    const byKey = (k: string) => configs.get(`homeassistant/sensor/phasewatch_${d.compact}_${k}/config`) as Record<string, unknown>;
    // What HA's Energy dashboard needs.
    for (const k of ['energy_import', 'energy_export'])
      expect(byKey(k)).toMatchObject({ device_class: 'energy', state_class: 'total_increasing', unit_of_measurement: 'kWh' });
    expect(byKey('vave2')).toMatchObject({ device_class: 'voltage', unit_of_measurement: 'V', value_template: '{{ value_json.vave2 }}' });
    expect(byKey('iave3')).toMatchObject({ device_class: 'current', unit_of_measurement: 'A' });
    expect(byKey('frq1')).toMatchObject({ device_class: 'frequency', unit_of_measurement: 'Hz' });
    expect(byKey('power')).toMatchObject({ device_class: 'power', unit_of_measurement: 'W', state_class: 'measurement' });
    // No tariff: no cost sensor.
    expect(byKey('cost_today')).toBeUndefined();
    expect((byKey('power').device as { identifiers: string[] }).identifiers).toEqual([`phasewatch_${d.compact}`]);

    // Published after the configs, each on its own acknowledgement: it may arrive a moment after the last.
    await expect.poll(() => sub.seen.get(`phasewatch/${d.compact}/availability`), { timeout: 10_000 }).toBe('online');
    await expect.poll(() => sub.seen.get(`phasewatch/${d.compact}/state`), { timeout: 10_000 }).toBeDefined();
    expect(JSON.parse(sub.seen.get(`phasewatch/${d.compact}/state`) as string)).toMatchObject({
      power: 800.5,
      vave1: 231.2,
      frq1: 50.01,
      energy_import: 170.5,
      energy_export: 12.25,
    });
    // A new reading: the state follows.
    await ingest(t.app, d.ingestKey, { pave1: 500, eai1: 100.25, eai2: 50.5, eai3: 20 });
    await expect
      .poll(() => JSON.parse(sub.seen.get(`phasewatch/${d.compact}/state`) ?? '{}').energy_import, { timeout: 10_000 })
      .toBe(170.75);
    // The device goes offline: so does its availability.
    t.ctx.events.emit('deviceStatusChanged', { deviceId: d.device.id, userId: user.userId, status: 'offline', weakSignal: false });
    await expect.poll(() => sub.seen.get(`phasewatch/${d.compact}/availability`), { timeout: 10_000 }).toBe('offline');

    // Retained: a subscriber arriving later sees the configs.
    const late = await listen(broker.url());
    closers.push(late.close);
    await expect.poll(() => configsOf(late.seen, d.compact).length, { timeout: 10_000 }).toBe(13);

    // The mark off: empty retained configs remove the entities.
    const off = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${d.device.id}`,
      headers: user.auth,
      payload: { shareWithHomeAssistant: false },
    });
    expect(off.json().shareWithHomeAssistant).toBe(false);
    await expect.poll(() => configsOf(sub.seen, d.compact).every(([, p]) => p === ''), { timeout: 10_000 }).toBe(true);
    const after = await listen(broker.url());
    closers.push(after.close);
    await new Promise((r) => setTimeout(r, 500));
    expect(configsOf(after.seen, d.compact)).toEqual([]);
  });

  it('a single-phase device with a tariff gets its sensors and today’s cost; deleting it removes them', async () => {
    const sub = await listen(broker.url());
    closers.push(sub.close);
    const d = await device(t.app, user, 20);
    const loc = (await t.app.inject({ method: 'POST', url: '/api/locations', headers: user.auth, payload: { name: 'Home' } })).json() as {
      id: number;
    };
    const tariff = await t.app.inject({
      method: 'POST',
      url: `/api/locations/${loc.id}/tariffs`,
      headers: user.auth,
      payload: {
        name: 'G11',
        group: 'G12',
        presetId: 'tauron-g12',
        prices: [{ validFrom: '2026-01-01', area1: 1, area2: 0.5, fixedMonthly: 30 }],
      },
    });
    expect(tariff.statusCode, tariff.body).toBe(200);
    const placed = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${d.device.id}`,
      headers: user.auth,
      payload: { locationId: loc.id, shareWithHomeAssistant: true },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    await expect.poll(() => configsOf(sub.seen, d.compact).length, { timeout: 10_000 }).toBe(7);
    const keys = configsOf(sub.seen, d.compact)
      .map(([topic]) => topic.replace(`homeassistant/sensor/phasewatch_${d.compact}_`, '').replace('/config', ''))
      .sort();
    expect(keys).toEqual(['cost_today', 'energy_export', 'energy_import', 'frq1', 'iave1', 'pave1', 'vave1']);
    const cost = JSON.parse(sub.seen.get(`homeassistant/sensor/phasewatch_${d.compact}_cost_today/config`) as string);
    expect(schemaProblems(cost)).toEqual([]);
    expect(cost).toMatchObject({ device_class: 'monetary', state_class: 'total', unit_of_measurement: 'PLN' });

    const del = await t.app.inject({ method: 'DELETE', url: `/api/devices/${d.device.id}`, headers: user.auth });
    expect(del.statusCode).toBe(200);
    await expect.poll(() => configsOf(sub.seen, d.compact).every(([, p]) => p === ''), { timeout: 10_000 }).toBe(true);
  });

  it('another user cannot share a device that is not theirs (404)', async () => {
    const d = await device(t.app, user);
    const other = await signUp(t.app);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${d.device.id}`,
      headers: other.auth,
      payload: { shareWithHomeAssistant: true },
    });
    expect(res.statusCode).toBe(404);
    expect(t.ctx.homeAssistant?.sharedDevices()).not.toContain(d.device.id);
  });
});
