import { COUNTER_PARAMETERS, INSTANT_PARAMETERS } from '@phasewatch/shared';
import { type Kysely, sql } from 'kysely';
import { bigint } from '../columns.js';
import type { Dialect } from '../database.js';
import { levelFromRows, PACKED_WIDTHS, packedWrites, paramSetOf, type Row } from './legacy/v1-rollups.js';

/** Rows converted per read: 40 days, a whole number of spans at every level (8 h, 1 day, 4 days). */
const CHUNK_MS = 40 * 86_400_000;

/**
 * The UTC rollup levels move from wide rows (`rollup_5m`, `rollup_15m`, `rollup_1h`: a row per bucket,
 * a column per parameter and figure) to packed rows (`rollup_packed`: a row per device, level,
 * parameter and span of 96 buckets, figures in one float64 blob; layout in readings.packed.ts). The
 * stored rollups are converted as they are (raw rows may be gone past retention), then the wide
 * tables are dropped. `rollup_day` stays wide: a year is 365 rows.
 *
 * SQLite: an ordinary rowid table, so a blob (up to 3 KB) sits in its b-tree leaf; in a WITHOUT ROWID
 * table anything past ~1 KB spills to overflow pages. PostgreSQL: tuples up to the page size stay
 * inline and uncompressed (the figures do not compress, and TOAST would only add a second lookup).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  await sql
    .raw(
      `CREATE TABLE rollup_packed (device_id integer NOT NULL, width integer NOT NULL, param varchar(40) NOT NULL, span ${big} NOT NULL, data ${blob} NOT NULL, PRIMARY KEY (device_id, width, param, span))`,
    )
    .execute(db);
  if (dialect === 'postgres') {
    await sql.raw('ALTER TABLE rollup_packed SET (toast_tuple_target = 8160)').execute(db);
  }

  for (const [level, width] of Object.entries(PACKED_WIDTHS)) {
    const table = `rollup_${level}`;
    const devices = await sql.raw<{ device_id: number }>(`SELECT DISTINCT device_id FROM ${table}`).execute(db);
    for (const { device_id: deviceId } of devices.rows) {
      const range = await sql
        .raw<{ lo: number | string; hi: number | string }>(
          `SELECT MIN(bucket) AS lo, MAX(bucket) AS hi FROM ${table} WHERE device_id = ${Number(deviceId)}`,
        )
        .execute(db);
      const lo = Number(range.rows[0]?.lo);
      const hi = Number(range.rows[0]?.hi);
      for (let from = Math.floor(lo / CHUNK_MS) * CHUNK_MS; from <= hi; from += CHUNK_MS) {
        const rows = (
          await sql
            .raw<Row>(
              `SELECT * FROM ${table} WHERE device_id = ${Number(deviceId)} AND bucket >= ${from} AND bucket < ${from + CHUNK_MS} ORDER BY bucket`,
            )
            .execute(db)
        ).rows;
        if (rows.length === 0) continue;
        const names = new Set<string>();
        for (const p of INSTANT_PARAMETERS) if (rows.some((r) => r[`${p}_n`] !== null && r[`${p}_n`] !== undefined)) names.add(p);
        for (const p of COUNTER_PARAMETERS) if (rows.some((r) => r[`${p}_first`] !== null && r[`${p}_first`] !== undefined)) names.add(p);
        const ps = paramSetOf(names);
        const writes = packedWrites(levelFromRows(rows, ps), ps, width, new Map());
        for (let i = 0; i < writes.length; i += 200) {
          await db
            .insertInto('rollup_packed' as never)
            .values(writes.slice(i, i + 200).map((w) => ({ device_id: Number(deviceId), ...w })) as never)
            .execute();
        }
      }
    }
    await sql.raw(`DROP TABLE ${table}`).execute(db);
  }
}
