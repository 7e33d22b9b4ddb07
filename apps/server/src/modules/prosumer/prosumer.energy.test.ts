import { netHourly, zonedTimeToUtc } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';
import { FlowsReader, wholeHours } from './prosumer.energy.js';

const WAW = 'Europe/Warsaw';
const H = 3_600_000;

describe('which ranges read the hourly level', () => {
  it('whole hours of a zone whose offsets are whole hours, across both DST changes', () => {
    const from = zonedTimeToUtc(WAW, 2026, 1, 1);
    const to = zonedTimeToUtc(WAW, 2027, 1, 1);
    expect(wholeHours(WAW, from, to)).toBe(true);
    expect(wholeHours('Europe/Istanbul', from, to)).toBe(true);
  });
  it('not a zone with a half-hour offset, nor a range that cuts an hour', () => {
    const from = Date.UTC(2026, 0, 1);
    expect(wholeHours('Asia/Kolkata', from, from + 24 * H)).toBe(false);
    expect(wholeHours('Asia/Kathmandu', from, from + 24 * H)).toBe(false);
    expect(wholeHours(WAW, from + 15 * 60_000, from + 24 * H)).toBe(false);
    expect(wholeHours(WAW, from, from)).toBe(false);
  });
});

describe.each(DIALECTS)('the flows a location nets, read hourly or by quarter-hours (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
  });
  afterAll(async () => t.close());

  it('net to the same hours across the autumn DST change, rolled up and from raw rows', async () => {
    const user = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: user.auth,
      payload: { name: 'grid', mac: '02:7C:00:00:00:01', typeCode: 13 },
    });
    const { device, ingestKey } = res.json() as { device: { id: number }; ingestKey: string };
    // Two days around 25 October 2026 (25 hours), a reading every 5 minutes: phase 1 imports, phases 2 and 3
    // export by day, with a gap of 40 minutes on the DST day.
    const from = zonedTimeToUtc(WAW, 2026, 10, 24);
    const to = zonedTimeToUtc(WAW, 2026, 10, 26);
    const readings: { ts: string; values: Record<string, number> }[] = [];
    const c = { eai1: 100, eai2: 50, eai3: 50, eae1: 0, eae2: 10, eae3: 10 };
    for (let ts = from, k = 0; ts < to; ts += 300_000, k++) {
      const hour = Math.floor((ts - from) / H) % 24;
      c.eai1 += 0.05 + (k % 7) * 0.01;
      if (hour >= 9 && hour < 15) {
        c.eae2 += 0.09;
        c.eae3 += 0.04 + (k % 3) * 0.01;
      } else c.eai2 += 0.02;
      if (ts > to - 20 * H && ts < to - 20 * H + 40 * 60_000) continue;
      readings.push({ ts: new Date(ts).toISOString(), values: { ...c } });
    }
    for (let i = 0; i < readings.length; i += 200) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        headers: { 'x-device-key': ingestKey },
        payload: { readings: readings.slice(i, i + 200) },
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    await t.ctx.telemetry.compactNow();
    const flows = new FlowsReader(t.ctx.telemetry.readings);
    for (const source of ['rollups', 'raw'] as const) {
      const hourly = netHourly(toQuarter(await flows.read(device.id, WAW, from, to, source)), WAW);
      const quarters = netHourly(toQuarter(await flows.read(device.id, WAW, from, to, source, { quarters: true })), WAW);
      expect(hourly.length).toBe(49);
      const round = (hs: typeof hourly) =>
        hs.map((h) => ({
          ...h,
          importKWh: r9(h.importKWh),
          exportKWh: r9(h.exportKWh),
          nettedImportKWh: r9(h.nettedImportKWh),
          nettedExportKWh: r9(h.nettedExportKWh),
        }));
      expect(round(hourly)).toEqual(round(quarters));
      expect(hourly.some((h) => h.nettedExportKWh > 0)).toBe(true);
    }
  });
});

const r9 = (v: number) => Math.round(v * 1e9) / 1e9;
const toQuarter = (f: { ts: Float64Array; import: Float64Array; export: Float64Array }) => ({
  ts: f.ts,
  import: [f.import],
  export: [f.export],
});
