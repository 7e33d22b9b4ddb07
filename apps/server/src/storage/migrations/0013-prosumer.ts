import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { bigint } from '../columns.js';
import type { Dialect } from '../database.js';

/**
 * Prosumers (issue 33).
 *
 * - `devices.role`: what a device at its location measures (`grid`, `production`, `submeter`, `other`);
 *   null means the default (solar devices production, the first three-phase meter grid, others submeter),
 *   worked out when read, so existing devices need no backfill.
 * - `tariff_prices.energy_area1..3`: the energy part of each area's price (what a prosumer deposit pays).
 * - `prosumer_settings`: one row per location that has a settlement scheme.
 * - `rcem_user`: a user's own RCEm value for a month (from an invoice), used instead of the shipped table.
 * - `rce_prices`: RCE per 15-minute settlement period (PLN/MWh), keyed by the period's start (UTC ms): user 0
 *   holds what is imported from PSE for everyone, a user's own rows (a CSV they uploaded) win for their locations.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  const real = dialect === 'postgres' ? 'double precision' : 'real';
  await sql.raw('ALTER TABLE devices ADD COLUMN role varchar(16)').execute(db);
  for (const a of [1, 2, 3]) await sql.raw(`ALTER TABLE tariff_prices ADD COLUMN energy_area${a} ${real}`).execute(db);

  await db.schema
    .createTable('prosumer_settings')
    .addColumn('location_id', 'integer', (c) => c.primaryKey().references('locations.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('scheme', 'varchar(24)', (c) => c.notNull())
    .addColumn('since', 'varchar(10)', (c) => c.notNull())
    .addColumn('installation_kw', real, (c) => c.notNull())
    .addColumn('coefficient', real, (c) => c.notNull())
    .addColumn('refund_cap', real, (c) => c.notNull())
    .addColumn('rcem_version', 'varchar(8)', (c) => c.notNull())
    .addColumn('rce_clamp', 'varchar(8)', (c) => c.notNull())
    .addColumn('coefficient_from', 'varchar(10)', (c) => c.notNull())
    .addColumn('modified_at', big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rcem_user')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('price', real, (c) => c.notNull())
    .addColumn('entered_at', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('rcem_user_pk', ['user_id', 'month'])
    .execute();

  await db.schema
    .createTable('rce_prices')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('ts', big, (c) => c.notNull())
    .addColumn('price', real, (c) => c.notNull())
    .addColumn('published_at', big)
    .addPrimaryKeyConstraint('rce_prices_pk', ['user_id', 'ts'])
    .execute();
}
