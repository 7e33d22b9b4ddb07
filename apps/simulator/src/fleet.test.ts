// Runs the fleet against a tiny real HTTP server of the test's own (testing/fake-api.ts): the real
// devices and ingest endpoints are built in parallel; the end-to-end test against them lives in e2e/.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { DEVICE_TYPES } from '@phasewatch/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_FLEET, EMBEDDED_STATE_FILE, startEmbeddedFleet } from './embedded.js';
import { demoBillingStart, type FleetEvent, startFleet } from './fleet.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from './models/environment.js';
import { HISTORY_READY_PREFIX, terminalProgress } from './progress.js';
import { loadState } from './state.js';
import { type FakeApi, startFakeApi } from './testing/fake-api.js';

let api: FakeApi;
let dataDir: string;

beforeEach(async () => {
  api = await startFakeApi();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-sim-'));
});

afterEach(async () => {
  await api.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('demo billing start', () => {
  it('is a day a month before half a month ago: the current period began weeks ago, on any day of the year', () => {
    expect(demoBillingStart(Date.UTC(2026, 10, 27, 12))).toBe('2026-10-12');
    expect(demoBillingStart(Date.UTC(2026, 0, 3, 12))).toBe('2025-11-19');
    expect(demoBillingStart(Date.UTC(2026, 2, 15, 12))).toBe('2026-01-28');
  });
});

describe('embedded fleet', () => {
  it('registers one device of each type, backfills, goes live, and on a later start only fills the gap', async () => {
    const events: FleetEvent[] = [];
    const fleet = startEmbeddedFleet({
      baseUrl: api.url,
      email: 'demo@example.com',
      password: 'demo1234',
      dataDir,
      historyDays: 2,
      liveIntervalMs: 30,
      onProgress: (e) => events.push(e),
    });
    const summary = await fleet.backfillDone;
    expect(api.devices.map((d) => d.typeCode).sort((a, b) => a - b)).toEqual(
      [
        DEVICE_TYPES.SOLAR,
        DEVICE_TYPES.ENERGY_METER_3P,
        DEVICE_TYPES.ENERGY_METER_3P_ALT,
        DEVICE_TYPES.THERMOSTAT,
        DEVICE_TYPES.SINGLE_PHASE_METER,
      ].sort((a, b) => a - b),
    );
    // The billing period began on a day of the last weeks, not today (it would equal "Today").
    const today = new Date().toISOString().slice(0, 10);
    for (const d of api.devices) {
      expect(d.billingStartDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(d.billingStartDate).not.toBe(today);
      expect((d.billingStartDate as string) < today).toBe(true);
    }
    // History arrives in batches; live readings (already flowing) one at a time.
    const history = api.devices.reduce((n, d) => n + d.batches.filter((b) => b > 1).reduce((a, b) => a + b, 0), 0);
    expect(summary.sent).toBe(history);
    // Two days of minutes per device, less any deliberate gap.
    expect(history).toBeGreaterThan(5 * 2 * 1440 * 0.9);
    expect(history).toBeLessThanOrEqual(5 * (2 * 1440 + 1));
    expect(events.some((e) => e.type === 'setup' && !e.resumed)).toBe(true);
    expect(events.some((e) => e.type === 'backfill-done')).toBe(true);

    // Live: each device keeps sending (unless it is inside a deliberate gap right now).
    const counts = api.devices.map((d) => d.readings.length);
    await until(() => api.devices.filter((d, i) => d.readings.length > (counts[i] ?? 0)).length >= 4);
    await fleet.stop();

    const stateFile = path.join(dataDir, EMBEDDED_STATE_FILE);
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);
    const state = loadState(stateFile);
    expect(state?.devices.map((d) => d.ingestKey)).toEqual(api.devices.map((d) => d.key));
    const lastSent = api.devices.map((d) => Date.parse(d.readings[d.readings.length - 1]?.ts ?? ''));
    const before = api.devices.map((d) => d.readings.length);

    const again = startEmbeddedFleet({
      baseUrl: api.url,
      email: 'demo@example.com',
      password: 'demo1234',
      dataDir,
      historyDays: 2,
      liveIntervalMs: 0,
    });
    const resumed = await again.backfillDone;
    await again.stop();
    expect(api.registrations).toBe(DEMO_FLEET.length);
    // Only the last minute or two since the stop, never the history again.
    expect(resumed.sent).toBeLessThanOrEqual(2 * DEMO_FLEET.length);
    api.devices.forEach((d, i) => {
      const added = d.readings.slice(before[i]);
      for (const r of added) expect(Date.parse(r.ts)).toBeGreaterThan(lastSent[i] ?? 0);
    });
  });

  it('fills exactly the time the server was down, continuing the counters', async () => {
    const down = Date.now() - 3 * HOUR_MS;
    const specs = [DEMO_FLEET[0], DEMO_FLEET[2]].filter((d) => d !== undefined);
    const options = {
      baseUrl: api.url,
      email: 'demo@example.com',
      password: 'demo1234',
      stateFile: path.join(dataDir, 'state.json'),
      devices: specs,
      historyDays: 1,
      liveIntervalMs: 0,
      modelOptions: { gapsPerYear: 0, resetsPerYear: 0 },
    };
    const first = startFleet({ ...options, now: () => down });
    await first.backfillDone;
    await first.stop();
    const before = api.devices.map((d) => d.readings.length);
    expect(before).toEqual([1441, 1441]);
    const second = startFleet(options);
    const summary = await second.backfillDone;
    await second.stop();
    expect(summary.sent).toBeGreaterThanOrEqual(2 * 180);
    expect(summary.sent).toBeLessThanOrEqual(2 * 182);
    const meter = api.devices[0];
    if (!meter) throw new Error('no meter');
    const edge = meter.readings[before[0] ?? 0];
    const prev = meter.readings[(before[0] ?? 0) - 1];
    expect(Date.parse(edge?.ts ?? '') - Date.parse(prev?.ts ?? '')).toBe(MINUTE_MS);
    const step = (edge?.values.eai1 ?? 0) - (prev?.values.eai1 ?? 0);
    expect(step).toBeGreaterThanOrEqual(0);
    expect(step).toBeLessThan(0.2);
  });

  it('goes live at once while the history is still being sent, its counters continuing the history', async () => {
    await api.close();
    api = await startFakeApi({ batchDelayMs: 150 });
    const spec = DEMO_FLEET[0];
    if (!spec) throw new Error('no spec');
    const fleet = startFleet({
      baseUrl: api.url,
      email: 'demo@example.com',
      password: 'demo1234',
      stateFile: path.join(dataDir, 'state.json'),
      devices: [spec],
      historyDays: 3,
      liveIntervalMs: 40,
      batchSize: 500,
      modelOptions: { gapsPerYear: 0, resetsPerYear: 0 },
    });
    let historyDone = false;
    void fleet.backfillDone.then(() => {
      historyDone = true;
    });
    // A reading of the last seconds arrives long before three days of history are stored.
    await until(() => (api.devices[0]?.readings ?? []).some((r) => Date.now() - Date.parse(r.ts) < 5_000));
    expect(historyDone).toBe(false);
    await fleet.backfillDone;
    await fleet.stop();

    const readings = [...(api.devices[0]?.readings ?? [])].sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
    const minutes = readings.filter((r) => Date.parse(r.ts) % MINUTE_MS === 0);
    // Every minute of the three days, once (no hole where the live readings began).
    expect(minutes.length).toBeGreaterThanOrEqual(3 * 1440);
    expect(new Set(minutes.map((r) => r.ts)).size).toBe(minutes.length);
    for (let i = 1; i < readings.length; i++) {
      const step = (readings[i]?.values.eai1 ?? 0) - (readings[i - 1]?.values.eai1 ?? 0);
      // The counter never goes back or jumps where history and live readings meet.
      expect(step, readings[i]?.ts).toBeGreaterThanOrEqual(-1e-9);
      expect(step, readings[i]?.ts).toBeLessThan(0.2);
    }
  });

  it('keeps the unsent history in the state file, so a stop half-way resumes it without a hole', async () => {
    await api.close();
    api = await startFakeApi({ batchDelayMs: 100 });
    const spec = DEMO_FLEET[2];
    if (!spec) throw new Error('no spec');
    const options = {
      baseUrl: api.url,
      email: 'demo@example.com',
      password: 'demo1234',
      stateFile: path.join(dataDir, 'state.json'),
      devices: [spec],
      historyDays: 2,
      liveIntervalMs: 40,
      batchSize: 400,
      modelOptions: { gapsPerYear: 0, resetsPerYear: 0 },
    };
    const first = startFleet(options);
    await until(() => (api.devices[0]?.batches.filter((b) => b > 1).length ?? 0) >= 2);
    await first.stop();
    const pending = loadState(options.stateFile)?.devices[0]?.pending ?? [];
    expect(pending).toHaveLength(1);
    const second = startFleet(options);
    await second.backfillDone;
    await second.stop();
    expect(loadState(options.stateFile)?.devices[0]?.pending).toBeUndefined();
    const minutes = new Set((api.devices[0]?.readings ?? []).map((r) => Date.parse(r.ts)).filter((ts) => ts % MINUTE_MS === 0));
    const first0 = Math.min(...minutes);
    const last = Math.max(...minutes);
    for (let ts = first0; ts <= last; ts += MINUTE_MS) expect(minutes.has(ts), new Date(ts).toISOString()).toBe(true);
    expect(last - first0).toBeGreaterThanOrEqual(2 * DAY_MS);
  });

  it('reports a refused sign-in as a set-up error without registering anything', async () => {
    const events: FleetEvent[] = [];
    const fleet = startEmbeddedFleet({
      baseUrl: api.url,
      email: 'demo@example.com',
      password: 'wrong',
      dataDir,
      onProgress: (e) => events.push(e),
    });
    await expect(fleet.backfillDone).rejects.toThrow(/401/);
    await fleet.stop();
    expect(events.map((e) => e.type)).toEqual(['error']);
    expect(api.registrations).toBe(0);
  });

  it('prints progress and the history-ready line for a terminal', () => {
    let text = '';
    const out = new PassThrough();
    out.on('data', (d: Buffer) => {
      text += d.toString();
    });
    const show = terminalProgress(out);
    show({ type: 'setup', message: '', devices: 5, historyDays: 365, resumed: false });
    for (let done = 0; done <= 100; done += 5) {
      show({ type: 'backfill', progress: { sent: done * 10, done, total: 100, elapsedMs: 1000, readingsPerSecond: done * 10 } });
    }
    show({ type: 'backfill-done', summary: { sent: 2_628_000, requests: 530, elapsedMs: 80_000, readingsPerSecond: 32_850 } });
    const lines = text.trim().split('\n');
    expect(lines[0]).toContain('5 devices with 365 days');
    expect(lines.filter((l) => l.includes('simulated history'))).toHaveLength(11);
    expect(lines[lines.length - 1]).toBe(`${HISTORY_READY_PREFIX} 2,628,000 readings in 80.0 s (32,850 readings/s)`);
  });
});

describe('cli', () => {
  it('backfills a small fleet and exits 0', async () => {
    const cli = path.join(import.meta.dirname, 'cli.ts');
    const args = ['--import', 'tsx', cli, '--url', api.url, '--email', 'demo@example.com', '--password', 'demo1234'];
    args.push('--devices', '2', '--backfill-days', '1', '--data-dir', dataDir);
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(err).toContain(HISTORY_READY_PREFIX);
    expect(code).toBe(0);
    expect(api.devices.map((d) => d.typeCode)).toEqual([DEVICE_TYPES.ENERGY_METER_3P, DEVICE_TYPES.SOLAR]);
    expect(api.devices[0]?.readings.length).toBeGreaterThan(1440 * 0.9);
    expect(Date.now() - Date.parse(api.devices[0]?.readings.at(-1)?.ts ?? '')).toBeLessThan(DAY_MS);
  });
});
