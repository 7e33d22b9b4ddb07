import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { type Dialect, openStorage, type Storage } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';

/** Both dialects, for `describe.each(DIALECTS)`: every repository test runs on SQLite and PostgreSQL. */
export const DIALECTS: Dialect[] = ['sqlite', 'postgres'];

export interface TestStorage {
  storage: Storage;
  /** SQLite: the data dir; PostgreSQL: the database URL. */
  dataDir: string;
  databaseUrl: string;
  /** Closes the storage (if still open) and deletes the database. */
  dispose(): Promise<void>;
}

let counter = 0;

/** A new, empty database of the dialect: a temp SQLite file, or a fresh database in the test cluster. */
export async function createTestDatabase(dialect: Dialect): Promise<{ dataDir: string; databaseUrl: string; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-test-'));
  if (dialect === 'sqlite') {
    return { dataDir, databaseUrl: '', drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const adminUrl = inject('pgUrl');
  if (!adminUrl) throw new Error('No PostgreSQL cluster: run the tests with `npm test` (vitest global setup starts one)');
  const name = `t_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An open, migrated storage on a fresh database of the dialect. */
export async function createTestStorage(dialect: Dialect): Promise<TestStorage> {
  const d = await createTestDatabase(dialect);
  const storage = openStorage({ databaseUrl: d.databaseUrl, dataDir: d.dataDir });
  await migrateToLatest(storage.db as never, storage.dialect);
  let closed = false;
  const close = storage.close.bind(storage);
  storage.close = async () => {
    if (closed) return;
    closed = true;
    await close();
  };
  return {
    storage,
    dataDir: d.dataDir,
    databaseUrl: d.databaseUrl,
    async dispose() {
      await storage.close();
      await d.drop();
    },
  };
}

/** A device's packed rollup rows in key order, blobs as hex: compared byte for byte by the rollup tests. */
export async function packedRollupRows(storage: Storage, deviceId: number) {
  const rows = await storage.db
    .selectFrom('rollup_packed')
    .select(['width', 'param', 'span', 'data'])
    .where('device_id', '=', deviceId)
    .orderBy('width')
    .orderBy('param')
    .orderBy('span')
    .execute();
  return rows.map((r) => ({ width: r.width, param: r.param, span: Number(r.span), data: Buffer.from(r.data).toString('hex') }));
}

/**
 * A user in `tz` with devices 1…n, written straight into the tables (columns of migrations 0001/0002, so
 * it also works on a database migrated only part of the way): for storage tests below the HTTP layer.
 */
export async function insertOwnerWithDevices(db: Kysely<unknown>, n: number, tz: string): Promise<void> {
  const k = db as Kysely<Record<string, Record<string, unknown>>>;
  await k
    .insertInto('users')
    .values({
      email: 'owner@example.com',
      password_hash: 'x',
      full_name: 'Owner',
      country: 'PL',
      timezone: tz,
      language: 'en',
      created_at: 0,
      updated_at: 0,
    })
    .execute();
  for (let id = 1; id <= n; id++) {
    const mac = `00:00:00:00:00:${id.toString(16).padStart(2, '0')}`;
    await k
      .insertInto('devices')
      .values({
        id,
        user_id: 1,
        name: mac,
        type_code: 20,
        type_name: 'Single-phase meter',
        mac,
        ingest_key_hash: `key-${id}`,
        registered_at: 0,
        modified_at: 0,
        billing_start_date: '2026-01-01',
        notifications: '{}',
        limit_warning: 10,
        limit_critical: 20,
      })
      .execute();
  }
}
