import { type Kysely, sql } from 'kysely';
import { sha256 } from '../../auth/tokens.js';
import type { Database } from '../../storage/schema.js';

/** How often rows of windows that have ended are deleted (at most; on a sign-in attempt). */
const SWEEP_EVERY_MS = 60_000;

/**
 * Counts sign-in attempts per key (address + email) in a fixed window that starts with the first
 * attempt. An attempt is counted, atomically in the database, before its password is checked: past
 * the limit it is refused without a check, however many arrive at once and on however many instances
 * share the database. A successful sign-in clears the key.
 */
export class LoginThrottle {
  private lastSweep = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxAttempts: number,
    private readonly windowMs: number,
  ) {}

  /** Counts an attempt; milliseconds until the key may try again when it is over the limit, else 0. */
  async attempt(key: string, now = Date.now()): Promise<number> {
    await this.sweep(now);
    const expired = now - this.windowMs;
    // One statement: the row is locked (PostgreSQL) or the database is (SQLite) while it is counted, so
    // parallel attempts each see their own count. A window that has ended starts again at 1.
    const row = await this.db
      .insertInto('login_attempts')
      .values({ key: sha256(key), window_start: now, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`CASE WHEN login_attempts.window_start <= ${expired} THEN 1 ELSE login_attempts.count + 1 END`,
          window_start: sql<number>`CASE WHEN login_attempts.window_start <= ${expired} THEN ${now} ELSE login_attempts.window_start END`,
        }),
      )
      .returning(['count', 'window_start'])
      .executeTakeFirstOrThrow();
    if (Number(row.count) <= this.maxAttempts) return 0;
    return Math.max(1, Number(row.window_start) + this.windowMs - now);
  }

  /** A successful sign-in: the key starts from zero. */
  async succeeded(key: string): Promise<void> {
    await this.db.deleteFrom('login_attempts').where('key', '=', sha256(key)).execute();
  }

  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    await this.db
      .deleteFrom('login_attempts')
      .where('window_start', '<=', now - this.windowMs)
      .execute();
  }
}
