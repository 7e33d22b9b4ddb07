import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeDevice,
  type FakeMode,
  fakeFox,
  fakeFoxDiscovery,
  fakeShelly3em,
  fakeShellyPro3em,
} from '../test/collectors/fake-devices.js';
import {
  FOX1_CURRENT,
  FOX1_ENERGY,
  FOX3_CURRENT,
  FOX3_ENERGY,
  SHELLY_EM_STATUS,
  SHELLY_EMDATA_STATUS,
  TASMOTA_ENERGY_SENSOR,
  TASMOTA_SML_SENSOR,
} from '../test/collectors/fixtures.js';
import { CollectorError } from './collector-error.js';
import type { CollectedReading } from './family.js';
import { discoverFox, foxValues } from './fox-energy.js';
import { getJson } from './http-client.js';
import { NetworkGuard } from './network-guard.js';
import { backoffMs, CollectorRunner, type RunnerDevice, type RunnerStatus } from './runner.js';
import { gen1Values } from './shelly-gen1.js';
import { emValues, historyReadings } from './shelly-gen2.js';
import { tasmotaReading, tasmotaTime } from './tasmota.js';

const LOOPBACK = ['127.0.0.0/8', '::1/128'];
const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});
async function started<T extends FakeDevice>(d: T): Promise<T> {
  await d.start();
  running.push(d);
  return d;
}

describe('wire formats in our parameters and units', () => {
  it('Fox ENERGY-3: arrays per phase, counters Wh → kWh', () => {
    const v = foxValues(FOX3_CURRENT, FOX3_ENERGY);
    expect(v).toMatchObject({ vave1: 239.7, vave2: 243.7, vave3: 234.6, iave1: 1.97, pave2: 40.3, pfave3: -0.27, frq1: 50.01 });
    expect(v).toMatchObject({ eai1: 4951.294, eai2: 1326.375, eai3: 6228.263, eae3: 0.144, eri2: 0.908, ere1: 2316.914 });
    expect(v.power3phases).toBeCloseTo(353.6 + 40.3 + 69.7, 9);
  });

  it('Fox ENERGY-1: zero-padded strings', () => {
    expect(foxValues(FOX1_CURRENT, FOX1_ENERGY)).toEqual({
      vave1: 234.8,
      iave1: 0,
      pave1: 3,
      pfave1: -0.48,
      frq1: 50,
      eai1: 1871193.477,
      eri1: 28500.78,
    });
  });

  it('Shelly Gen2 EM / EMData: a, b, c are phases 1–3, Wh → kWh', () => {
    const v = emValues(SHELLY_EM_STATUS, SHELLY_EMDATA_STATUS);
    expect(v).toMatchObject({ vave1: 236.1, iave2: 4.027, pave2: -951.1, pfave3: 1, frq1: 50, power3phases: 715.5 });
    expect(v).toMatchObject({ eai1: 2.77622, eae2: 1.85003, eai3: 2.00604 });
  });

  it('Shelly Gen1 /status: emeters, a channel marked invalid says nothing', () => {
    const v = gen1Values({
      emeters: [
        { power: 100, pf: 0.9, current: 0.5, voltage: 230, is_valid: true, total: 1500, total_returned: 20 },
        { power: 5, pf: 1, current: 0.1, voltage: 231, is_valid: false, total: 9, total_returned: 0 },
      ],
    });
    expect(v).toEqual({ vave1: 230, iave1: 0.5, pave1: 100, pfave1: 0.9, eai1: 1.5, eae1: 0.02 });
  });

  it("Tasmota: ENERGY, SML names, and the device's local Time in its timezone", () => {
    const now = Date.parse('2026-11-27T05:10:30Z');
    const plug = tasmotaReading(TASMOTA_ENERGY_SENSOR, 'Europe/Warsaw', now);
    expect(plug?.ts).toBe(Date.parse('2026-11-27T05:10:05Z'));
    expect(plug?.values).toEqual({ eai1: 12.345, pave1: 123, vave1: 231, iave1: 0.563, pfave1: 0.95 });
    const sml = tasmotaReading(TASMOTA_SML_SENSOR, 'Europe/Istanbul', Date.parse('2026-11-27T03:10:00Z'));
    expect(sml?.ts).toBe(Date.parse('2026-11-27T03:10:05Z'));
    expect(sml?.values).toEqual({
      energy3phases_import: 12345.678,
      energy3phases_export: 234.5,
      balance: 12345.678,
      balance_export: 234.5,
      power3phases: -420,
    });
    // A clock that is not set yet (1970) is not believed: stamped on receipt.
    expect(tasmotaReading({ ...TASMOTA_ENERGY_SENSOR, Time: '1970-01-01T00:00:12' }, 'Europe/Warsaw', now)?.ts).toBe(now);
    expect(tasmotaTime('2026-07-01T12:00:00', 'Europe/Warsaw')).toBe(Date.parse('2026-07-01T10:00:00Z'));
    // 02:00–03:00 comes twice on 25 October 2026 in Warsaw (CEST, then CET): the pass nearer the receipt,
    // not an hour behind it (nor, that being past the trusted skew, the receipt's own time).
    const repeated = { ...TASMOTA_ENERGY_SENSOR, Time: '2026-10-25T02:20:00' };
    expect(tasmotaReading(repeated, 'Europe/Warsaw', Date.parse('2026-10-25T00:20:30Z'))?.ts).toBe(Date.parse('2026-10-25T00:20:00Z'));
    expect(tasmotaReading(repeated, 'Europe/Warsaw', Date.parse('2026-10-25T01:20:30Z'))?.ts).toBe(Date.parse('2026-10-25T01:20:00Z'));
    expect(tasmotaTime('2026-10-25T02:20:00', 'Europe/Warsaw')).toBe(Date.parse('2026-10-25T00:20:00Z'));
    expect(tasmotaTime('2026-10-25T03:20:00', 'Europe/Warsaw', Date.parse('2026-10-25T02:20:30Z'))).toBe(
      Date.parse('2026-10-25T02:20:00Z'),
    );
    expect(tasmotaReading({ Time: '2026-11-27T06:10:05', Switch1: 'ON' }, 'Europe/Warsaw', now)).toBeNull();
  });

  it('Shelly history continues the stored counters minute by minute', () => {
    const t0 = Date.parse('2026-11-27T10:00:00Z');
    const answer = {
      keys: ['a_total_act_energy', 'a_total_act_ret_energy', 'b_total_act_energy', 'b_total_act_ret_energy', 'a_avg_voltage'],
      data: [
        {
          ts: t0 / 1000,
          period: 60,
          values: [
            [10, 0, 0, 20, 231],
            [12, 0, 0, 18, 232],
          ],
        },
      ],
    };
    const rows = historyReadings([answer], { eai1: 100, eae1: 1, eai2: 50, eae2: 2 }, t0 - 1, t0 + 3_600_000);
    expect(rows.map((r) => r.ts)).toEqual([t0 + 60_000, t0 + 120_000]);
    expect(rows[0]?.values).toMatchObject({ eai1: 100.01, eae1: 1, eai2: 50, eae2: 2.02, vave1: 231, pave1: 600, pave2: -1200 });
    expect(rows[1]?.values).toMatchObject({ eai1: 100.022, eae2: 2.038, vave1: 232 });
  });
});

describe('network guard (COLLECTOR_NETWORKS)', () => {
  it('refuses before connecting when any address a name resolves to is outside the allowed networks', async () => {
    const fox = await started(fakeFox());
    const asked: string[] = [];
    const resolver = async (host: string) => {
      asked.push(host);
      if (host === 'public.meter') return ['93.184.216.34'];
      if (host === 'mixed.meter') return ['192.168.1.20', '8.8.8.8'];
      if (host === 'metadata.meter') return ['169.254.169.254'];
      return ['127.0.0.1'];
    };
    const guard = new NetworkGuard(['127.0.0.0/8', '192.168.0.0/16'], resolver);
    for (const host of ['public.meter', 'mixed.meter', 'metadata.meter']) {
      const err = await getJson(new URL(`http://${host}:${fox.port}/0000/get_current_parameters`), { guard, timeoutMs: 1000 }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CollectorError);
      expect((err as CollectorError).key).toBe('networkRefused');
    }
    expect(fox.requests).toEqual([]);
    // The same path through the stub to loopback does connect: the refusal above is the guard's.
    const ok = await getJson(new URL(`http://local.meter:${fox.port}/0000/get_current_parameters`), { guard, timeoutMs: 2000 });
    expect(ok).toMatchObject({ status: 'ok' });
    expect(fox.requests).toEqual(['/0000/get_current_parameters']);
    expect(asked).toEqual(['public.meter', 'mixed.meter', 'metadata.meter', 'local.meter']);
  });

  it('checks IP literals too, IPv4-mapped IPv6 as IPv4', async () => {
    const guard = new NetworkGuard(['127.0.0.0/8', '10.0.0.0/8'], async () => {
      throw new Error('no lookup for literals');
    });
    expect(await guard.address('127.0.0.1')).toBe('127.0.0.1');
    expect(guard.allows('::ffff:10.1.2.3')).toBe(true);
    expect(guard.allows('::ffff:8.8.8.8')).toBe(false);
    await expect(guard.address('[::1]')).rejects.toMatchObject({ key: 'networkRefused' });
    await expect(guard.address('172.16.0.1')).rejects.toMatchObject({ key: 'networkRefused' });
    expect(() => new NetworkGuard(['10.0.0.0/33'])).toThrow(/COLLECTOR_NETWORKS/);
    // Loopback only (the tests' setting): names are refused without a DNS query, except localhost.
    await expect(new NetworkGuard(LOOPBACK).address('meter.lan')).rejects.toMatchObject({ key: 'networkRefused' });
    expect(await new NetworkGuard(LOOPBACK).address('localhost')).toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  it('never follows a redirect', async () => {
    const fox = await started(fakeFox());
    fox.mode = 'redirect';
    await expect(
      getJson(new URL(`${fox.url}/0000/get_current_parameters`), { guard: new NetworkGuard(LOOPBACK), timeoutMs: 2000 }),
    ).rejects.toMatchObject({ key: 'redirect' });
    expect(fox.requests).toHaveLength(1);
  });
});

describe('Fox UDP discovery', () => {
  it('finds a device answering on 127.0.0.1 (the request goes to the configured address, never a broadcast here)', async () => {
    const responder = await fakeFoxDiscovery([0x60, 0x01, 0x94, 0xab, 0xcd, 0xef], 12);
    try {
      const found = await discoverFox({
        target: { host: '127.0.0.1', port: responder.port },
        waitMs: 400,
        allowed: () => true,
        sourcePort: 0,
      });
      expect(found).toEqual([{ address: 'http://127.0.0.1', mac: '60:01:94:AB:CD:EF', deviceType: 12 }]);
      expect(responder.requests).toBeGreaterThan(0);
      // Answers from outside the allowed networks are left out.
      expect(
        await discoverFox({ target: { host: '127.0.0.1', port: responder.port }, waitMs: 200, allowed: () => false, sourcePort: 0 }),
      ).toEqual([]);
    } finally {
      await responder.close();
    }
  });
});

/** A runner storing into arrays, with the statuses it reported. */
function collecting() {
  const delivered = new Map<number, CollectedReading[]>();
  const statuses: { id: number; status: RunnerStatus }[] = [];
  const runner = new CollectorRunner({
    guard: new NetworkGuard(LOOPBACK),
    sink: {
      deliver: async (d, readings) => {
        delivered.set(d.id, [...(delivered.get(d.id) ?? []), ...readings]);
      },
      changed: (d, status) => statuses.push({ id: d.id, status: { ...status } }),
    },
  });
  running.push(runner);
  return { runner, delivered, statuses };
}

const device = (id: number, kind: RunnerDevice['kind'], address: string, extra: Partial<RunnerDevice> = {}): RunnerDevice => ({
  id,
  kind,
  address,
  key: undefined,
  pollSeconds: 1,
  timezone: 'Europe/Warsaw',
  last: null,
  ...extra,
});

describe('collector runner', () => {
  it.each<Exclude<FakeMode, 'ok' | 'redirect'> | 'gone'>(['hang', 'garbage', 'html', 'statusFalse', 'http500', 'gone'])(
    'a device that goes %s is retried with back-off while another keeps flowing',
    async (failure) => {
      const good = await started(fakeFox());
      const bad = await started(fakeFox());
      const { runner, delivered } = collecting();
      runner.add(device(1, 'fox-energy', good.url));
      runner.add(device(2, 'fox-energy', bad.url));
      await expect.poll(() => delivered.get(2)?.length ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
      if (failure === 'gone') await bad.stop();
      else bad.mode = failure;
      const before = delivered.get(1)?.length ?? 0;
      await expect.poll(() => runner.status(2)?.failures ?? 0, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      const s = runner.status(2) as RunnerStatus;
      expect(s.state).toBe('retrying');
      expect(s.lastErrorKey).toBe(
        { hang: 'timeout', garbage: 'notJson', html: 'notJson', statusFalse: 'deviceError', http500: 'httpStatus', gone: 'unreachable' }[
          failure
        ],
      );
      expect(s.lastError).toBeTruthy();
      // The healthy device kept its pace meanwhile.
      expect((delivered.get(1)?.length ?? 0) - before).toBeGreaterThanOrEqual(2);
      // Back-off: the next try is further away than the poll interval.
      expect((s.nextAttemptAt ?? 0) - Date.now()).toBeGreaterThan(500);
      // Back again: readings flow and the state says so.
      if (failure === 'gone') await bad.start(bad.port);
      else bad.mode = 'ok';
      await expect.poll(() => runner.status(2)?.state, { timeout: 30_000 }).toBe('polling');
      expect(runner.status(2)?.failures).toBe(0);
    },
    60_000,
  );

  it('doubles the wait per failure up to five minutes', () => {
    expect(backoffMs(5, 1, 0.5)).toBe(10_000);
    expect(backoffMs(5, 3, 0.5)).toBe(40_000);
    expect(backoffMs(5, 20, 0.5)).toBe(300_000);
  });

  it('drops values no meter can measure (the ingest rules) and says which', async () => {
    const fox = await started(fakeFox());
    fox.state.current = { ...fox.state.current, voltage: [239.7, 1e12, 'nan'] };
    const { runner, delivered } = collecting();
    runner.add(device(1, 'fox-energy', fox.url));
    await expect.poll(() => delivered.get(1)?.length ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
    const v = (delivered.get(1) as CollectedReading[])[0]?.values ?? {};
    expect(v.vave1).toBe(239.7);
    expect(v).not.toHaveProperty('vave2');
    expect(v).not.toHaveProperty('vave3');
    expect(runner.status(1)?.lastErrorKey).toBe('badValues');
    expect(runner.status(1)?.lastError).toMatch(/vave2 = 1000000000000/);
  });

  it('adds the balanced counters to readings with per-phase import and export', async () => {
    const shelly = await started(fakeShellyPro3em());
    const { runner, delivered } = collecting();
    runner.add(device(1, 'shelly-gen2', shelly.url));
    await expect.poll(() => delivered.get(1)?.length ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
    // Next interval: phase a imports 100 Wh, phase b feeds in 150 Wh: 50 Wh exported net.
    const d = shelly.state.emdata as Record<string, number>;
    shelly.state.emdata = {
      ...d,
      a_total_act_energy: (d.a_total_act_energy as number) + 100,
      b_total_act_ret_energy: (d.b_total_act_ret_energy as number) + 150,
    };
    await expect.poll(() => delivered.get(1)?.at(-1)?.values.balance_export ?? 0, { timeout: 10_000 }).toBeCloseTo(0.05, 9);
    expect(delivered.get(1)?.at(-1)?.values.balance).toBe(0);
  });

  it('fills a Shelly gap from EMData.GetData before the live reading', async () => {
    const shelly = await started(fakeShellyPro3em());
    const now = Date.now();
    const lastTs = Math.floor((now - 10 * 60_000) / 60_000) * 60_000;
    const last = { ts: lastTs, values: { eai1: 2.5, eae1: 0, eai2: 0.002, eae2: 1.6, eai3: 1.9, eae3: 0 } };
    for (let m = 0; m < 9; m++) shelly.state.history.push({ ts: lastTs / 1000 + m * 60, imp: [25, 0, 10], ret: [0, 25, 0] });
    const { runner, delivered } = collecting();
    runner.add(device(1, 'shelly-gen2', shelly.url, { last, pollSeconds: 5 }));
    await expect.poll(() => delivered.get(1)?.length ?? 0, { timeout: 10_000 }).toBeGreaterThan(1);
    const readings = delivered.get(1) as CollectedReading[];
    expect(shelly.requests).toContain('/rpc/EMData.GetData');
    // Nine filled minutes, in order, then the live reading.
    expect(readings).toHaveLength(10);
    expect(readings.slice(0, 9).map((r) => r.ts)).toEqual(Array.from({ length: 9 }, (_, m) => lastTs + (m + 1) * 60_000));
    expect(readings[8]?.values).toMatchObject({ eai1: 2.725, eae2: 1.825, eai3: 1.99 });
    // Net per minute: +25 +10 −25 Wh: 10 Wh imported each minute.
    expect(readings[8]?.values.balance).toBeCloseTo(0.09, 9);
    expect(readings[9]?.values.eai1).toBe(2.77622);
  });

  it('a Shelly Gen1 total that restarts from zero continues as a reset (never negative, never counted twice)', async () => {
    const shelly = await started(fakeShelly3em());
    const { runner, delivered } = collecting();
    runner.add(device(1, 'shelly-gen1', shelly.url));
    await expect.poll(() => delivered.get(1)?.length ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
    shelly.state.emeters = shelly.state.emeters.map((m, i) => ({ ...m, total: i === 0 ? 12 : m.total }));
    await expect.poll(() => delivered.get(1)?.at(-1)?.values.eai1, { timeout: 10_000 }).toBe(0.012);
    // The restart counted 12 Wh since power came back: that is all the balance gained.
    expect(delivered.get(1)?.at(-1)?.values.balance).toBeCloseTo(0.012, 9);
  });
});
