import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server.js';

/**
 * The embedded default as `npm start` runs it: the demo account is seeded and its simulated fleet
 * registers devices and backfills history through the public API; a restart reuses both.
 */
describe.each(['sqlite', 'postgres'] as const)('embedded default on %s', (dialect) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-embedded-'));
  let server: RunningServer | undefined;
  const env = { DEMO_ACCOUNT: 'on', SIMULATE: '1', SIMULATE_HISTORY_DAYS: '1', LOG_LEVEL: 'warn' };

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function waitFor(predicate: () => boolean, what: string, ms = 90_000) {
    const end = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}:\n${server?.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async function signIn(baseUrl: string) {
    const res = await fetch(`${baseUrl}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@phasewatch.dev', password: 'demo1234' }),
    });
    expect(res.status).toBe(200);
    return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
  }

  type Device = { id: number; name: string; typeCode: number; status: string; lastSeen: string | null; totalEnergyKwh: number };

  it('seeds the demo account, prints the sign-in and backfills a fleet of every device type', async () => {
    server = await startServer({ dialect, dataDir, env });
    const s = server;
    await waitFor(() => s.output().includes('Simulated history ready:'), 'the backfill');
    expect(s.output()).toContain('Sign in with demo@phasewatch.dev / demo1234');
    expect(s.output()).toMatch(/Simulating 5 devices with 1 days of 1-minute history \(first start\)/);
    expect(statSync(path.join(dataDir, 'simulator-state.json')).mode & 0o777).toBe(0o600);

    const auth = await signIn(s.baseUrl);
    const devices = (await (await fetch(`${s.baseUrl}/api/devices`, { headers: auth })).json()) as Device[];
    expect(devices.map((d) => d.typeCode).sort((a, b) => a - b)).toEqual([10, 13, 16, 17, 20]);
    const meter = devices.find((d) => d.typeCode === 13);
    expect(meter?.totalEnergyKwh).toBeGreaterThan(0);

    // Locations and tariffs the devices use, so the costs show at once (the dashboard's two columns). The
    // fleet sets them up once its devices exist, beside the backfill: on a busy machine a moment later.
    const get = async <T>(url: string) => (await (await fetch(`${s.baseUrl}/api/${url}`, { headers: auth })).json()) as T;
    type Place = { id: number; name: string; tariff: { id: number } | null; devices: unknown[] };
    await expect
      .poll(async () => (await get<(Device & { tariff: unknown })[]>('devices')).filter((d) => d.tariff !== null).length, {
        timeout: 60_000,
      })
      .toBe(5);
    const places = await get<Place[]>('locations');
    expect(places.map((p) => p.name).sort()).toEqual(['Flat', 'Home', 'Workshop']);
    expect(places.every((p) => p.tariff !== null)).toBe(true);
    for (const d of await get<(Device & { location: unknown; tariff: unknown })[]>('devices')) {
      expect(d.location, d.name).not.toBeNull();
      expect(d.tariff, d.name).not.toBeNull();
    }
    const home = places.find((p) => p.name === 'Home');
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const stats = await get<{ kWh: number; totalCost: number; zones: { area: number }[] }>(
      `tariffs/${home?.tariff?.id}/stats?from=${day(Date.now() - 2 * 86_400_000)}&to=${day(Date.now() + 2 * 86_400_000)}`,
    );
    expect(stats.kWh).toBeGreaterThan(0);
    expect(stats.totalCost).toBeGreaterThan(0);
    expect(stats.zones.map((z) => z.area)).toEqual([1, 2]);

    // A day of history: hourly buckets with energy, and the energy summary agrees with the buckets.
    const to = new Date();
    const from = new Date(to.getTime() - 20 * 3600_000);
    const q = new URLSearchParams({ from: from.toISOString(), to: to.toISOString(), interval: '1h', params: 'energy3phases_import,vave1' });
    const readings = (await (await fetch(`${s.baseUrl}/api/devices/${meter?.id}/readings?${q}`, { headers: auth })).json()) as {
      ts: number[];
      series: Record<string, { delta?: number[]; avg?: number[] }>;
    };
    expect(readings.ts.length).toBeGreaterThanOrEqual(18);
    const deltas = readings.series.energy3phases_import?.delta ?? [];
    expect(deltas.every((d) => d >= 0)).toBe(true);
    expect(deltas.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    const volts = readings.series.vave1?.avg ?? [];
    expect(Math.min(...volts)).toBeGreaterThan(180);
    expect(Math.max(...volts)).toBeLessThan(260);

    // Live readings keep coming after the backfill: the devices are (or soon are) online.
    const end = Date.now() + 30_000;
    let online = 0;
    while (Date.now() < end) {
      const list = (await (await fetch(`${s.baseUrl}/api/devices`, { headers: auth })).json()) as Device[];
      online = list.filter((d) => d.status === 'online').length;
      if (online >= 4) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(online).toBeGreaterThanOrEqual(4);
  });

  it('reuses the devices and data on a later start', async () => {
    await server?.stop();
    server = await startServer({ dialect, dataDir, databaseUrl: server?.databaseUrl ?? '', env });
    const s = server;
    await waitFor(() => s.output().includes('Simulated history ready:'), 'the catch-up');
    expect(s.output()).not.toContain('(first start)');
    const auth = await signIn(s.baseUrl);
    const devices = (await (await fetch(`${s.baseUrl}/api/devices`, { headers: auth })).json()) as Device[];
    expect(devices).toHaveLength(5);
    // The demo places are made once: a restart finds them and adds none.
    await new Promise((r) => setTimeout(r, 1000));
    const places = (await (await fetch(`${s.baseUrl}/api/locations`, { headers: auth })).json()) as unknown[];
    expect(places).toHaveLength(3);
  });
});

/**
 * The first start's backfill takes minutes on a year of history; the demo devices must not show offline
 * with old values all that time. They go live at once and the history is sent beside them.
 */
describe('first start of the embedded default', () => {
  let server: RunningServer | undefined;
  afterAll(async () => server?.stop());

  it('shows the demo devices online with current readings while the history is still being stored', async () => {
    server = await startServer({ env: { DEMO_ACCOUNT: 'on', SIMULATE: '1', SIMULATE_HISTORY_DAYS: '20', LOG_LEVEL: 'warn' } });
    const s = server;
    let auth: Record<string, string> | null = null;
    type Item = { id: number; typeCode: number; status: string; latestReading: { ts: number } | null };
    let list: Item[] = [];
    let seenDuringBackfill = false;
    const end = Date.now() + 90_000;
    while (Date.now() < end && !s.output().includes('Simulated history ready:')) {
      if (!auth) {
        const res = await fetch(`${s.baseUrl}/api/account/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'demo@phasewatch.dev', password: 'demo1234' }),
        });
        if (res.ok) auth = { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
      }
      if (auth) {
        list = (await (await fetch(`${s.baseUrl}/api/devices`, { headers: auth })).json()) as Item[];
        const fresh = list.filter((d) => d.status === 'online' && d.latestReading && Date.now() - d.latestReading.ts < 60_000);
        const meter = list.find((d) => d.typeCode === 13);
        if (fresh.length >= 4 && meter) {
          // The history is sent oldest first: its last two days are not stored yet while it is under way.
          const q = new URLSearchParams({
            from: new Date(Date.now() - 2 * 86_400_000).toISOString(),
            to: new Date(Date.now() - 3_600_000).toISOString(),
            interval: '1h',
            params: 'vave1',
          });
          const recent = (await (await fetch(`${s.baseUrl}/api/devices/${meter.id}/readings?${q}`, { headers: auth })).json()) as {
            series: { vave1?: { avg?: (number | null)[] } };
          };
          const stored = (recent.series.vave1?.avg ?? []).filter((v) => v !== null).length;
          if (stored < 24) {
            seenDuringBackfill = true;
            break;
          }
        }
      }
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(seenDuringBackfill, `devices during the backfill: ${JSON.stringify(list.map((d) => [d.status, d.latestReading?.ts]))}`).toBe(
      true,
    );
  });
});
