/*
 * Bytes on disk per stored reading, for the benchmarks: the raw rows and the rollups of a database as
 * they are (SQLite pages by table from `dbstat`, PostgreSQL relation sizes with their TOAST and
 * indexes), and, as the baseline measured in the same run, the same readings in the previous layout
 * (version 1: REAL values as sent, 5-minute, 15-minute and hourly packed levels with counters as
 * first | last | delta, wide local-day rows) written into a scratch SQLite file with the frozen code of
 * migrations 0003/0004.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { localDayStarts, startOfLocalDay } from '@phasewatch/shared';
import SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import type { Storage } from '../../apps/server/src/storage/database.js';
import { RAW_COLUMNS } from '../../apps/server/src/storage/migrations/legacy/v1-columns.js';
import {
  fillLevelRow,
  floorTo,
  foldLevel,
  H1,
  levelFromRaw,
  M5,
  M15,
  packedWrites,
  paramSetColumns,
  paramSetOf,
} from '../../apps/server/src/storage/migrations/legacy/v1-rollups.js';

export interface Footprint {
  readings: number;
  rawBytes: number;
  rollupBytes: number;
}

export const perReading = (f: Footprint) => (f.rawBytes + f.rollupBytes) / Math.max(1, f.readings);

/** Sizes of a running app's storage (SQLite after a checkpoint). */
export async function footprintOf(storage: Storage): Promise<Footprint> {
  if (storage.sqlite) {
    storage.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const rows = storage.sqlite.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as {
      name: string;
      bytes: number;
    }[];
    const size = (re: RegExp) => rows.filter((r) => re.test(r.name)).reduce((a, r) => a + r.bytes, 0);
    const readings = (storage.sqlite.prepare('SELECT COUNT(*) AS n FROM readings').get() as { n: number }).n;
    return { readings, rawBytes: size(/^readings$/), rollupBytes: size(/rollup_/) };
  }
  const pool = storage.pgPool as pg.Pool;
  await pool.query('VACUUM ANALYZE');
  const { rows } = await pool.query<{ relname: string; bytes: string }>(
    "SELECT c.relname, pg_total_relation_size(c.oid) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND (c.relname LIKE 'readings%' OR c.relname LIKE 'rollup_%')",
  );
  const size = (re: RegExp) => rows.filter((r) => re.test(r.relname)).reduce((a, r) => a + Number(r.bytes), 0);
  const { rows: count } = await pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM readings');
  return { readings: Number(count[0]?.n ?? 0), rawBytes: size(/^readings/), rollupBytes: size(/^rollup_/) };
}

/** One device's readings, column-wise (values as sent). */
export interface DeviceReadings {
  deviceId: number;
  tz: string;
  names: string[];
  ts: number[];
  cols: Float64Array[];
}

/** The same readings in the version-1 layout, in a scratch SQLite file: the baseline of the footprint. */
export async function v1Footprint(devices: AsyncIterable<DeviceReadings>): Promise<Footprint> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-bench-v1-'));
  const db = new SqliteDatabase(path.join(dir, 'v1.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    const real = RAW_COLUMNS.map((c) => `"${c}" real`).join(', ');
    db.exec(`CREATE TABLE readings (device_id integer NOT NULL, ts integer NOT NULL, ${real}, PRIMARY KEY (device_id, ts)) WITHOUT ROWID`);
    db.exec(
      'CREATE TABLE rollup_packed (device_id integer NOT NULL, width integer NOT NULL, param varchar(40) NOT NULL, span integer NOT NULL, data blob NOT NULL, PRIMARY KEY (device_id, width, param, span))',
    );
    const dayCols = paramSetColumns(paramSetOf(new Set(RAW_COLUMNS)));
    db.exec(
      `CREATE TABLE rollup_day (device_id integer NOT NULL, bucket integer NOT NULL, n integer NOT NULL, bucket_end integer NOT NULL, tz varchar(64) NOT NULL, ${dayCols.map((c) => `"${c}" real`).join(', ')}, PRIMARY KEY (device_id, bucket)) WITHOUT ROWID`,
    );
    let readings = 0;
    for await (const d of devices) {
      readings += d.ts.length;
      const insertRaw = db.prepare(
        `INSERT INTO readings (device_id, ts, ${d.names.map((n) => `"${n}"`).join(', ')}) VALUES (${['?', '?', ...d.names.map(() => '?')].join(', ')})`,
      );
      db.transaction(() => {
        for (let i = 0; i < d.ts.length; i++) {
          insertRaw.run(d.deviceId, d.ts[i], ...d.cols.map((c) => (Number.isNaN(c[i] as number) ? null : c[i])));
        }
      })();
      const ps = paramSetOf(new Set(d.names));
      const ordered = [...ps.instant, ...ps.counter];
      const raw = { ts: d.ts, cols: ordered.map((n) => d.cols[d.names.indexOf(n)] as Float64Array) };
      const m5 = levelFromRaw(raw, ps, M5);
      const m15 = foldLevel(m5, ps, (t) => floorTo(t, M15));
      const h1 = foldLevel(m15, ps, (t) => floorTo(t, H1));
      const insertPacked = db.prepare('INSERT INTO rollup_packed (device_id, width, param, span, data) VALUES (?, ?, ?, ?, ?)');
      db.transaction(() => {
        for (const [width, level] of [
          [M5, m5],
          [M15, m15],
          [H1, h1],
        ] as const) {
          for (const w of packedWrites(level, ps, width, new Map())) insertPacked.run(d.deviceId, w.width, w.param, w.span, w.data);
        }
      })();
      const first = m15.bucket[0];
      const last = m15.bucket[m15.bucket.length - 1];
      if (first === undefined || last === undefined) continue;
      const edges = [...localDayStarts(first, last + 1, d.tz), startOfLocalDay(last + 26 * H1, d.tz)];
      let e = 0;
      const days = foldLevel(m15, ps, (t) => {
        while (t >= (edges[e + 1] as number)) e++;
        return edges[e] as number;
      });
      const cols = paramSetColumns(ps);
      const insertDay = db.prepare(
        `INSERT INTO rollup_day (device_id, bucket, n, bucket_end, tz, ${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${['?', '?', '?', '?', '?', ...cols.map(() => '?')].join(', ')})`,
      );
      db.transaction(() => {
        for (let k = 0; k < days.bucket.length; k++) {
          const values: unknown[] = [];
          fillLevelRow(days, k, values, 0);
          const bucket = days.bucket[k] as number;
          insertDay.run(d.deviceId, bucket, days.n[k], edges[edges.indexOf(bucket) + 1], d.tz, ...values);
        }
      })();
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as { name: string; bytes: number }[];
    const size = (re: RegExp) => rows.filter((r) => re.test(r.name)).reduce((a, r) => a + r.bytes, 0);
    return { readings, rawBytes: size(/^readings$/), rollupBytes: size(/rollup_/) };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every device's readings of a storage, device by device (values decoded as sent). */
export async function* devicesOf(
  storage: Storage,
  read: (deviceId: number) => Promise<{ ts: number[]; cols: Float64Array[] }>,
): AsyncGenerator<DeviceReadings> {
  const devices = await storage.db
    .selectFrom('devices')
    .innerJoin('users', 'users.id', 'devices.user_id')
    .select(['devices.id', 'users.timezone'])
    .orderBy('devices.id')
    .execute();
  for (const d of devices) {
    const all = await read(d.id);
    const names = RAW_COLUMNS.filter((_, j) => (all.cols[j] as Float64Array).some((v) => !Number.isNaN(v)));
    yield { deviceId: d.id, tz: d.timezone, names, ts: all.ts, cols: names.map((n) => all.cols[RAW_COLUMNS.indexOf(n)] as Float64Array) };
  }
}
