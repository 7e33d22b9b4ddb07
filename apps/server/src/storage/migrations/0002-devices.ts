import type { Kysely } from 'kysely';
import { bigint, withId } from '../columns.js';
import type { Dialect } from '../database.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  const real = dialect === 'postgres' ? 'double precision' : 'real';
  await withId(db.schema.createTable('devices'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('friendly_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('type_code', 'integer', (c) => c.notNull())
    .addColumn('type_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('mac', 'varchar(17)', (c) => c.notNull())
    .addColumn('model', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('ingest_key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('registered_at', big, (c) => c.notNull())
    .addColumn('modified_at', big, (c) => c.notNull())
    .addColumn('billing_start_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('billing_period_months', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reporting_interval_s', 'integer', (c) => c.notNull().defaultTo(60))
    // Filled by the locations/tariffs module later; plain integers until their tables exist.
    .addColumn('location_id', 'integer')
    .addColumn('default_tariff_id', 'integer')
    .addColumn('notifications', 'text', (c) => c.notNull())
    .addColumn('limit_warning', real, (c) => c.notNull())
    .addColumn('limit_critical', real, (c) => c.notNull())
    .addColumn('meter_value_kwh', real, (c) => c.notNull().defaultTo(0))
    .addColumn('last_seen', big)
    .addColumn('last_rssi', real)
    /** Last status announced on the event bus, so changes are emitted once. */
    .addColumn('last_status', 'varchar(8)', (c) => c.notNull().defaultTo('offline'))
    .addColumn('last_weak', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('devices_user_mac').on('devices').columns(['user_id', 'mac']).unique().execute();
}
