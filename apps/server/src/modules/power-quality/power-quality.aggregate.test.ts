import { localWeek, type PowerQualityResponse } from '@phasewatch/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';
import { LocationsRepository } from '../locations/index.js';
import type { ReadingsRepository } from '../readings/index.js';
import { loadPowerQualityReport, type PowerQualitySource } from './power-quality.service.js';

/*
 * The week's report from the 10-minute aggregate equals the report from every raw reading (the computation
 * the aggregate replaced), figure for figure: dips, swells, interruptions across bins and hours, invalid bins,
 * slow variations, overvoltage, frequency excursions, readings without voltage, late and repeated readings
 * recomputing stored hours, readings past the watermark, a device from before the aggregate (backfilled), a
 * zone whose offset is not whole 10 minutes, and an hourly meter whose events only a stand-in reading separates.
 */

const MIN = 60_000;
const H = 60 * MIN;
const DAY = 24 * H;
const WEEK = '2026-11-16';
type Values = Record<string, number>;
type Reading = { ts: number; values: Values };

/** A three-phase reading at `t` with the week's disturbances placed relative to `from`. */
function disturbed(from: number) {
  const at = (day: number, h: number, m = 0) => from + day * DAY + h * H + m * MIN;
  return (t: number): Values | null => {
    // Saturday 06:00–06:05 missing (an invalid bin), Saturday 13:00 missing (9 of 10: still valid).
    if ((t >= at(5, 6) && t < at(5, 6, 5)) || t === at(5, 13)) return null;
    // Sunday 02:03: a reading without voltage between two dips (it ends the first).
    if (t === at(6, 2, 3)) return { eai1: 1 };
    const k = Math.round(t / MIN);
    const mean = [229.7 + (k % 7) * 0.13, 231.04 - (k % 5) * 0.21, 230.3 + (k % 3) * 0.17];
    const min = mean.map((v) => v - 1.3);
    const max = mean.map((v) => v + 1.1);
    // Dips on phase 1 (Tuesday 10:05–10:06; Sunday 02:02 and 02:04), a swell on phase 2 across a bin (Tuesday 14:09–14:11).
    if ((t >= at(1, 10, 5) && t <= at(1, 10, 6)) || t === at(6, 2, 2) || t === at(6, 2, 4)) min[0] = 183.25;
    if (t >= at(1, 14, 9) && t <= at(1, 14, 11)) max[1] = 261.4;
    // A long interruption of phase 3 across an hour (Wednesday 03:58–04:03), a short one of phase 1 (Thursday 09:00–09:02).
    if (t >= at(2, 3, 58) && t <= at(2, 4, 3)) [mean[2], min[2]] = [0.4, 0.1];
    if (t >= at(3, 9) && t <= at(3, 9, 2)) [mean[0], min[0]] = [3.2, 1.5];
    // Slow variations: phase 2 at 200 V for 20 minutes (Wednesday 20:00), overvoltage on phase 3 (Thursday 12:00–12:20).
    if (t >= at(2, 20) && t < at(2, 20, 20)) mean[1] = 200.06;
    if (t >= at(3, 12) && t < at(3, 12, 20)) mean[2] = 254.35;
    // Frequency: one reading outside 47–52 Hz, a few outside 49.5–50.5 Hz (Friday 11:00–11:05).
    const frq1 = t === at(4, 11) ? 46.9 : t > at(4, 11) && t <= at(4, 11, 5) ? 49.37 : 50 + (k % 9) * 0.01;
    const v: Values = { frq1, eai1: 1000 + (t - from) / H };
    for (let p = 0; p < 3; p++) {
      v[`vave${p + 1}`] = Math.round((mean[p] as number) * 100) / 100;
      v[`vmin${p + 1}`] = Math.round((min[p] as number) * 100) / 100;
      v[`vmax${p + 1}`] = Math.round((max[p] as number) * 100) / 100;
    }
    return v;
  };
}

function series(a: number, b: number, step: number, f: (t: number) => Values | null, keep: (t: number) => boolean = () => true): Reading[] {
  const out: Reading[] = [];
  for (let t = a; t < b; t += step) {
    const values = f(t);
    if (values && keep(t)) out.push({ ts: t, values });
  }
  return out;
}

describe.each(DIALECTS)('power-quality aggregate equals the raw computation (%s)', (dialect) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let repo: ReadingsRepository;
  let src: PowerQualitySource;
  /** Raw rows the report read (the aggregate's answer reads only a few). */
  let rawRows = 0;
  let macs = 0;

  const register = async (who: typeof user, intervalS: number) => {
    const mac = `61:00:00:00:00:${String(++macs).padStart(2, '0')}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: who.auth,
      payload: { name: `PQ ${macs}`, mac, typeCode: 13, reportingIntervalSeconds: intervalS },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { device: { id: number } }).device.id;
  };
  const write = async (deviceId: number, tz: string, readings: Reading[], per = 5000) => {
    for (let i = 0; i < readings.length; i += per) await repo.write([{ deviceId, tz, readings: readings.slice(i, i + per) }]);
  };
  const both = async (userId: number, deviceId: number, week = WEEK) => {
    rawRows = 0;
    const agg = await loadPowerQualityReport(src, userId, deviceId, week);
    const aggRows = rawRows;
    const raw = await loadPowerQualityReport(src, userId, deviceId, week, Date.now(), { raw: true });
    expect(agg).toEqual(raw);
    expect(JSON.stringify(agg)).toBe(JSON.stringify(raw));
    return { report: agg as PowerQualityResponse, aggRows, rawRows: rawRows - aggRows };
  };
  const pqRows = async (deviceId: number) =>
    Number(
      (await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM rollup_pq WHERE device_id = ${deviceId}`.execute(t.ctx.storage.db))
        .rows[0]?.n,
    );

  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    user = await signUp(t.app);
    repo = t.ctx.telemetry.readingsRepository;
    const counting = Object.create(repo) as ReadingsRepository;
    counting.raw = async (...args: Parameters<ReadingsRepository['raw']>) => {
      const r = await repo.raw(...args);
      rawRows += r.ts.length;
      return r;
    };
    src = {
      db: t.ctx.storage.db,
      devices: t.ctx.telemetry.deviceReads,
      locations: new LocationsRepository(t.ctx.storage.db),
      readings: counting,
    };
  }, 60_000);
  afterAll(async () => t?.close());

  it('gives the same week with late and repeated readings, a raw tail past the watermark and a backfilled past', async () => {
    const tz = 'Europe/Warsaw';
    const { from, to } = localWeek(WEEK, tz);
    const f = disturbed(from);
    const id = await register(user, 60);
    // Held back, written late: Tuesday 10:00–10:20 (with the dip) and the interruption across Wednesday 04:00.
    const tue10 = from + DAY + 10 * H;
    const wed4 = from + 2 * DAY + 4 * H;
    const late = (x: number) => (x >= tue10 && x < tue10 + 20 * MIN) || (x >= wed4 - 10 * MIN && x < wed4 + 10 * MIN);
    await write(
      id,
      tz,
      series(from - H, to + H, MIN, f, (x) => !late(x)),
    );
    await t.ctx.telemetry.compactNow();
    expect((await repo.pqCoverage(id)).through).toBe(to + H);
    // Late readings into stored hours, and a repeated Thursday 15:00 reading that now dips on phase 1.
    await write(id, tz, series(from, to, MIN, f, late));
    const thu15 = from + 3 * DAY + 15 * H;
    await write(id, tz, [{ ts: thu15, values: { vmin1: 190.5 } }]);

    const first = await both(user.userId, id);
    const r = first.report;
    expect(r.events.map((e) => `${e.kind} L${e.phase} ${e.start} ${e.durationSeconds}s ${e.extreme}`)).toEqual([
      'dip L1 2026-11-17T10:05:00+01:00 120s 183.3',
      'swell L2 2026-11-17T14:09:00+01:00 180s 261.4',
      'interruption L3 2026-11-18T03:58:00+01:00 360s 0.1',
      'interruption L1 2026-11-19T09:00:00+01:00 180s 1.5',
      'dip L1 2026-11-19T15:00:00+01:00 60s 190.5',
      'dip L1 2026-11-22T02:02:00+01:00 60s 183.3',
      'dip L1 2026-11-22T02:04:00+01:00 60s 183.3',
    ]);
    expect(r.phases.map((p) => [p.invalid, p.flagged])).toEqual([
      [1, 4],
      [1, 2],
      [1, 2],
    ]);
    expect(r.phases[1]?.n1).toBe(2);
    expect(r.overvoltage.map((o) => o.start)).toEqual(['2026-11-19T12:00:00+01:00', '2026-11-19T12:10:00+01:00']);
    expect(r.frequency).toMatchObject({ outside47to52: 1, min: 46.9 });
    expect(r.verdict).toBe('fail');
    // From the aggregate: only the candidate bins' raw rows, a small part of the week's.
    expect(first.rawRows).toBeGreaterThan(10_000);
    expect(first.aggRows).toBeLessThan(first.rawRows / 50);
    expect(await pqRows(id)).toBe(7 * 24 + 2);

    // The watermark three hours before the week ends (as when the compactor has not reached them): raw past it.
    const tailFrom = to - 3 * H;
    const readings = src.readings;
    const behind = Object.create(readings) as ReadingsRepository;
    behind.pqCoverage = async (deviceId) => ({ ...(await readings.pqCoverage(deviceId)), through: tailFrom });
    src.readings = behind;
    const tail = await both(user.userId, id);
    expect(tail.report).toEqual(r);
    expect(tail.aggRows).toBeGreaterThanOrEqual(180);
    src.readings = readings;

    // As a device from before migration 0011: the aggregate only from Thursday on, raw rows before it.
    const thursday = from + 3 * DAY;
    await sql`DELETE FROM rollup_pq WHERE device_id = ${id} AND bucket < ${thursday}`.execute(t.ctx.storage.db);
    await sql`UPDATE devices SET pq_from = ${thursday} WHERE id = ${id}`.execute(t.ctx.storage.db);
    expect((await both(user.userId, id)).report).toEqual(r);
    // The compactor builds the older hours from raw rows: every hour again, the coverage from the start.
    await t.ctx.telemetry.compactNow();
    expect((await repo.pqCoverage(id)).from).toBe(0);
    expect(await pqRows(id)).toBe(7 * 24 + 2);
    const again = await both(user.userId, id);
    expect(again.report).toEqual(r);
    expect(again.aggRows).toBe(first.aggRows);
  }, 120_000);

  it('gives the same week in a zone whose offset is not whole 10 minutes (bins and frequency cut at the week)', async () => {
    const nepal = await signUp(t.app);
    const tz = 'Asia/Kathmandu';
    await sql`UPDATE users SET timezone = ${tz} WHERE id = ${nepal.userId}`.execute(t.ctx.storage.db);
    const { from, to } = localWeek(WEEK, tz);
    expect(from % (10 * MIN)).not.toBe(0);
    const id = await register(nepal, 60);
    const f = disturbed(from);
    // Off-nominal frequency in the minutes the week's first and last bins leave out or cut.
    const edge = (x: number): Values | null => {
      const v = f(x);
      if (v && ((x >= from && x < from + 5 * MIN) || (x >= to - 5 * MIN && x < to + 5 * MIN))) v.frq1 = 52.6;
      return v;
    };
    await write(id, tz, series(from - H, to + H, MIN, edge));
    await t.ctx.telemetry.compactNow();
    const { report } = await both(nepal.userId, id);
    expect(report.bins).toBe(1008);
    expect(report.frequency?.outside47to52).toBe(1 + 10);
  }, 120_000);

  it('ends an event run of an hourly meter at a reading of a bin it did not read', async () => {
    const tz = 'Europe/Warsaw';
    const { from, to } = localWeek(WEEK, tz);
    const id = await register(user, 3600);
    const tue10 = from + DAY + 10 * H;
    const plain = (): Values => ({ vave1: 230.5, vmin1: 229.5, vmax1: 231.5, vave2: 230.5, vave3: 230.5 });
    const readings = series(from, to, H, plain, (x) => x !== tue10 + H);
    // Tuesday: dips at 10:00 and 11:20 (80 minutes apart, within 1.5 intervals), a plain reading at 10:50 between.
    readings.push({ ts: tue10 + 50 * MIN, values: plain() }, { ts: tue10 + 80 * MIN, values: { ...plain(), vmin1: 201 } });
    const at10 = readings.find((x) => x.ts === tue10) as Reading;
    at10.values = { ...at10.values, vmin1: 198 };
    readings.sort((a, b) => a.ts - b.ts);
    await write(id, tz, readings);
    await t.ctx.telemetry.compactNow();
    const { report } = await both(user.userId, id);
    expect(report.events.map((e) => [e.start, e.durationSeconds])).toEqual([
      ['2026-11-17T10:00:00+01:00', 3600],
      ['2026-11-17T11:20:00+01:00', 3600],
    ]);
  }, 60_000);

  it('deletes the aggregate with its device, and with the raw rows raw retention drops', async () => {
    const tz = 'Europe/Warsaw';
    const { from } = localWeek(WEEK, tz);
    const id = await register(user, 60);
    await write(id, tz, series(from, from + 6 * H, MIN, disturbed(from)));
    await t.ctx.telemetry.compactNow();
    expect(await pqRows(id)).toBe(6);
    // Retention at 02:30: the hours before it go; 02:00–03:00 is read from raw rows until the backfill redoes
    // it from the rows left (the compactor may already have: the report is the raw one either way).
    await repo.deleteRawBefore(from + 2 * H + 30 * MIN, [id]);
    expect((await both(user.userId, id)).report.phases[0]?.n).toBe(21);
    await t.ctx.telemetry.compactNow();
    expect(await pqRows(id)).toBe(4);
    expect((await repo.pqCoverage(id)).from).toBe(0);
    expect((await both(user.userId, id)).report.phases[0]?.n).toBe(21);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/devices/${id}`, headers: user.auth });
    expect(del.statusCode).toBe(200);
    expect(await pqRows(id)).toBe(0);
  }, 60_000);
});
