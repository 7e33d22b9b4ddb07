import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { cachedStatements } from './sqlite-statements.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Storage {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where the data lives, for logs: the SQLite file path or the PostgreSQL host/database. */
  location: string;
  /** The raw pool on PostgreSQL (LISTEN/NOTIFY needs a dedicated client); null on SQLite. */
  pgPool: pg.Pool | null;
  /** The raw better-sqlite3 handle on SQLite (bulk paths use prepared statements); null on PostgreSQL. */
  sqlite: SqliteDatabase.Database | null;
  close(): Promise<void>;
}

// BIGINT (epoch ms, counters) and NUMERIC come back as strings by default; ours fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

export interface StorageOptions {
  databaseUrl: string;
  dataDir: string;
  /** SQLite file name inside dataDir. */
  sqliteFile?: string;
  pgPoolSize?: number;
}

/**
 * Kysely over a better-sqlite3 connection, its statements prepared once per SQL text (`cachedStatements`):
 * the app's connection, the writer thread's alarm writes and the job threads' read-only connections.
 */
export function sqliteKysely(sqlite: SqliteDatabase.Database): Kysely<Database> {
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(sqlite) }) });
}

/** Opens SQLite (default, WAL) or PostgreSQL (when databaseUrl is postgres://…). */
export function openStorage(opts: StorageOptions): Storage {
  if (/^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.pgPoolSize ?? 10 });
    // An idle client that errors (server restart) must not crash the process.
    pool.on('error', () => {});
    const url = new URL(opts.databaseUrl);
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      dialect: 'postgres',
      location: `postgres://${url.host}${url.pathname}`,
      pgPool: pool,
      sqlite: null,
      async close() {
        await this.db.destroy();
      },
    };
  }
  mkdirSync(opts.dataDir, { recursive: true });
  const file = path.join(opts.dataDir, opts.sqliteFile ?? 'phasewatch.sqlite');
  const sqlite = openSqliteFile(file);
  return {
    db: sqliteKysely(sqlite),
    dialect: 'sqlite',
    location: file,
    pgPool: null,
    sqlite,
    async close() {
      await this.db.destroy();
    },
  };
}

/**
 * A better-sqlite3 connection with the settings every connection to the data file uses (the app's
 * and the readings writer thread's): WAL, NORMAL sync, foreign keys, a busy timeout (the two
 * connections take turns writing), a 16 MB page cache and (but for the readings writer, `mmap: false`) the
 * file memory-mapped for reads (a year of packed rollups touches a few thousand pages; mmap keeps them
 * off read() calls), fewer checkpoints.
 */
export function openSqliteFile(file: string, opts: { mmap?: boolean } = {}): SqliteDatabase.Database {
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // The page cache is anonymous memory that fills over hours (WAL pages are read into it, not mapped):
  // 64 MB on each of the two connections grew a server's RSS by ~10 MB a minute for ten minutes of a
  // 1,000-device soak. 16 MB holds a write's pages; the batched writer was no slower (faster, if anything).
  sqlite.pragma('cache_size = -16384');
  // Mapped pages that were read count in the process's RSS until the kernel needs them back: the readings
  // writer reads every raw row once (the roll-up of its hour), so its connection maps nothing (1,000
  // devices grew the RSS by 15 MB a minute), and reads go through its page cache above.
  sqlite.pragma(`mmap_size = ${opts.mmap === false ? 0 : 1073741824}`);
  // Checkpoints every 64 MB of WAL instead of every 4 MB: the readings writer commits a few hundred
  // pages per batch, and each checkpoint copies pages back and syncs the file (a fifth of the ingest
  // cost at the default). The WAL file is cut back to 64 MB after a checkpoint.
  sqlite.pragma('wal_autocheckpoint = 16384');
  sqlite.pragma('journal_size_limit = 67108864');
  return sqlite;
}
