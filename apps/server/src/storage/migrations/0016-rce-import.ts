import type { Kysely } from 'kysely';
import { bigint } from '../columns.js';
import type { Dialect } from '../database.js';

/**
 * The daily RCE import from PSE (issue 33; modules/prosumer/rce-importer.ts).
 *
 * `rce_import_days`: one row per business day (Polish date) the import wanted. An instance claims a day with
 * a conditional update (not done, its retry time reached, no live lease), so with several instances on one
 * PostgreSQL only one fetches a given day; a claim whose instance died is taken over when its lease runs out.
 * A failed attempt sets when the next may start (backoff); a finished one `done_at` and how many quarter
 * prices it stored (in `rce_prices`, user 0).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  await db.schema
    .createTable('rce_import_days')
    .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_at', big, (c) => c.notNull())
    .addColumn('claimed_by', 'varchar(64)')
    .addColumn('lease_until', big)
    .addColumn('done_at', big)
    .addColumn('rows', 'integer')
    .addColumn('error', 'text')
    .execute();
}
