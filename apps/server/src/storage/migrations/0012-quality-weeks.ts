import type { Kysely } from 'kysely';
import { bigint } from '../columns.js';
import type { Dialect } from '../database.js';

/**
 * The weekly EN 50160 check of the notifications (issue 30; modules/notifications/notifications.quality.ts).
 *
 * `quality_weeks`: one row per device and week (`YYYY-MM-DD`, the local Monday) the check judged, with its
 * outcome (`pass`, `fail`, `not-assessable`, or `none`: the device had no report for that week). The primary
 * key is what makes a failed week one notification: every instance sharing a PostgreSQL database may judge
 * the same week, each inserts its outcome with ON CONFLICT DO NOTHING, and only the one whose insert won
 * records and sends the notification. A week with a row is never computed again (passing weeks included).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  await db.schema
    .createTable('quality_weeks')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('week', 'varchar(10)', (c) => c.notNull())
    .addColumn('verdict', 'varchar(16)', (c) => c.notNull())
    .addColumn('checked_at', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('quality_weeks_pk', ['device_id', 'week'])
    .execute();
}
