import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
