import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSqliteFile, openStorage } from './database.js';
import { migrateToLatest } from './migrate.js';
import { cachedStatements } from './sqlite-statements.js';

interface T {
  t: { a: number; b?: number; c?: string };
}

describe('cachedStatements (Kysely over better-sqlite3, statements kept by SQL text)', () => {
  let dir: string;
  let raw: SqliteDatabase.Database;
  let cached: ReturnType<typeof cachedStatements>;
  let db: Kysely<T>;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-stmt-'));
    raw = openSqliteFile(path.join(dir, 'x.sqlite'));
    cached = cachedStatements(raw, 4);
    db = new Kysely<T>({ dialect: new SqliteDialect({ database: cached }) });
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prepares a query once and stays within its bound, least recently used first out', async () => {
    await sql`create table t (a integer primary key)`.execute(db);
    await db
      .insertInto('t')
      .values([{ a: 1 }, { a: 2 }, { a: 3 }])
      .execute();
    const prepare = vi.spyOn(raw, 'prepare');
    const byA = (a: number) => db.selectFrom('t').selectAll().where('a', '=', a).executeTakeFirst();
    expect(await byA(1)).toEqual({ a: 1 });
    expect(await byA(2)).toEqual({ a: 2 });
    expect(await byA(9)).toBeUndefined();
    expect(prepare).toHaveBeenCalledTimes(1);
    // Ten other texts: the cache keeps 4, the recent ones.
    for (let k = 1; k <= 10; k++) await sql`select a + ${sql.lit(k)} as x from t where a = ${1}`.execute(db);
    expect(cached.size).toBe(4);
    prepare.mockClear();
    await sql`select a + ${sql.lit(10)} as x from t where a = ${1}`.execute(db);
    expect(prepare).not.toHaveBeenCalled();
    expect(await byA(3)).toEqual({ a: 3 });
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(cached.size).toBe(4);
    // A long IN list is prepared for its one use and not kept (each length would be a text of its own).
    prepare.mockClear();
    const many = Array.from({ length: 65 }, (_, i) => i);
    expect(await db.selectFrom('t').select('a').where('a', 'in', many).orderBy('a').execute()).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    expect(await db.selectFrom('t').select('a').where('a', 'in', many).orderBy('a').execute()).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    expect(prepare).toHaveBeenCalledTimes(2);
    expect(cached.size).toBe(4);
    // Writes answer what they changed, as without the cache.
    const del = await db.deleteFrom('t').where('a', '>', 1).executeTakeFirst();
    expect(del.numDeletedRows).toBe(2n);
    const again = await db.deleteFrom('t').where('a', '>', 1).executeTakeFirst();
    expect(again.numDeletedRows).toBe(0n);
  });

  it('answers with the new schema after a schema-changing migration (same SQL text, cached before it)', async () => {
    await sql`create table t (a integer primary key)`.execute(db);
    await db.insertInto('t').values({ a: 1 }).execute();
    const all = () => db.selectFrom('t').selectAll().orderBy('a').execute();
    expect(await all()).toEqual([{ a: 1 }]);
    await db.schema
      .alterTable('t')
      .addColumn('b', 'integer', (c) => c.notNull().defaultTo(7))
      .execute();
    expect(await all()).toEqual([{ a: 1, b: 7 }]);
    // Dropped and made again with other columns: the cached `select *` reads the new table.
    await db.schema.dropTable('t').execute();
    await db.schema
      .createTable('t')
      .addColumn('a', 'integer', (c) => c.primaryKey())
      .addColumn('c', 'text')
      .execute();
    await db.insertInto('t').values({ a: 5, c: 'x' }).execute();
    expect(await all()).toEqual([{ a: 5, c: 'x' }]);
  });

  it('runs a query while an iteration of the same text is under way (each iteration has a statement of its own)', async () => {
    await sql`create table t (a integer primary key)`.execute(db);
    await db
      .insertInto('t')
      .values([{ a: 1 }, { a: 2 }, { a: 3 }])
      .execute();
    // Kysely holds its one connection for a stream, so the wrapper is used directly here.
    const text = 'select a from t where a > ? order by a';
    expect(cached.prepare(text).all([0])).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    const seen: unknown[] = [];
    for (const row of cached.prepare(text).iterate([0])) {
      seen.push(row);
      expect(cached.prepare(text).all([1])).toEqual([{ a: 2 }, { a: 3 }]);
      const inner = cached.prepare(text).iterate([2]);
      expect([...inner]).toEqual([{ a: 3 }]);
    }
    expect(seen).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    // Through Kysely: a stream, then the same query cached.
    const q = () => db.selectFrom('t').select('a').where('a', '>', 0).orderBy('a');
    const streamed: number[] = [];
    for await (const row of q().stream()) streamed.push(row.a);
    expect(streamed).toEqual([1, 2, 3]);
    expect(await q().execute()).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
  });

  it('serves the app’s storage: every migration runs through it and its tables answer', async () => {
    await db.destroy();
    const storage = openStorage({ databaseUrl: '', dataDir: dir, sqliteFile: 'app.sqlite' });
    try {
      const applied = await migrateToLatest(storage.db as never, 'sqlite');
      expect(applied.length).toBeGreaterThan(10);
      const users = () => storage.db.selectFrom('users').select(['id', 'email']).execute();
      expect(await users()).toEqual([]);
      await storage.db
        .insertInto('users')
        .values({
          email: 'a@example.test',
          password_hash: 'x',
          full_name: 'A',
          country: 'PL',
          timezone: 'UTC',
          language: 'en',
          created_at: 1,
          updated_at: 1,
        })
        .execute();
      expect((await users()).map((u) => u.email)).toEqual(['a@example.test']);
    } finally {
      await storage.close();
      db = new Kysely<T>({ dialect: new SqliteDialect({ database: cachedStatements(openSqliteFile(path.join(dir, 'y.sqlite'))) }) });
    }
  });
});
