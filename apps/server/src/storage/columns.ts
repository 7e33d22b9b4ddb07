import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
import type { Dialect } from './database.js';

/** An auto-increment integer primary key on either dialect. */
export function withId<T extends string>(t: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? t.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Epoch milliseconds and other values beyond 2^31: INTEGER on SQLite (64-bit), BIGINT on PostgreSQL. */
export const bigint = (dialect: Dialect) => (dialect === 'postgres' ? 'bigint' : 'integer');

export type ColumnBuilder = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
