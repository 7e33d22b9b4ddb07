import { type Kysely, sql } from 'kysely';
import { bigint } from '../columns.js';
import type { Dialect } from '../database.js';

/**
 * The 10-minute power-quality aggregate (issue 30; modules/readings/readings.pq.ts): `rollup_pq`, one row per
 * device and UTC hour with the figures of its six 10-minute bins (a blob of doubles), kept by the rollup steps
 * from the watermark on. `devices.pq_from`: the aggregate holds the hours in [pq_from, rollup_through).
 *
 * Existing readings are not aggregated here (a year of 5-second readings is 6.3 million rows a device): a
 * device's `pq_from` starts at its watermark, the report reads raw rows below it (figures as before, at the
 * old speed), and the compactor builds the older hours from raw rows in the background, newest first, moving
 * `pq_from` down until no raw row is left below it (then 0, as for a device created after this migration).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  await sql
    .raw(
      `CREATE TABLE rollup_pq (device_id integer NOT NULL, bucket ${big} NOT NULL, data ${blob} NOT NULL, PRIMARY KEY (device_id, bucket))`,
    )
    .execute(db);
  await sql.raw(`ALTER TABLE devices ADD COLUMN pq_from ${big} NOT NULL DEFAULT 0`).execute(db);
  await sql.raw('UPDATE devices SET pq_from = rollup_through').execute(db);
}
