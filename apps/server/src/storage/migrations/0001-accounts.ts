import type { Kysely } from 'kysely';
import { bigint, withId } from '../columns.js';
import type { Dialect } from '../database.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  await withId(db.schema.createTable('users'), dialect)
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('full_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'varchar(2)', (c) => c.notNull())
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
    .addColumn('language', 'varchar(5)', (c) => c.notNull().defaultTo('en'))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('updated_at', big, (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('refresh_tokens'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('family', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('used_at', big)
    .addColumn('revoked_at', big)
    .execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', big, (c) => c.notNull())
    .addColumn('used_at', big)
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
}
