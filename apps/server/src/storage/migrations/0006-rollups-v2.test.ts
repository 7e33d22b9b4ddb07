import { localDayStarts, zonedTimeToUtc } from '@phasewatch/shared';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ReadingsRepository, ReadingsService } from '../../modules/readings/index.js';
import { createTestDatabase, DIALECTS, insertOwnerWithDevices } from '../../test/storage.js';
import { openStorage } from '../database.js';
import { migrateToLatest } from '../migrate.js';
import {
  fillLevelRow,
  floorTo,
  foldLevel,
  H1,
  levelFromRaw,
  M5,
  M15,
  packedWrites,
  paramSetColumns,
  paramSetOf,
} from './legacy/v1-rollups.js';

const TZ = 'Europe/Warsaw';
const MIN = 60_000;
type Reading = { ts: number; values: Record<string, number> };

/** Four days of 1-minute readings; raw rows exist only for the last two (retention dropped the rest). */
function readings(start: number): Reading[] {
  return Array.from({ length: 4 * 1440 }, (_, i) => ({
    ts: start + i * MIN,
    values: { eai1: 500 + i * 0.01, pave1: 300 + (i % 17) * 7, vave1: 228 + (i % 11) * 0.1 },
  }));
}

describe.each(DIALECTS)('migration 0006: rollups v2 (%s)', (dialect) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('rebuilds rollups from raw rows where they exist, converts older ones, and keeps every raw value', async () => {
    const d = await createTestDatabase(dialect);
    const storage = openStorage({ databaseUrl: d.databaseUrl, dataDir: d.dataDir });
    const repos: ReadingsRepository[] = [];
    cleanup = async () => {
      for (const r of repos) await r.close();
      await storage.close();
      await d.drop();
    };
    const db = storage.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await migrateToLatest(db as never, storage.dialect, '0004-packed-rollups');

    await insertOwnerWithDevices(db as never, 2, TZ);

    // Device 1 as version 1 stored it: raw rows of the last two days, v1 rollups of all four.
    const start = zonedTimeToUtc(TZ, 2026, 10, 23);
    const all = readings(start);
    const rawFrom = start + 2 * 1440 * MIN + 7 * MIN;
    const kept = all.filter((r) => r.ts >= rawFrom);
    const names = ['vave1', 'pave1', 'eai1'];
    for (let i = 0; i < kept.length; i += 200) {
      await db
        .insertInto('readings')
        .values(kept.slice(i, i + 200).map((r) => ({ device_id: 1, ts: r.ts, ...r.values })))
        .execute();
    }
    const ps = paramSetOf(new Set(names));
    const cols = [...ps.instant, ...ps.counter];
    const m5 = levelFromRaw({ ts: all.map((r) => r.ts), cols: cols.map((p) => all.map((r) => r.values[p] ?? Number.NaN)) }, ps, M5);
    const m15 = foldLevel(m5, ps, (t) => floorTo(t, M15));
    const h1 = foldLevel(m15, ps, (t) => floorTo(t, H1));
    for (const [width, level] of [
      [M5, m5],
      [M15, m15],
      [H1, h1],
    ] as const) {
      const writes = packedWrites(level, ps, width, new Map());
      for (let i = 0; i < writes.length; i += 100)
        await db
          .insertInto('rollup_packed')
          .values(writes.slice(i, i + 100).map((w) => ({ device_id: 1, ...w })))
          .execute();
    }
    const end = start + 4 * 1440 * MIN;
    const edges = [...localDayStarts(start, end, TZ), end];
    let e = 0;
    const days = foldLevel(m15, ps, (t) => {
      while (t >= (edges[e + 1] as number)) e++;
      return edges[e] as number;
    });
    const dayCols = paramSetColumns(ps);
    for (let k = 0; k < days.bucket.length; k++) {
      const values: unknown[] = [];
      fillLevelRow(days, k, values, 0);
      const bucket = days.bucket[k] as number;
      await db
        .insertInto('rollup_day')
        .values({
          device_id: 1,
          bucket,
          n: days.n[k],
          bucket_end: edges[edges.indexOf(bucket) + 1],
          tz: TZ,
          ...Object.fromEntries(dayCols.map((c, j) => [c, values[j] ?? null])),
        })
        .execute();
    }

    await migrateToLatest(db as never, storage.dialect);

    // Raw values read back unchanged (SQLite now stores them scaled).
    const repo = new ReadingsRepository(storage);
    repos.push(repo);
    const raw = await repo.raw(1, rawFrom, end, names);
    expect(raw.ts).toEqual(kept.map((r) => r.ts));
    names.forEach((p, j) => {
      expect(Array.from(raw.cols[j] as Float64Array), p).toEqual(kept.map((r) => r.values[p]));
    });
    const watermark = Math.ceil(rawFrom / H1) * H1;
    expect(
      Number((await db.selectFrom('devices').select('rollup_through').where('id', '=', 1).executeTakeFirstOrThrow()).rollup_through),
    ).toBe(watermark);
    expect(await db.selectFrom('rollup_packed').select('device_id').where('width', '=', M5).execute()).toEqual([]);

    // Device 2: the raw-covered readings through today's write path. Both rolled up to the end.
    await repo.write([{ deviceId: 2, tz: TZ, readings: kept }]);
    while (await repo.compactDue(floorTo(Date.now(), H1), 10_000)) {}
    const service = new ReadingsService(repo);
    const q = (id: number, interval: '15m' | '1h') => service.readings(id, TZ, { from: watermark, to: end, interval, params: names });
    for (const interval of ['15m', '1h'] as const) {
      const migrated = await q(1, interval);
      expect(migrated.ts.length, interval).toBeGreaterThan(20);
      expect(migrated, interval).toEqual(await q(2, interval));
    }

    // Older days are converted: each day's energy is what version 1 counted (the counter moves 0.01 a minute).
    const daily = await service.readings(1, TZ, { from: start, to: end, interval: '24h', params: ['eai1', 'vave1'] });
    expect(Array.from(daily.ts)).toEqual(edges.slice(0, -1));
    // The last day ends a minute after its last reading: nothing is extrapolated.
    const expected = edges.slice(0, -1).map((d, k) => (((edges[k + 1] as number) - d) / MIN - (k === edges.length - 2 ? 1 : 0)) * 0.01);
    daily.series.eai1?.kind === 'counter' &&
      daily.series.eai1.delta.forEach((x, k) => {
        expect(x, `day ${k}`).toBeCloseTo(expected[k] as number, 6);
      });
  });
});
