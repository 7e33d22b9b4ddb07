/**
 * HTTP ingest (JSON over a real socket, validation, raw rows and every rollup level) against a bare
 * insert loop of the same rows in the same run: better-sqlite3 prepared statement, 1,000-row
 * transactions, WAL; on PostgreSQL a raw `COPY … FROM STDIN` of the same rows (every column of the readings
 * schema, a primary key on device and time) per round's slice, as fast as rows get into that table.
 *
 * The server under test runs in a child process (this file, role `server`), as a deployment would:
 * the HTTP client (fetch/undici) is elsewhere, so its work is not on the server's event loop. The
 * baseline loops run in this, the bench process, while the server waits between requests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { RAW_COLUMNS } from '../apps/server/src/modules/readings/index.js';
import type { BenchContext } from './run.js';
import { processUsage } from './support/fleet.js';
import { BENCH_PARAMS, benchApp, benchReadings } from './telemetry-fixtures.js';

const BATCH = 5000;
const TOTAL = 200_000;
/**
 * Devices sending at once in the headline figure: a server takes many devices' batches at a time, and
 * on SQLite the writer thread stores one batch while the main thread reads the next. One device
 * sending request after request (nothing to overlap) is printed as an extra line.
 */
const FLEET = 4;
/**
 * The HTTP path and its baseline run in alternating rounds over consecutive slices of the rows, and
 * each side's times add up: on two cores shared with other work, load swings within a minute, and
 * timing the two phases one after the other let a spike land on either side (ratios from 20 % to
 * 47 % in successive runs of the same code).
 */
const ROUNDS = 4;

type Rows = ReturnType<typeof benchReadings>;
type Dialect = 'sqlite' | 'postgres';

/** Lines joined into chunks of about 64 KB (one stream write each). */
function* chunked(lines: readonly string[]): Generator<string> {
  let chunk = '';
  for (const l of lines) {
    chunk += l;
    if (chunk.length >= 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

// ---- server process -------------------------------------------------------------------------------

type ToServer = { cmd: 'exit' };
type FromServer = { cmd: 'ready'; base: string; token: string; ingestKeys: string[]; dataDir: string; databaseUrl: string };

/**
 * The notification rules' setting of a bench server (`INGEST_BENCH_RULES`): `off` builds the app without
 * them; `on` turns every notification setting of its devices on (push, e-mail, quiet hours, a consumption
 * threshold, the voltage thresholds and limits as the defaults have them).
 */
type Rules = 'default' | 'on' | 'off';
const EVERY_SETTING = {
  pushEnabled: true,
  emailEnabled: true,
  voltageDropThreshold: 10,
  voltageRiseThreshold: 10,
  totalConsumptionThreshold: 1_000_000,
  disableAtNight: true,
  notificationIntervalMinutes: 60,
  muteAll: false,
};

/**
 * The app as `benchApp` builds it (SQLite in a temp dir or a fresh database in the bench cluster, demo
 * and simulator off, logs silent, MQTT off, retention long enough for year-old readings), with a user
 * and a device registered over HTTP; answers where it listens and the device's ingest key.
 */
async function serverMain(): Promise<void> {
  const dialect = process.env.INGEST_BENCH_DIALECT as Dialect;
  const rules = (process.env.INGEST_BENCH_RULES ?? 'default') as Rules;
  const app = await benchApp(dialect, process.env.INGEST_BENCH_PG_URL ?? '', rules === 'off' ? { notifications: { rules: false } } : {});
  let closing = false;
  const exit = async (code: number) => {
    if (closing) return;
    closing = true;
    await app.close();
    process.exit(code);
  };
  process.on('message', (m: ToServer) => {
    if (m.cmd === 'exit') void exit(0);
  });
  // The bench process is gone (interrupted): do not stay behind listening.
  process.on('disconnect', () => void exit(1));
  // The fleet's other devices and the one that sends alone.
  const ingestKeys = [app.ingestKey];
  for (let d = 1; d <= FLEET; d++) {
    const res = await fetch(`${app.base}/api/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${app.token}` },
      body: JSON.stringify({ name: `bench ${d}`, mac: `00:11:22:33:45:${String(d).padStart(2, '0')}`, typeCode: 20 }),
    });
    ingestKeys.push(((await res.json()) as { ingestKey: string }).ingestKey);
  }
  if (rules === 'on') {
    for (const d of (await (await fetch(`${app.base}/api/devices`, { headers: { authorization: `Bearer ${app.token}` } })).json()) as {
      id: number;
    }[]) {
      await fetch(`${app.base}/api/devices/${d.id}/notifications`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${app.token}` },
        body: JSON.stringify(EVERY_SETTING),
      });
    }
  }
  process.send?.({
    cmd: 'ready',
    base: app.base,
    token: app.token,
    ingestKeys,
    dataDir: app.dataDir,
    databaseUrl: app.ctx.config.databaseUrl,
  } satisfies FromServer);
}

// ---- bench process --------------------------------------------------------------------------------

type Server = Omit<FromServer, 'cmd'> & { pid: number; stop(): Promise<void> };

/** Starts the server process and waits until it listens with its device registered. */
async function startServer(dialect: Dialect, pgUrl: string, rules: Rules = 'default'): Promise<Server> {
  // INGEST_SERVER_NODE_OPTIONS: extra node flags for the server (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const flags = (process.env.INGEST_SERVER_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...flags, '--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: {
      ...process.env,
      INGEST_BENCH_ROLE: 'server',
      INGEST_BENCH_DIALECT: dialect,
      INGEST_BENCH_PG_URL: pgUrl,
      INGEST_BENCH_RULES: rules,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<FromServer>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('bench server did not start in 120 s')), 120_000);
    child.once('message', (m: FromServer) => {
      clearTimeout(t);
      resolve(m);
    });
    child.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`bench server exited (code ${code}) before it was ready`));
    });
  });
  const { cmd: _, ...info } = ready;
  return {
    ...info,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode === null && child.connected) child.send({ cmd: 'exit' } satisfies ToServer);
      const t = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/**
 * Milliseconds to ingest `rows` over HTTP, 5,000 per request, the requests dealt round-robin to the
 * devices of `keys`: each device sends its requests one after another, the devices at the same time.
 */
async function httpIngest(server: Server, keys: readonly string[], rows: Rows): Promise<number> {
  // Bodies are serialised and UTF-8 encoded before the clock starts: the client's work is not the server's.
  const bodies: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const json = JSON.stringify({
      readings: rows.slice(i, i + BATCH).map((r) => ({ ts: new Date(r.ts).toISOString(), values: r.values })),
    });
    bodies.push(new TextEncoder().encode(json));
  }
  const t0 = performance.now();
  await Promise.all(
    keys.map(async (key, d) => {
      for (let b = d; b < bodies.length; b += keys.length) {
        const res = await fetch(`${server.base}/api/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-device-key': key },
          body: bodies[b] as Uint8Array<ArrayBuffer>,
        });
        if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
      }
    }),
  );
  return performance.now() - t0;
}

/**
 * Total milliseconds of the HTTP path and of the baselines over all rounds (each round runs the HTTP
 * slice, then each baseline on the same slice), as rates. First, untimed, every side takes `warmUp`
 * (readings before `rows`): a server that has just started compiles its code as it goes and starts
 * the SQLite writer thread on the first write (1.5 s of a 4 s run under tsx), which a running server
 * has long done.
 */
async function alternate(
  rows: Rows,
  warmUp: Rows,
  http: (slice: Rows) => Promise<number>,
  ...baselines: ((slice: Rows) => Promise<number>)[]
) {
  await http(warmUp);
  for (const b of baselines) await b(warmUp);
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

const percent = (a: number, b: number) => ((a / b) * 100).toFixed(0);

/** Readings the rules judge (the last 23 hours, 0.4 s apart) in 5,000-reading batches. */
const RULES_TOTAL = 100_000;
/**
 * A sag of ten readings every this many readings: about the demo fleet's rate per reading at 1-minute
 * reporting (a sag in one hour of 150). `INGEST_BENCH_SAG_EVERY` changes it (2,000: every batch has alarm
 * changes, the rules' worst case here).
 */
const SAG_EVERY = Number(process.env.INGEST_BENCH_SAG_EVERY ?? 10_000);

/**
 * The cost of the notification rules on ingest: the same recent readings (the rules judge the last day
 * only) into two servers, one with the rules and every notification setting on, one without them, in
 * alternating rounds. A sag of ten readings every SAG_EVERY makes alarms begin and end, so the rules'
 * writes are part of the figure.
 */
async function rulesComparison(ctx: BenchContext, dialect: Dialect): Promise<void> {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const series = benchReadings(Date.now() - 23 * 3_600_000, BATCH + RULES_TOTAL, 400);
  for (let i = 0; i < series.length; i++)
    if (i % SAG_EVERY < 10) Object.assign((series[i] as Rows[number]).values, { vave1: 199.4, vmin1: 198.2 });
  const on = await startServer(dialect, ctx.pgUrl, 'on');
  const off = await startServer(dialect, ctx.pgUrl, 'off');
  try {
    // CPU time of each server process (its threads included): steadier than the rates on a machine that
    // other work shares, since each server mostly waits while the other one ingests.
    const cpu0 = { on: processUsage(on.pid).cpuS, off: processUsage(off.pid).cpuS };
    const rates = await alternate(
      series.slice(BATCH),
      series.slice(0, BATCH),
      (slice) => httpIngest(on, on.ingestKeys.slice(0, FLEET), slice),
      (slice) => httpIngest(off, off.ingestKeys.slice(0, FLEET), slice),
    );
    const list = (await (
      await fetch(`${on.base}/api/notifications?limit=200`, { headers: { authorization: `Bearer ${on.token}` } })
    ).json()) as {
      items: { occurrences: number }[];
    };
    const cpuOn = processUsage(on.pid).cpuS - cpu0.on;
    const cpuOff = processUsage(off.pid).cpuS - cpu0.off;
    const slower = (1 - rates.http / rates.baseline) * 100;
    ctx.report(
      `${label} HTTP ingest, rules on (every setting on)`,
      rates.http,
      'readings/s',
      `${slower.toFixed(1)} % slower than rules off (target ≤ 10 %); a sag every ${SAG_EVERY.toLocaleString('en')} readings: ${list.items.length} alarms, ${list.items.reduce((a, i) => a + i.occurrences, 0)} sag starts judged`,
    );
    ctx.report(`${label} HTTP ingest, rules off`, rates.baseline, 'readings/s', `same readings (last 23 h), ${ROUNDS} alternating rounds`);
    const per100k = (s: number) => (s / (RULES_TOTAL + BATCH)) * 100_000;
    ctx.report(
      `${label} server CPU per 100,000 readings, rules on`,
      per100k(cpuOn),
      's',
      `${(((cpuOn - cpuOff) / cpuOff) * 100).toFixed(1)} % more than rules off (${per100k(cpuOff).toFixed(2)} s): the process, its threads included`,
    );
  } finally {
    await on.stop();
    await off.stop();
  }
}

/** PostgreSQL HTTP ingest against a raw COPY of the same rows into the readings schema, in alternating rounds. */
async function postgresVsCopy(ctx: BenchContext, rows: Rows, warmUp: Rows): Promise<void> {
  const pgRows = rows.slice(0, 100_000);
  const pgServer = await startServer('postgres', ctx.pgUrl);
  try {
    // The baseline table lives in the server's fresh database, written through a connection of our own.
    const pool = new pg.Pool({ connectionString: pgServer.databaseUrl, max: 1 });
    try {
      // The readings schema: every catalogue column (double precision), the same key; a plain table (the
      // server's is partitioned by month, which COPY into the parent would only slow down).
      await pool.query(
        `CREATE TABLE baseline (device_id integer NOT NULL, ts bigint NOT NULL, ${RAW_COLUMNS.map((p) => `"${p}" double precision`).join(', ')}, PRIMARY KEY (device_id, ts))`,
      );
      const client = await pool.connect();
      const rates = await alternate(
        pgRows,
        warmUp,
        (slice) => httpIngest(pgServer, pgServer.ingestKeys.slice(0, FLEET), slice),
        async (slice) => {
          const t0 = performance.now();
          // The text is built inside the timing: the server builds its own too.
          const lines = slice.map((r) => `1\t${r.ts}\t${RAW_COLUMNS.map((p) => r.values[p] ?? '\\N').join('\t')}\n`);
          const stream = client.query(copyFrom(`COPY baseline (device_id, ts, ${RAW_COLUMNS.map((p) => `"${p}"`).join(', ')}) FROM STDIN`));
          await pipeline(Readable.from(chunked(lines)), stream);
          return performance.now() - t0;
        },
      );
      client.release();
      ctx.report(
        `PostgreSQL HTTP ingest (${FLEET} devices at once, 5,000/request, with rollups)`,
        rates.http,
        'readings/s',
        `${percent(rates.http, rates.baseline)} % of raw COPY into the readings schema (target ≥ 50 %); server in its own process`,
      );
      ctx.report(
        'PostgreSQL raw COPY FROM STDIN (readings schema)',
        rates.baseline,
        'readings/s',
        `baseline, ${ROUNDS} alternating rounds`,
      );
    } finally {
      await pool.end();
    }
  } finally {
    await pgServer.stop();
  }
}

export default async function ingestBench(ctx: BenchContext): Promise<void> {
  // INGEST_BENCH_ONLY=rules: only the notification rules' figures (rules on beside rules off).
  if (process.env.INGEST_BENCH_ONLY === 'rules') {
    await rulesComparison(ctx, 'sqlite');
    await rulesComparison(ctx, 'postgres');
    return;
  }
  const start = Date.now() - 400 * 86_400_000;
  // One series, so the counter keeps growing from the warm-up into the measured rows.
  const series = benchReadings(start - BATCH * 60_000, BATCH + TOTAL, 60_000);
  const warmUp = series.slice(0, BATCH);
  const rows = series.slice(BATCH);
  // INGEST_BENCH_ONLY=postgres: only PostgreSQL HTTP ingest against the raw COPY.
  if (process.env.INGEST_BENCH_ONLY === 'postgres') return postgresVsCopy(ctx, rows, warmUp);

  const sqliteServer = await startServer('sqlite', ctx.pgUrl);
  try {
    const raw = new SqliteDatabase(path.join(sqliteServer.dataDir, 'baseline.sqlite'));
    try {
      raw.pragma('journal_mode = WAL');
      raw.pragma('synchronous = NORMAL');
      // The issue's baseline is a raw loop inserting the same rows, and the server stores each reading
      // as a row of its `readings` table: the loop inserts into a table with exactly that schema (every
      // catalogue parameter a column, as migration 0003 creates it).
      raw.exec(
        `CREATE TABLE readings (device_id integer NOT NULL, ts integer NOT NULL, ${RAW_COLUMNS.map((c) => `"${c}" real`).join(', ')}, PRIMARY KEY (device_id, ts)) WITHOUT ROWID`,
      );
      // Extra, for comparison only: the same loop into a table of just the parameters the rows carry.
      raw.exec(
        `CREATE TABLE narrow (device_id integer NOT NULL, ts integer NOT NULL, ${BENCH_PARAMS.map((p) => `${p} real`).join(', ')}, PRIMARY KEY (device_id, ts)) WITHOUT ROWID`,
      );
      const fleet = sqliteServer.ingestKeys.slice(0, FLEET);
      const alone = sqliteServer.ingestKeys.slice(FLEET);
      const rates = await alternate(
        rows,
        warmUp,
        (slice) => httpIngest(sqliteServer, fleet, slice),
        sqliteLoop(raw, 'readings', BENCH_PARAMS),
        sqliteLoop(raw, 'narrow', BENCH_PARAMS),
        // Extra: the same rows from one more device, alone, request after request.
        (slice) => httpIngest(sqliteServer, alone, slice),
      );
      const narrow = rates.others[0] as number;
      const sequential = rates.others[1] as number;
      const columns = RAW_COLUMNS.length + 2;
      ctx.report(
        `SQLite HTTP ingest (${FLEET} devices at once, 5,000/request, with rollups)`,
        rates.http,
        'readings/s',
        `${percent(rates.http, rates.baseline)} % of raw loop into the readings schema (target ≥ 50 %); server in its own process`,
      );
      ctx.report(
        `SQLite raw better-sqlite3 loop, readings schema (${columns} columns)`,
        rates.baseline,
        'readings/s',
        `baseline: same rows, 1,000-row tx, WAL, table as migration 0003 creates it; ${ROUNDS} alternating rounds`,
      );
      ctx.report(
        `SQLite raw loop, ${BENCH_PARAMS.length}-column table (extra)`,
        narrow,
        'readings/s',
        `extra baseline, not the target's: same loop into a table of only the ${BENCH_PARAMS.length} parameters sent`,
      );
      ctx.report(
        `SQLite HTTP ingest vs the ${BENCH_PARAMS.length}-column loop (extra)`,
        (rates.http / narrow) * 100,
        '%',
        `extra ratio, not the target's: same HTTP figure over the ${BENCH_PARAMS.length}-column loop`,
      );
      ctx.report(
        'SQLite HTTP ingest, one device alone (extra)',
        sequential,
        'readings/s',
        `extra: one device, request after request (reading and writing cannot overlap); ${percent(sequential, rates.baseline)} % of the readings-schema loop`,
      );
    } finally {
      raw.close();
    }
  } finally {
    await sqliteServer.stop();
  }

  await rulesComparison(ctx, 'sqlite');

  await postgresVsCopy(ctx, rows, warmUp);
  await rulesComparison(ctx, 'postgres');
}

if (process.env.INGEST_BENCH_ROLE === 'server') {
  serverMain().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
