import { zonedTimeToUtc } from '@phasewatch/shared';
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, packedRollupRows } from '../../test/storage.js';
import { openStorage } from '../database.js';
import { migrateToLatest } from '../migrate.js';
import {
  fillLevelRow,
  floorTo,
  foldLevel,
  H1,
  type Level,
  levelFromRaw,
  M5,
  M15,
  packedWrites,
  paramSetColumns,
  paramSetOf,
} from './legacy/v1-rollups.js';

const TZ = 'Europe/Warsaw';
const MIN = 60_000;

/** Four days of 1-minute readings across the autumn DST change, with a counter reset, a gap and a sparse parameter. */
function readings() {
  const start = zonedTimeToUtc(TZ, 2026, 10, 23, 20);
  const out: { ts: number; values: Record<string, number> }[] = [];
  for (let i = 0; i < 4 * 1440; i++) {
    if (i >= 2000 && i < 2300) continue;
    const values: Record<string, number> = { eai1: i < 3000 ? 500 + i * 0.01 : (i - 3000) * 0.01, pave1: 300 + (i % 17) * 7 };
    if (i % 3 === 0) values.vave1 = 228 + (i % 11) * 0.37;
    out.push({ ts: start + i * MIN, values });
  }
  return out;
}

/** Rows of a wide rollup table (migration 0003's layout) for a level. */
function wideRows(deviceId: number, l: Level, cols: readonly string[]) {
  return l.bucket.map((bucket, k) => {
    const values: unknown[] = [];
    fillLevelRow(l, k, values, 0);
    return { device_id: deviceId, bucket, n: l.n[k], ...Object.fromEntries(cols.map((c, j) => [c, values[j] ?? null])) };
  });
}

describe.each(DIALECTS)('migration 0004: wide UTC rollups become packed rows (%s)', (dialect) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('converts stored wide rollups to exactly the rows the version-1 write path packed for the same readings', async () => {
    const d = await createTestDatabase(dialect);
    const storage = openStorage({ databaseUrl: d.databaseUrl, dataDir: d.dataDir });
    cleanup = async () => {
      await storage.close();
      await d.drop();
    };
    // The tables of migrations 0003/0004 are gone from today's schema types: any table, any column.
    const db = storage.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await migrateToLatest(db as Kysely<unknown>, storage.dialect, '0003-readings');

    // Device 1: rollups as the previous version stored them, one wide row per bucket.
    const rows = readings();
    const ps = paramSetOf(new Set(['vave1', 'pave1', 'eai1']));
    const names = [...ps.instant, ...ps.counter];
    const m5 = levelFromRaw({ ts: rows.map((r) => r.ts), cols: names.map((p) => rows.map((r) => r.values[p] ?? Number.NaN)) }, ps, M5);
    const m15 = foldLevel(m5, ps, (t) => floorTo(t, M15));
    const h1 = foldLevel(m15, ps, (t) => floorTo(t, H1));
    const cols = paramSetColumns(ps);
    for (const [table, level] of [
      ['rollup_5m', m5],
      ['rollup_15m', m15],
      ['rollup_1h', h1],
    ] as const) {
      const wide = wideRows(1, level, cols);
      for (let i = 0; i < wide.length; i += 100)
        await db
          .insertInto(table)
          .values(wide.slice(i, i + 100))
          .execute();
    }
    expect(m5.bucket.length).toBeGreaterThan(1000);

    await migrateToLatest(db as Kysely<unknown>, storage.dialect, '0004-packed-rollups');

    // Device 2: the same levels packed by the version-1 write path (as ingest wrote them until migration 0006).
    for (const [width, level] of [
      [M5, m5],
      [M15, m15],
      [H1, h1],
    ] as const) {
      const writes = packedWrites(level, ps, width, new Map());
      for (let i = 0; i < writes.length; i += 100)
        await db
          .insertInto('rollup_packed')
          .values(writes.slice(i, i + 100).map((w) => ({ device_id: 2, ...w })))
          .execute();
    }
    const migrated = await packedRollupRows(storage, 1);
    const ingested = await packedRollupRows(storage, 2);
    expect(migrated.length).toBeGreaterThan(40);
    expect(new Set(migrated.map((r) => r.param))).toEqual(new Set(['_n', 'vave1', 'pave1', 'eai1']));
    expect(migrated).toEqual(ingested);

    // The wide tables are gone.
    const left = await sql
      .raw<{ n: number }>(
        dialect === 'sqlite'
          ? "SELECT COUNT(*) AS n FROM sqlite_master WHERE name IN ('rollup_5m', 'rollup_15m', 'rollup_1h')"
          : "SELECT COUNT(*)::int AS n FROM pg_tables WHERE tablename IN ('rollup_5m', 'rollup_15m', 'rollup_1h')",
      )
      .execute(db);
    expect(Number(left.rows[0]?.n)).toBe(0);
  });
});
