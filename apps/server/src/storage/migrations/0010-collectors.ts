import { COUNTER_PARAMETERS, PARAMETER_NAMES } from '@phasewatch/shared';
import { type Kysely, sql } from 'kysely';
import { bigint } from '../columns.js';
import type { Dialect } from '../database.js';
import { decodeBlob, encodeBlob } from './legacy/v2-packed.js';

/**
 * Collected devices (issue 22) and the net (balanced) energy counters.
 *
 * - `collectors`: one row per device Phasewatch reads itself (Fox ENERGY, Shelly, Tasmota): where and how
 *   often, the device's own key (needed to read it, never answered by the API), and how reading it goes.
 * - `balance` changes meaning: it was an instantaneous power (W) nothing sent, and becomes the netted
 *   import counter (kWh) beside the new `balance_export`. Whatever an HTTP client may have sent as
 *   `balance` is dropped (raw values, packed rollups, and its entry in local-day blobs, whose layout gives a
 *   counter 8 figures where an instantaneous value had 4).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  const real = dialect === 'postgres' ? 'double precision' : 'real';

  // A database created after the catalogue gained `balance_export` has the column from 0003 already.
  const has =
    dialect === 'postgres'
      ? (
          await sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.columns
            WHERE table_name = 'readings' AND column_name = 'balance_export' AND table_schema = current_schema()`.execute(db)
        ).rows[0]?.n
      : (await sql<{ name: string }>`PRAGMA table_info(readings)`.execute(db)).rows.filter((r) => r.name === 'balance_export').length;
  if (!has) await sql.raw(`ALTER TABLE readings ADD COLUMN "balance_export" ${real}`).execute(db);

  const hadBalance =
    (await sql<{ x: number }>`SELECT 1 AS x FROM readings WHERE balance IS NOT NULL LIMIT 1`.execute(db)).rows.length > 0 ||
    (await sql<{ x: number }>`SELECT 1 AS x FROM rollup_packed WHERE param = 'balance' LIMIT 1`.execute(db)).rows.length > 0;
  if (hadBalance) {
    await sql`UPDATE readings SET balance = NULL WHERE balance IS NOT NULL`.execute(db);
    await sql`DELETE FROM rollup_packed WHERE param = 'balance'`.execute(db);
    await dropOldBalanceFromDays(db);
  }

  await db.schema
    .createTable('collectors')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('address', 'varchar(300)', (c) => c.notNull())
    .addColumn('device_key', 'varchar(128)')
    .addColumn('poll_seconds', 'integer', (c) => c.notNull())
    .addColumn('last_success_at', big)
    .addColumn('last_error', 'varchar(500)')
    .addColumn('last_error_key', 'varchar(32)')
    .addColumn('last_error_at', big)
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('collectors_user').on('collectors').column('user_id').execute();
}

/** Rewrites local-day blobs without `balance`, read with its old width (4 figures of an instantaneous value). */
async function dropOldBalanceFromDays(db: Kysely<unknown>): Promise<void> {
  const balance = PARAMETER_NAMES.indexOf('balance');
  const oldWidth = (i: number) => (i === balance ? 4 : COUNTER_PARAMETERS.includes(PARAMETER_NAMES[i] as string) ? 8 : 4);
  const rows = await sql<{
    device_id: number;
    bucket: number | string;
    data: Uint8Array;
  }>`SELECT device_id, bucket, data FROM rollup_day`.execute(db);
  for (const row of rows.rows) {
    const a = decodeBlob(row.data);
    const kept: number[] = [];
    let entries = 0;
    let o = 1;
    for (let e = 0; e < (a[0] as number); e++) {
      const index = a[o] as number;
      const w = oldWidth(index);
      if (index !== balance) {
        kept.push(...a.subarray(o, o + 1 + w));
        entries++;
      }
      o += 1 + w;
    }
    if (entries === a[0]) continue;
    const out = new Float64Array([entries, ...kept]);
    await sql`UPDATE rollup_day SET data = ${encodeBlob(out)} WHERE device_id = ${row.device_id} AND bucket = ${row.bucket}`.execute(db);
  }
}
