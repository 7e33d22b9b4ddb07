import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept per connection (a statement is a few KB; the app's queries are a few hundred texts). */
export const KYSELY_STATEMENT_CACHE = 512;
/**
 * Statements with more placeholders than this are prepared for their one use, not kept: `IN` lists of
 * every length up to 500 (the batched key lookups, the rules' loads) would each be a text of its own, tens
 * of KB of program apiece, and they run once per turn anyway.
 */
export const KYSELY_STATEMENT_MAX_PARAMS = 64;

function placeholders(sql: string): number {
  let n = 0;
  for (let i = sql.indexOf('?'); i >= 0 && n <= KYSELY_STATEMENT_MAX_PARAMS; i = sql.indexOf('?', i + 1)) n++;
  return n;
}

/**
 * A better-sqlite3 connection as Kysely's SQLite dialect takes it, with its prepared statements kept by SQL
 * text (an LRU of `max`). Kysely's driver prepares every query anew: on the main thread that was a third of
 * the SQL's cost (better-sqlite3's `prepare` 1.2 s beside 2.0 s of running the statements in a profile of
 * 1,000 devices registering, subscribing and arriving), and the same on the writer thread's alarm writes.
 *
 * Safe to reuse: SQLite recompiles a prepared statement by itself when the schema changed under it (a
 * migration; `SELECT *` then returns the new columns), and `all` and `run` finish before they return.
 * `iterate` (a stream, which holds its statement until it ends) always gets a fresh statement, so a cached
 * one is never busy when it is handed out.
 */
export function cachedStatements(
  db: SqliteDatabase.Database,
  max = KYSELY_STATEMENT_CACHE,
): KyselySqliteDatabase & { readonly size: number } {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    get size() {
      return cache.size;
    },
    close: () => {
      cache.clear();
      db.close();
    },
    prepare(sql: string): SqliteStatement {
      let stmt = cache.get(sql);
      if (stmt) {
        // LRU: a Map keeps insertion order, so a statement used is moved to the end.
        cache.delete(sql);
        cache.set(sql, stmt);
      } else {
        stmt = db.prepare(sql);
        if (placeholders(sql) <= KYSELY_STATEMENT_MAX_PARAMS) {
          cache.set(sql, stmt);
          if (cache.size > max) cache.delete(cache.keys().next().value as string);
        }
      }
      const s = stmt;
      return {
        reader: s.reader,
        all: (params) => s.all(params),
        run: (params) => s.run(params),
        iterate: (params) => db.prepare(sql).iterate(params),
      };
    },
  };
}
