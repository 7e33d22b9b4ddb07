import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DeviceListItem } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../test/app.js';
import { fakeFox } from '../test/collectors/fake-devices.js';
import { collectorConfigSchema, startCollector } from './collector.js';

describe('npm run collector: the collectors beside the meters, sending through the public ingest API', () => {
  let t: TestApp;
  let server: string;

  beforeAll(async () => {
    // This server cannot reach the meter itself (no network allowed): only the separate collector can.
    t = await buildTestApp('sqlite', { collectorNetworks: ['192.0.2.0/24'] });
    server = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t.close());

  it('reads a Fox ENERGY-3 and sends its readings with the device key; the state file keeps its last reading', async () => {
    const fox = await fakeFox().start();
    const user = await signUp(t.app);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: user.auth,
      payload: { name: 'Fox', mac: '02:00:00:00:33:01', typeCode: 13 },
    });
    const { device, ingestKey } = created.json() as { device: { id: number }; ingestKey: string };
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pw-collector-'));
    const statePath = path.join(dir, 'collector.json.state.json');
    const lines: string[] = [];
    const config = collectorConfigSchema.parse({ devices: [{ kind: 'fox-energy', address: fox.url, ingestKey, pollSeconds: 1 }] });
    const proc = startCollector({ server, config, statePath, networks: ['127.0.0.0/8'], log: (l) => lines.push(l) });
    try {
      const latest = async () =>
        ((await t.app.inject({ method: 'GET', url: '/api/devices', headers: user.auth })).json() as DeviceListItem[]).find(
          (d) => d.id === device.id,
        )?.latestReading?.values;
      await expect.poll(latest, { timeout: 15_000 }).toMatchObject({ vave1: 239.7, eai1: 4951.294, balance: 0 });
      await expect.poll(() => lines.some((l) => l.endsWith(': polling'))).toBe(true);
    } finally {
      await proc.stop();
      await fox.stop();
    }
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as Record<string, { values: Record<string, number> }>;
    expect(state[ingestKey]?.values.vave1).toBe(239.7);
    // A config the collectors could not read is refused at start, naming the field.
    expect(() => collectorConfigSchema.parse({ devices: [{ kind: 'fox-energy', address: 'ftp://x', ingestKey }] })).toThrow();
  });
});
