import { PqAggregate } from '@phasewatch/shared';
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeBlob, ReadingsRepository } from '../../modules/readings/index.js';
import { createTestDatabase, DIALECTS, insertOwnerWithDevices } from '../../test/storage.js';
import { openStorage } from '../database.js';
import { migrateToLatest } from '../migrate.js';

const H = 3_600_000;

describe.each(DIALECTS)('migration 0011: the power-quality aggregate (%s)', (dialect) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('starts the aggregate at each watermark; the backfill then builds the older hours from raw rows', async () => {
    const d = await createTestDatabase(dialect);
    const storage = openStorage({ databaseUrl: d.databaseUrl, dataDir: d.dataDir });
    const repo = new ReadingsRepository(storage);
    cleanup = async () => {
      await repo.close();
      await storage.close();
      await d.drop();
    };
    const db = storage.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await migrateToLatest(db as never, storage.dialect, '0010-collectors');
    await insertOwnerWithDevices(db as never, 2, 'Europe/Warsaw');
    // Device 1: readings every minute for three hours, rolled up (the watermark after them); device 2: none.
    const t0 = Date.parse('2026-11-20T10:00:00Z');
    const volts = dialect === 'sqlite' ? 230_500 : 230.5; // SQLite stores exact decimals scaled by 1000
    for (let k = 0; k < 180; k++) {
      await sql`INSERT INTO readings (device_id, ts, vave1, frq1) VALUES (1, ${t0 + k * 60_000}, ${volts}, ${dialect === 'sqlite' ? 50_000 : 50})`.execute(
        db,
      );
    }
    await sql`UPDATE devices SET rollup_through = ${t0 + 3 * H} WHERE id = 1`.execute(db);

    await migrateToLatest(db as never, storage.dialect);

    const marks = await sql<{ id: number; pq_from: number | string }>`SELECT id, pq_from FROM devices ORDER BY id`.execute(db);
    expect(marks.rows.map((r) => [Number(r.id), Number(r.pq_from)])).toEqual([
      [1, t0 + 3 * H],
      [2, 0],
    ]);
    expect(await repo.pqCoverage(1)).toEqual({ from: t0 + 3 * H, through: t0 + 3 * H });
    const count = async () => Number((await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM rollup_pq`.execute(db)).rows[0]?.n);
    expect(await count()).toBe(0);

    while (await repo.backfillPq(1_000)) {}
    expect(await repo.pqCoverage(1)).toEqual({ from: 0, through: t0 + 3 * H });
    const rows = await sql<{ bucket: number | string; data: Uint8Array }>`SELECT bucket, data FROM rollup_pq ORDER BY bucket`.execute(db);
    expect(rows.rows.map((r) => Number(r.bucket))).toEqual([t0, t0 + H, t0 + 2 * H]);
    const agg = new PqAggregate(t0, 18);
    for (const r of rows.rows) agg.decodeHour(Number(r.bucket), decodeBlob(r.data));
    expect(Array.from({ length: 18 }, (_, b) => agg.rows(b))).toEqual(new Array(18).fill(10));
    expect(agg.phaseBins(1).sumsq[0]).toBe(10 * 230.5 * 230.5);
    expect(agg.frequency(t0, t0 + 3 * H)).toEqual({ readings: 180, within: 180, outside: 0, min: 50, max: 50 });
  });
});
