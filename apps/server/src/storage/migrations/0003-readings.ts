import { type Kysely, sql } from 'kysely';
import { bigint } from '../columns.js';
import type { Dialect } from '../database.js';
import { RAW_COLUMNS, ROLLUP_COLUMNS } from './legacy/v1-columns.js';

/**
 * Columns come from the parameter catalogue as it is when this runs; a parameter added later needs
 * its own migration adding its columns. Wide rows: one column per catalogue parameter. Raw `readings` keyed by (device_id, ts); rollup
 * levels `rollup_5m`, `rollup_15m`, `rollup_1h` (UTC buckets) and `rollup_day` (local days of the
 * owner, with the zone they were built for) keyed by (device_id, bucket).
 *
 * PostgreSQL: `readings` is declaratively partitioned by month of `ts` (RANGE), partitions created on
 * demand by the writer and dropped whole by retention; a DEFAULT partition catches anything else.
 * The same layout converts to TimescaleDB hypertables or Citus without code changes. Rollups stay
 * plain tables: they are small (1/5 of raw at 1-minute data and less) and kept forever.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  const real = dialect === 'postgres' ? 'double precision' : 'real';
  const rawCols = RAW_COLUMNS.map((c) => `"${c}" ${real}`).join(', ');
  if (dialect === 'postgres') {
    await sql
      .raw(
        `CREATE TABLE readings (device_id integer NOT NULL, ts bigint NOT NULL, ${rawCols}, PRIMARY KEY (device_id, ts)) PARTITION BY RANGE (ts)`,
      )
      .execute(db);
    await sql.raw('CREATE TABLE readings_default PARTITION OF readings DEFAULT').execute(db);
  } else {
    // WITHOUT ROWID: the primary key is the storage order, so a device's range is one contiguous scan.
    await sql
      .raw(`CREATE TABLE readings (device_id integer NOT NULL, ts integer NOT NULL, ${rawCols}, PRIMARY KEY (device_id, ts)) WITHOUT ROWID`)
      .execute(db);
  }
  const rollCols = ROLLUP_COLUMNS.map((c) => `"${c}" ${real}`).join(', ');
  // Migration 0004 replaced the three UTC levels with packed rows (rollup_packed).
  for (const table of ['rollup_5m', 'rollup_15m', 'rollup_1h', 'rollup_day']) {
    const extra = table === 'rollup_day' ? `, bucket_end ${big} NOT NULL, tz varchar(64) NOT NULL` : '';
    const tail = dialect === 'sqlite' ? ' WITHOUT ROWID' : '';
    await sql
      .raw(
        `CREATE TABLE ${table} (device_id integer NOT NULL, bucket ${big} NOT NULL, n integer NOT NULL${extra}, ${rollCols}, PRIMARY KEY (device_id, bucket))${tail}`,
      )
      .execute(db);
  }
}
