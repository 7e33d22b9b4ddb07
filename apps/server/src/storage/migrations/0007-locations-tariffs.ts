import type { Kysely } from 'kysely';
import { bigint, withId } from '../columns.js';
import type { Dialect } from '../database.js';

/**
 * Locations and their tariffs. A tariff belongs to a location (and its user, for owner-scoped queries);
 * its zone schedule is one JSON value (read whole, never queried by field); its price lists are rows
 * keyed by their first valid day. `locations.tariff_id` (the energy tariff) and the devices' placement
 * columns of 0002 are plain integers: the service clears them when a tariff or location goes.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  const real = dialect === 'postgres' ? 'double precision' : 'real';
  await withId(db.schema.createTable('locations'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('code', 'varchar(50)', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
    .addColumn('tariff_id', 'integer')
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('modified_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('locations_user').on('locations').column('user_id').execute();

  await withId(db.schema.createTable('tariffs'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('location_id', 'integer', (c) => c.notNull().references('locations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('tariff_group', 'varchar(8)', (c) => c.notNull())
    .addColumn('preset_id', 'varchar(40)')
    .addColumn('clock', 'varchar(8)', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('holiday_calendar', 'varchar(2)')
    .addColumn('schedule', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('modified_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tariffs_location').on('tariffs').column('location_id').execute();
  await db.schema.createIndex('tariffs_user').on('tariffs').column('user_id').execute();

  await db.schema
    .createTable('tariff_prices')
    .addColumn('tariff_id', 'integer', (c) => c.notNull().references('tariffs.id').onDelete('cascade'))
    .addColumn('valid_from', 'varchar(10)', (c) => c.notNull())
    .addColumn('area1', real, (c) => c.notNull())
    .addColumn('area2', real)
    .addColumn('area3', real)
    .addColumn('fixed_monthly', real, (c) => c.notNull())
    .addPrimaryKeyConstraint('tariff_prices_pk', ['tariff_id', 'valid_from'])
    .execute();

  await db.schema.createIndex('devices_location').on('devices').column('location_id').execute();
}
