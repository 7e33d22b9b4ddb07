import { PARAMETER_NAMES } from '@phasewatch/shared';
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeBlob, encodeBlob } from '../../modules/readings/index.js';
import { createTestDatabase, DIALECTS, insertOwnerWithDevices } from '../../test/storage.js';
import { openStorage } from '../database.js';
import { migrateToLatest } from '../migrate.js';

const idx = (p: string) => PARAMETER_NAMES.indexOf(p);

describe.each(DIALECTS)('migration 0010: collectors and the balanced counters (%s)', (dialect) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('drops what clients sent as the old instantaneous balance, keeps every other figure, adds balance_export and collectors', async () => {
    const d = await createTestDatabase(dialect);
    const storage = openStorage({ databaseUrl: d.databaseUrl, dataDir: d.dataDir });
    cleanup = async () => {
      await storage.close();
      await d.drop();
    };
    const db = storage.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await migrateToLatest(db as never, storage.dialect, '0006-rollups-v2');
    // A database made before the catalogue had balance_export.
    await sql.raw('ALTER TABLE readings DROP COLUMN balance_export').execute(db);
    await insertOwnerWithDevices(db as never, 1, 'Europe/Warsaw');
    const ts = Date.parse('2026-11-20T10:00:00Z');
    await sql`INSERT INTO readings (device_id, ts, pave1, balance) VALUES (1, ${ts}, ${412000}, ${-250000})`.execute(db);
    const blob = (a: number[]) => encodeBlob(new Float64Array(a));
    await sql`INSERT INTO rollup_packed (device_id, width, param, span, data) VALUES (1, 900000, 'balance', 0, ${blob([1, 2, 3, 4])}), (1, 900000, 'pave1', 0, ${blob([5, 6, 7, 8])})`.execute(
      db,
    );
    // A local day with pave1 and the old balance (4 figures each), and one without balance.
    const day = [2, idx('pave1'), 412, 412, 412, 1, idx('balance'), -250, -250, -250, 1];
    await sql`INSERT INTO rollup_day (device_id, bucket, bucket_end, tz, n, data) VALUES
      (1, ${ts}, ${ts + 86_400_000}, 'Europe/Warsaw', 1, ${blob(day)}),
      (1, ${ts + 86_400_000}, ${ts + 2 * 86_400_000}, 'Europe/Warsaw', 1, ${blob([1, idx('vave1'), 230, 229, 231, 3])})`.execute(db);

    await migrateToLatest(db as never, storage.dialect);

    const raw = await sql<{
      pave1: number;
      balance: number | null;
      balance_export: number | null;
    }>`SELECT pave1, balance, balance_export FROM readings`.execute(db);
    expect(raw.rows).toEqual([{ pave1: 412000, balance: null, balance_export: null }]);
    const packed = await sql<{ param: string }>`SELECT param FROM rollup_packed ORDER BY param`.execute(db);
    expect(packed.rows.map((r) => r.param)).toEqual(['pave1']);
    const days = await sql<{ bucket: number | string; data: Uint8Array }>`SELECT bucket, data FROM rollup_day ORDER BY bucket`.execute(db);
    expect(days.rows.map((r) => [...decodeBlob(r.data)])).toEqual([
      [1, idx('pave1'), 412, 412, 412, 1],
      [1, idx('vave1'), 230, 229, 231, 3],
    ]);
    await sql`INSERT INTO collectors (device_id, user_id, kind, address, device_key, poll_seconds, failures, created_at)
      VALUES (1, 1, 'fox-energy', 'http://192.168.1.20', '0000', 5, 0, ${ts})`.execute(db);
    // The collector goes with its device.
    await sql`DELETE FROM devices WHERE id = 1`.execute(db);
    expect(Number((await sql<{ n: number | string }>`SELECT count(*) AS n FROM collectors`.execute(db)).rows[0]?.n)).toBe(0);
  });
});
