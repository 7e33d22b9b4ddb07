import { canonicalTimezone, FALLBACK_TIMEZONE } from '@phasewatch/shared';
import { type Kysely, sql } from 'kysely';
import { bigint } from '../columns.js';
import type { Dialect } from '../database.js';

/**
 * `login_attempts`: sign-in attempts per throttle key (SHA-256 of address and email) in the current
 * window, stored so every instance on one database counts the same attempts (see login-throttle.ts).
 * Stored timezones become their canonical IANA names (they were kept as typed: `europe/WARSAW`).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  await db.schema
    .createTable('login_attempts')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('window_start', big, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_attempts_window_start').on('login_attempts').column('window_start').execute();

  const zones = await sql<{ timezone: string }>`SELECT DISTINCT timezone FROM users`.execute(db);
  for (const { timezone } of zones.rows) {
    const canonical = canonicalTimezone(timezone) ?? FALLBACK_TIMEZONE;
    if (canonical !== timezone) await sql`UPDATE users SET timezone = ${canonical} WHERE timezone = ${timezone}`.execute(db);
  }
}
