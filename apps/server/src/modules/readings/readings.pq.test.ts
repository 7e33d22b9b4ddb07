import { PQ_LIMITS, PqAggregate } from '@phasewatch/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';
import { decodeBlob } from './readings.packed.js';
import { pqSpanOf } from './readings.pq.js';

const MIN = 60_000;
const H = 60 * MIN;
const TZ = 'Europe/Warsaw';
type Reading = { ts: number; values: Record<string, number> };

describe.each(DIALECTS)('the power-quality aggregate kept with the rollups (%s)', (dialect) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let macs = 0;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    user = await signUp(t.app);
  });
  afterAll(async () => t?.close());

  const device = async () => {
    const mac = `62:00:00:00:00:${String(++macs).padStart(2, '0')}`;
    const res = await t.app.inject({ method: 'POST', url: '/api/devices', headers: user.auth, payload: { name: mac, mac, typeCode: 13 } });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { device: { id: number } }).device.id;
  };
  const write = (deviceId: number, readings: Reading[]) => t.ctx.telemetry.readingsRepository.write([{ deviceId, tz: TZ, readings }]);
  const rows = async (deviceId: number) => {
    const r = await sql<{
      bucket: number | string;
      data: Uint8Array;
    }>`SELECT bucket, data FROM rollup_pq WHERE device_id = ${deviceId} ORDER BY bucket`.execute(t.ctx.storage.db);
    return r.rows.map((x) => ({ bucket: Number(x.bucket), data: Buffer.from(x.data).toString('hex') }));
  };

  it('holds the same bytes whatever order, batches and repeats the readings came in', async () => {
    const base = Date.parse('2026-11-18T10:00:00Z');
    const reading = (i: number, extra: Record<string, number> = {}): Reading => ({
      ts: base + i * 20_000,
      values: {
        vave1: 229.4 + (i % 7) * 0.3,
        vmin1: i % 97 === 5 ? 198.2 : 228,
        vmax1: 232,
        vave2: i % 113 === 7 ? 3.5 : 231.1,
        vave3: 230.02 + (i % 3) * 0.01,
        frq1: i % 50 === 0 ? 49.2 : 50.01,
        ...extra,
      },
    });
    // Three hours of 20-second readings; one reading carries no voltage at all.
    const all = Array.from({ length: 540 }, (_, i) => (i === 301 ? { ts: base + i * 20_000, values: { eai1: 5 } } : reading(i)));
    const inOrder = await device();
    await write(inOrder, all);
    await t.ctx.telemetry.compactNow();

    // The same readings to another device: the middle hour held back and sent late in pieces, newest first,
    // a stretch sent twice (first without frequency), then the rest.
    const late = await device();
    const held = (r: Reading) => r.ts >= base + H && r.ts < base + 2 * H;
    await write(
      late,
      all.filter((r) => !held(r)),
    );
    await t.ctx.telemetry.compactNow();
    const middle = all.filter(held).reverse();
    for (let i = 0; i < middle.length; i += 37) {
      const part = middle.slice(i, i + 37).sort((a, b) => a.ts - b.ts);
      await write(
        late,
        part.map((r) => ({ ts: r.ts, values: Object.fromEntries(Object.entries(r.values).filter(([k]) => k !== 'frq1')) })),
      );
      await write(late, part);
    }

    const expected = await rows(inOrder);
    expect(expected.map((r) => r.bucket)).toEqual([base, base + H, base + 2 * H]);
    expect(await rows(late)).toEqual(expected);

    // What a stored hour holds: its readings, the rms inputs, the candidates, the frequency counts.
    const agg = new PqAggregate(base, 18);
    for (const r of expected) agg.decodeHour(r.bucket, decodeBlob(Buffer.from(r.data, 'hex')));
    const inBin = (b: number) => all.filter((r) => Math.floor((r.ts - base) / PQ_LIMITS.binMs) === b);
    for (let b = 0; b < 18; b++) {
      const readings = inBin(b);
      expect(agg.rows(b)).toBe(readings.length);
      let sumsq = 0;
      for (const r of readings) if (r.values.vave1 !== undefined) sumsq += r.values.vave1 * r.values.vave1;
      expect(agg.phaseBins(1).sumsq[b]).toBe(sumsq);
      const candidates = readings.filter((r) => r.values.vmin1 === 198.2 || r.values.vave2 === 3.5).length;
      expect(agg.candidates(b)).toBe(candidates);
    }
    expect(agg.frequency(base, base + 3 * H)).toMatchObject({ readings: 539, outside: 0, within: 539 - 11, min: 49.2, max: 50.01 });
  }, 60_000);
});

describe('the hours a roll-up aggregates', () => {
  const H = 3_600_000;
  const t0 = Date.UTC(2026, 10, 27, 10);
  it('are the hours its rows fall in, not the whole range from the watermark (a first roll-up starts at 0)', () => {
    expect(pqSpanOf([t0 + 60_000, t0 + H + 5_000, t0 + 2 * H - 1], 0, t0 + 3 * H)).toEqual([t0, t0 + 2 * H]);
    expect(pqSpanOf([t0 + 30 * 60_000], t0, t0 + H)).toEqual([t0, t0 + H]);
  });
  it('leave out rows outside [lo, hi), and are none without rows', () => {
    expect(pqSpanOf([t0 - 1, t0 + 10, t0 + 5 * H], t0, t0 + 2 * H)).toEqual([t0, t0 + H]);
    expect(pqSpanOf([], 0, t0)).toBeNull();
    expect(pqSpanOf([t0 + 5 * H], t0, t0 + H)).toBeNull();
  });
});
