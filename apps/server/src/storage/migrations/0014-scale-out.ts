import type { Kysely } from 'kysely';
import { bigint } from '../columns.js';
import type { Dialect } from '../database.js';

/**
 * Several instances on one PostgreSQL (issue 34): `instances` is the heartbeat table the live instances
 * write every few seconds. Collected devices are shared among the live ones by rendezvous hashing over it
 * (modules/collectors/collectors.membership.ts), so each polled device has one poller. SQLite has the
 * table too (one code path), with one instance only.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  await db.schema
    .createTable('instances')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('started_at', big, (c) => c.notNull())
    .addColumn('seen_at', big, (c) => c.notNull())
    .execute();
}
