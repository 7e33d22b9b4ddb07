// A real Mosquitto broker (as `npm test` installs) and the fleet's live mode publishing to it; devices
// are registered with a tiny local stand-in for the HTTP API (the real one is built in parallel).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Broker, startMosquitto } from '../../../scripts/testing/mosquitto.js';
import { DEMO_FLEET } from './embedded.js';
import { startFleet } from './fleet.js';
import { type FakeApi, startFakeApi } from './testing/fake-api.js';

let broker: Broker;
let api: FakeApi;
let dataDir: string;

beforeAll(async () => {
  [broker, api] = await Promise.all([startMosquitto(), startFakeApi()]);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-sim-mqtt-'));
});

afterAll(async () => {
  await Promise.all([broker.stop(), api.close()]);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('live readings over MQTT', () => {
  it("publishes each device's readings with its key to phasewatch/<mac>/readings", async () => {
    const sub = await mqtt.connectAsync(broker.url);
    const got: { topic: string; body: { key: string; readings: { ts: string; values: Record<string, number> }[] } }[] = [];
    sub.on('message', (topic, payload) => got.push({ topic, body: JSON.parse(payload.toString()) }));
    await sub.subscribeAsync('phasewatch/+/readings', { qos: 1 });
    const fleet = startFleet({
      baseUrl: api.url,
      email: 'demo@example.com',
      password: 'demo1234',
      stateFile: path.join(dataDir, 'state.json'),
      devices: DEMO_FLEET.slice(0, 2),
      historyDays: 0,
      liveIntervalMs: 20,
      mqttUrl: broker.url,
      modelOptions: { gapsPerYear: 0 },
    });
    await fleet.backfillDone;
    const end = Date.now() + 10_000;
    while (new Set(got.map((g) => g.topic)).size < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    await fleet.stop();
    await sub.endAsync();
    for (const d of api.devices) {
      const mine = got.filter((g) => g.topic === `phasewatch/${d.mac}/readings`);
      expect(mine.length).toBeGreaterThan(0);
      for (const m of mine) {
        expect(m.body.key).toBe(d.key);
        expect(m.body.readings).toHaveLength(1);
        expect(Date.parse(m.body.readings[0]?.ts ?? '')).toBeGreaterThan(Date.now() - 60_000);
      }
    }
    // Nothing went through HTTP ingest in MQTT mode.
    expect(api.ingestRequests).toBe(0);
  });
});
