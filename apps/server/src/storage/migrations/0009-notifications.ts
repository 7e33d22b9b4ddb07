import { type Kysely, sql } from 'kysely';
import { bigint, withId } from '../columns.js';
import type { Dialect } from '../database.js';

/**
 * `notifications`: the alarms the rules raise on ingest (a row per alarm: start, end, worst value, read,
 * acknowledged, why delivery was held) and events (`online`). At most one open alarm (no `ended_at`) per
 * device and kind, enforced by a partial unique index: instances sharing one PostgreSQL database that
 * see the same condition insert one row, and only the instance whose insert won delivers it.
 *
 * `push_subscriptions`: the Web Push endpoints of users' browsers (keys per RFC 8291), unique by endpoint
 * (its SHA-256: an index on the URL itself would hold up to 2 KB a row).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  const real = dialect === 'postgres' ? 'double precision' : 'real';
  await withId(db.schema.createTable('notifications'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('level', 'varchar(10)', (c) => c.notNull())
    .addColumn('started_at', big, (c) => c.notNull())
    .addColumn('ended_at', big)
    .addColumn('worst_value', real)
    .addColumn('worst_phase', 'integer')
    .addColumn('threshold', real)
    .addColumn('occurrences', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('held', 'varchar(12)')
    .addColumn('push_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('email_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_at', big)
    .addColumn('acknowledged_at', big)
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
  // One open alarm per device and kind (the rules' inserts race on it across instances).
  await db.schema
    .createIndex('notifications_open')
    .on('notifications')
    .columns(['device_id', 'kind'])
    .unique()
    .where(sql.ref('ended_at'), 'is', null)
    .execute();
  // The list, newest first, and the latest of a device's kind (flapping, the notification interval).
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('notifications_device_kind').on('notifications').columns(['device_id', 'kind', 'id']).execute();
  await db.schema.createIndex('notifications_unread').on('notifications').column('user_id').where(sql.ref('read_at'), 'is', null).execute();

  await withId(db.schema.createTable('push_subscriptions'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'varchar(2048)', (c) => c.notNull())
    .addColumn('endpoint_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('p256dh', 'varchar(128)', (c) => c.notNull())
    .addColumn('auth', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('last_success_at', big)
    .execute();
  await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();
}
