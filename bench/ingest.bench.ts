import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import { RAW_COLUMNS } from '../apps/server/src/modules/readings/readings.columns.js';
import type { BenchContext } from './run.js';
import { BENCH_PARAMS, benchApp, benchReadings } from './telemetry-fixtures.js';

const BATCH = 5000;
const TOTAL = 200_000;
/**
 * The HTTP path and its baseline run in alternating rounds over consecutive slices of the rows, and
 * each side's times add up: on two cores shared with other work, load swings within a minute, and
 * timing the two phases one after the other let a spike land on either side (ratios from 20 % to
 * 47 % in successive runs of the same code).
 */
const ROUNDS = 4;

type Rows = ReturnType<typeof benchReadings>;

/** Milliseconds to ingest `rows` over HTTP, 5,000 per request. */
async function httpIngest(app: Awaited<ReturnType<typeof benchApp>>, rows: Rows): Promise<number> {
  // Bodies are serialised and UTF-8 encoded before the clock starts: the client's work is not the server's.
  const bodies: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const json = JSON.stringify({
      readings: rows.slice(i, i + BATCH).map((r) => ({ ts: new Date(r.ts).toISOString(), values: r.values })),
    });
    bodies.push(new TextEncoder().encode(json));
  }
  const t0 = performance.now();
  for (const body of bodies) {
    const res = await fetch(`${app.base}/api/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-key': app.ingestKey },
      body,
    });
    if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
  }
  return performance.now() - t0;
}

/**
 * Total milliseconds of the HTTP path and of the baselines over all rounds (each round runs the HTTP
 * slice, then each baseline on the same slice), as rates.
 */
async function alternate(rows: Rows, http: (slice: Rows) => Promise<number>, ...baselines: ((slice: Rows) => Promise<number>)[]) {
  let httpMs = 0;
  const baseMs = baselines.map(() => 0);
  const per = Math.ceil(rows.length / ROUNDS);
  for (let i = 0; i < rows.length; i += per) {
    const slice = rows.slice(i, i + per);
    httpMs += await http(slice);
    for (let b = 0; b < baselines.length; b++)
      baseMs[b] = (baseMs[b] as number) + (await (baselines[b] as (s: Rows) => Promise<number>)(slice));
  }
  const rate = (ms: number) => rows.length / (ms / 1000);
  return { http: rate(httpMs), baseline: rate(baseMs[0] as number), others: baseMs.slice(1).map(rate) };
}

/** A better-sqlite3 insert loop into `table` (already created) with the given columns: 1,000-row transactions. */
function sqliteLoop(db: SqliteDatabase.Database, table: string, cols: readonly string[]) {
  const stmt = db.prepare(
    `INSERT INTO ${table} (device_id, ts, ${cols.map((c) => `"${c}"`).join(', ')}) VALUES (?, ?, ${cols.map(() => '?').join(', ')})`,
  );
  const insertMany = db.transaction((chunk: Rows) => {
    for (const r of chunk) stmt.run(1, r.ts, ...cols.map((p) => r.values[p] ?? null));
  });
  return async (slice: Rows) => {
    const t0 = performance.now();
    for (let i = 0; i < slice.length; i += 1000) insertMany(slice.slice(i, i + 1000));
    return performance.now() - t0;
  };
}

/**
 * HTTP ingest (JSON over a real socket, validation, raw rows and every rollup level) against a bare
 * insert loop of the same rows in the same run: better-sqlite3 prepared statement, 1,000-row
 * transactions, WAL; on PostgreSQL multi-row INSERTs of 1,000 rows per transaction.
 */
export default async function ingestBench(ctx: BenchContext): Promise<void> {
  const start = Date.now() - 400 * 86_400_000;
  const rows = benchReadings(start, TOTAL, 60_000);

  const sqliteApp = await benchApp('sqlite', ctx.pgUrl);
  const raw = new SqliteDatabase(path.join(sqliteApp.dataDir, 'baseline.sqlite'));
  try {
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.exec(
      `CREATE TABLE readings (device_id integer NOT NULL, ts integer NOT NULL, ${BENCH_PARAMS.map((p) => `${p} real`).join(', ')}, PRIMARY KEY (device_id, ts)) WITHOUT ROWID`,
    );
    // The same rows into a table with exactly the server's raw readings schema (every catalogue
    // parameter a column, as migration 0003 creates it): what the server's own raw insert is up against.
    raw.exec(
      `CREATE TABLE readings_wide (device_id integer NOT NULL, ts integer NOT NULL, ${RAW_COLUMNS.map((c) => `"${c}" real`).join(', ')}, PRIMARY KEY (device_id, ts)) WITHOUT ROWID`,
    );
    const rates = await alternate(
      rows,
      (slice) => httpIngest(sqliteApp, slice),
      sqliteLoop(raw, 'readings', BENCH_PARAMS),
      sqliteLoop(raw, 'readings_wide', BENCH_PARAMS),
    );
    const wide = rates.others[0] as number;
    ctx.report(
      'SQLite HTTP ingest (5,000/request, with rollups)',
      rates.http,
      'readings/s',
      `${((rates.http / rates.baseline) * 100).toFixed(0)} % of raw loop (target ≥ 50 %)`,
    );
    ctx.report(
      'SQLite raw better-sqlite3 loop (1,000-row tx, WAL)',
      rates.baseline,
      'readings/s',
      `baseline, ${ROUNDS} alternating rounds`,
    );
    ctx.report(
      'SQLite HTTP ingest vs raw loop into the full readings schema',
      (rates.http / wide) * 100,
      '%',
      `extra ratio: same HTTP figure over the wide-schema loop below (the line above divides by the ${BENCH_PARAMS.length}-column table)`,
    );
    ctx.report(
      `SQLite raw loop, full readings schema (${RAW_COLUMNS.length + 2} columns)`,
      wide,
      'readings/s',
      `baseline 2: same rows, same loop, table as migration 0003 creates it`,
    );
  } finally {
    raw.close();
    await sqliteApp.close();
  }

  const pgRows = rows.slice(0, 100_000);
  const pgApp = await benchApp('postgres', ctx.pgUrl);
  try {
    const pool = pgApp.ctx.storage.pgPool as pg.Pool;
    await pool.query(
      `CREATE TABLE baseline (device_id integer NOT NULL, ts bigint NOT NULL, ${BENCH_PARAMS.map((p) => `${p} double precision`).join(', ')}, PRIMARY KEY (device_id, ts))`,
    );
    const rates = await alternate(
      pgRows,
      (slice) => httpIngest(pgApp, slice),
      async (slice) => {
        const t0 = performance.now();
        for (let i = 0; i < slice.length; i += 1000) {
          const chunk = slice.slice(i, i + 1000);
          const width = BENCH_PARAMS.length + 2;
          const values = chunk.map((_, j) => `(${Array.from({ length: width }, (_, k) => `$${j * width + k + 1}`).join(',')})`).join(',');
          await pool.query(
            `INSERT INTO baseline VALUES ${values}`,
            chunk.flatMap((r) => [1, r.ts, ...BENCH_PARAMS.map((p) => r.values[p] ?? null)]),
          );
        }
        return performance.now() - t0;
      },
    );
    ctx.report(
      'PostgreSQL HTTP ingest (5,000/request, with rollups)',
      rates.http,
      'readings/s',
      `${((rates.http / rates.baseline) * 100).toFixed(0)} % of raw multi-row insert`,
    );
    ctx.report('PostgreSQL raw multi-row INSERT (1,000 rows/tx)', rates.baseline, 'readings/s', `baseline, ${ROUNDS} alternating rounds`);
  } finally {
    await pgApp.close();
  }
}
