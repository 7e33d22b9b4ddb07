import { COUNTER_PARAMETERS, INSTANT_PARAMETERS, localDayStarts, startOfLocalDay } from '@phasewatch/shared';
import type SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import type { Storage } from '../../storage/database.js';
import { COUNTER_SUFFIXES, INSTANT_SUFFIXES, type RollupTable } from './readings.columns.js';
import {
  aggregate,
  fillLevelRow,
  floorTo,
  foldLevel,
  H1,
  type Level,
  levelFromArrays,
  levelFromRaw,
  levelFromRows,
  M5,
  M15,
  overlayLevel,
  type ParamSet,
  paramSetColumns,
  paramSetOf,
  presentParams,
  type RawColumns,
  type Row,
  sliceLevel,
} from './readings.rollup.js';

/** Readings of one device for one write, sorted by ts with unique timestamps. */
export interface DeviceBatch {
  deviceId: number;
  /** The owner's timezone: local-day rollups are built in it. */
  tz: string;
  readings: { ts: number; values: Record<string, number> }[];
}

type Value = number | string | null;

/** What a write reads before it computes: the stored rows around the batch, only the batch's parameters. */
interface Snapshot {
  raw: Row[];
  m5: Row[];
  m15: Row[];
}

interface Ranges {
  r5: [number, number];
  r15: [number, number];
  r60: [number, number];
  days: number[];
  /** m15 rows needed: the hours and the local days touched. */
  m15Read: [number, number];
}

/** Rows of one table to upsert, written by `fill` into a flat parameter array (key columns first). */
interface TableWrite {
  table: string;
  key: readonly string[];
  cols: readonly string[];
  count: number;
  /** COALESCE on conflict (raw rows: a later reading with fewer parameters keeps the others). */
  keepOld: boolean;
  fill(k: number, out: Value[], offset: number): void;
}

interface Plan {
  writes: TableWrite[];
  newest: { ts: number; rssi: number | null };
}

const q = (name: string) => `"${name}"`;

/** PostgreSQL array types of the non-double columns written by upserts. */
const PG_COLUMN_TYPES: Record<string, string> = {
  device_id: 'int4',
  ts: 'int8',
  bucket: 'int8',
  bucket_end: 'int8',
  n: 'int4',
  tz: 'text',
};

/** Bound values per multi-row SQLite statement: ~33 raw readings or ~9 rollup rows of a 10-parameter device. */
const SQLITE_PARAMS_PER_STATEMENT = 400;

function rangesOf(b: DeviceBatch): Ranges {
  const min = b.readings[0]?.ts ?? 0;
  const max = b.readings[b.readings.length - 1]?.ts ?? 0;
  const r5: [number, number] = [floorTo(min, M5), floorTo(max, M5) + M5];
  const r15: [number, number] = [floorTo(min, M15), floorTo(max, M15) + M15];
  const r60: [number, number] = [floorTo(min, H1), floorTo(max, H1) + H1];
  const days = localDayStarts(min, max + 1, b.tz);
  const endOfDays = endOfDay(max, b.tz);
  days.push(endOfDays);
  return { r5, r15, r60, days, m15Read: [Math.min(r60[0], days[0] as number), Math.max(r60[1], endOfDays)] };
}

function levelColumns(rows: readonly Row[]): string[] {
  const { instant, counter } = presentParams(rows, false);
  return [
    ...instant.flatMap((p) => INSTANT_SUFFIXES.map((s) => `${p}_${s}`)),
    ...counter.flatMap((p) => COUNTER_SUFFIXES.map((s) => `${p}_${s}`)),
  ];
}

/** The parameters a batch carries (one pass over the keys; batch readings hold only their own). */
function batchParams(b: DeviceBatch): ParamSet {
  const names = new Set<string>();
  for (const r of b.readings) for (const k in r.values) names.add(k);
  return paramSetOf(names);
}

/** The batch column-wise (NaN: the reading lacks the parameter). */
function batchColumns(b: DeviceBatch, names: readonly string[]): RawColumns {
  const len = b.readings.length;
  const ts = new Array<number>(len);
  const cols = names.map(() => new Array<number>(len));
  for (let i = 0; i < len; i++) {
    const r = b.readings[i] as DeviceBatch['readings'][number];
    ts[i] = r.ts;
    const v = r.values;
    for (let j = 0; j < names.length; j++) {
      const x = v[names[j] as string];
      (cols[j] as number[])[i] = x === undefined ? Number.NaN : x;
    }
  }
  return { ts, cols };
}

/** The batch's columns merged with the stored raw rows of its range (a stored value fills a parameter the new reading lacks). */
function mergedRaw(batch: RawColumns, names: readonly string[], stored: readonly Row[]): RawColumns {
  if (stored.length === 0) return batch;
  const { ts, cols } = batch;
  const len = ts.length;
  const out: RawColumns = { ts: [], cols: names.map(() => []) };
  let i = 0;
  let s = 0;
  while (i < len || s < stored.length) {
    const bt = i < len ? (ts[i] as number) : Number.POSITIVE_INFINITY;
    const row = stored[s];
    const st = row ? Number(row.ts) : Number.POSITIVE_INFINITY;
    out.ts.push(Math.min(bt, st));
    for (let j = 0; j < names.length; j++) {
      const fromBatch = bt <= st ? ((cols[j] as number[])[i] as number) : Number.NaN;
      const sv = bt >= st && row ? row[names[j] as string] : null;
      const fromStore = sv === null || sv === undefined ? Number.NaN : Number(sv);
      (out.cols[j] as number[]).push(Number.isNaN(fromBatch) ? fromStore : fromBatch);
    }
    if (bt <= st) i++;
    if (st <= bt) s++;
  }
  return out;
}

/**
 * The pure middle of a write: from the snapshot and the batch to every row to upsert. Only the batch's
 * parameters are computed: the rollup columns of other parameters cannot change (raw rows keep their
 * other values), so they are left as stored. Every bucket in the batch's span is recomputed from its
 * complete children (stored ones overlaid with fresh ones), so late, repeated and out-of-order readings
 * give exactly what a computation from raw rows gives; in the usual append case the snapshot is empty
 * and everything comes from the batch in memory.
 */
function planWrite(b: DeviceBatch, ps: ParamSet, r: Ranges, snap: Snapshot): Plan {
  const names = [...ps.instant, ...ps.counter];
  const batch = batchColumns(b, names);
  const raw = mergedRaw(batch, names, snap.raw);

  const m5 = levelFromRaw(raw, ps, M5);
  const m5All = overlayLevel(levelFromRows(snap.m5, ps), m5, ps);
  const m15 = foldLevel(sliceLevel(m5All, r.r15[0], r.r15[1], ps), ps, (t) => floorTo(t, M15));
  const m15All = overlayLevel(levelFromRows(snap.m15, ps), m15, ps);
  const h1 = foldLevel(sliceLevel(m15All, r.r60[0], r.r60[1], ps), ps, (t) => floorTo(t, H1));
  const edges = r.days;
  let e = 0;
  const day = foldLevel(sliceLevel(m15All, edges[0] as number, edges[edges.length - 1] as number, ps), ps, (t) => {
    while (t >= (edges[e + 1] as number)) e++;
    return edges[e] as number;
  });
  const dayEnd = new Map<number, number>();
  for (let i = 0; i + 1 < edges.length; i++) dayEnd.set(edges[i] as number, edges[i + 1] as number);

  const cols = paramSetColumns(ps);
  const levelWrite = (table: RollupTable, l: Level): TableWrite => ({
    table,
    key: ['device_id', 'bucket'],
    cols: table === 'rollup_day' ? ['n', 'bucket_end', 'tz', ...cols] : ['n', ...cols],
    count: l.bucket.length,
    keepOld: false,
    fill(k, out, offset) {
      const bucket = l.bucket[k] as number;
      out[offset] = b.deviceId;
      out[offset + 1] = bucket;
      out[offset + 2] = l.n[k] as number;
      let o = offset + 3;
      if (table === 'rollup_day') {
        out[o++] = dayEnd.get(bucket) ?? null;
        out[o++] = b.tz;
      }
      fillLevelRow(l, k, out, o);
    },
  });
  const newestReading = b.readings[b.readings.length - 1];
  return {
    writes: [
      {
        table: 'readings',
        key: ['device_id', 'ts'],
        cols: names,
        count: b.readings.length,
        keepOld: true,
        fill(k, out, offset) {
          out[offset] = b.deviceId;
          out[offset + 1] = batch.ts[k] as number;
          for (let j = 0; j < names.length; j++) {
            const x = (batch.cols[j] as number[])[k] as number;
            out[offset + 2 + j] = Number.isNaN(x) ? null : x;
          }
        },
      },
      levelWrite('rollup_5m', m5),
      levelWrite('rollup_15m', m15),
      levelWrite('rollup_1h', h1),
      levelWrite('rollup_day', day),
    ],
    newest: { ts: newestReading?.ts ?? 0, rssi: newestReading?.values.rssi ?? null },
  };
}

/** Local-day rows from 15-minute rows in order; `edges` are the day starts plus the end of the last day. */
function dayRows(m15: readonly Row[], edges: readonly number[], tz: string): Row[] {
  let i = 0;
  const rows = aggregate(
    m15,
    (row) => {
      while ((row.bucket as number) >= (edges[i + 1] as number)) i++;
      return edges[i] as number;
    },
    false,
  );
  for (const row of rows) {
    const k = edges.indexOf(row.bucket as number);
    row.bucket_end = edges[k + 1] ?? null;
    row.tz = tz;
  }
  return rows;
}

function upsertSql(
  table: string,
  key: readonly string[],
  cols: readonly string[],
  rowsCount: number,
  pgStyle: boolean,
  keepOld: boolean,
): string {
  const all = [...key, ...cols];
  let n = 0;
  const ph = () => (pgStyle ? `$${++n}` : '?');
  const values = Array.from({ length: rowsCount }, () => `(${all.map(ph).join(',')})`).join(',');
  const set = cols.map((c) => (keepOld ? `${q(c)} = COALESCE(excluded.${q(c)}, ${table}.${q(c)})` : `${q(c)} = excluded.${q(c)}`));
  return `INSERT INTO ${table} (${all.map(q).join(',')}) VALUES ${values} ON CONFLICT (${key.join(',')}) DO UPDATE SET ${set.join(',')}`;
}

const toPg = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/**
 * The only code touching `readings` and the rollup tables. Writes run in one transaction per call:
 * raw upsert, then each touched bucket of every level recomputed from the level below (so late,
 * repeated and out-of-order readings give the same rollups as a fresh computation). SQLite runs the
 * whole write synchronously on the raw better-sqlite3 handle with cached prepared statements; PostgreSQL
 * uses multi-row statements in a transaction holding a per-device advisory lock.
 */
export class ReadingsRepository {
  private readonly stmts = new Map<string, SqliteDatabase.Statement>();
  private readonly partitions = new Set<string>();
  /** Upsert statements by table and columns, each with a name so connections prepare it once. */
  private readonly pgSql = new Map<string, { name: string; text: string }>();
  private pgStatements = 0;
  /** Statements in raw (array) mode: kept apart because the mode sticks to a statement. */
  private readonly arrayStmts = new Map<string, SqliteDatabase.Statement>();

  constructor(private readonly storage: Storage) {}

  private get sqlite(): SqliteDatabase.Database | null {
    return this.storage.sqlite;
  }

  private stmt(sql: string): SqliteDatabase.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = (this.sqlite as SqliteDatabase.Database).prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  /** Runs a SELECT on either dialect (`?` placeholders). */
  async all(sql: string, params: Value[]): Promise<Row[]> {
    if (this.sqlite) return this.stmt(sql).all(...params) as Row[];
    const res = await (this.storage.pgPool as pg.Pool).query(toPg(sql), params);
    return res.rows as Row[];
  }

  /** Writes the batches in one transaction; nothing of it is visible or kept if any part fails. */
  async write(batches: readonly DeviceBatch[]): Promise<void> {
    const work = batches.filter((b) => b.readings.length > 0);
    if (work.length === 0) return;
    const sqlite = this.sqlite;
    if (sqlite) {
      sqlite.transaction(() => {
        for (const b of work) this.writeDeviceSqlite(b);
      })();
      return;
    }
    await this.ensurePartitions(work);
    await this.pgLockedTransaction(
      work.map((b) => b.deviceId),
      async (client) => {
        for (const b of work) await this.writeDevicePg(client, b);
      },
    );
  }

  /**
   * One PostgreSQL transaction holding the devices' advisory locks, taken in id order so two writers
   * never deadlock on each other's devices; rolled back on any error.
   */
  private async pgLockedTransaction(deviceIds: readonly number[], body: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    const client = await (this.storage.pgPool as pg.Pool).connect();
    try {
      await client.query('BEGIN');
      for (const id of [...new Set(deviceIds)].sort((a, b) => a - b)) {
        await client.query('SELECT pg_advisory_xact_lock(7341, $1)', [id]);
      }
      await body(client);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /** The snapshot reads of a write: only `ts`/`bucket`, `n` and the batch's parameters, over the batch's span. */
  private readSql(ps: ParamSet, r: Ranges): [string, readonly [number, number]][] {
    const names = [...ps.instant, ...ps.counter].map(q).join(', ');
    const cols = ['bucket', 'n', ...paramSetColumns(ps).map(q)].join(', ');
    return [
      [`SELECT ts, ${names} FROM readings WHERE device_id = ? AND ts >= ? AND ts < ? ORDER BY ts`, r.r5],
      [`SELECT ${cols} FROM rollup_5m WHERE device_id = ? AND bucket >= ? AND bucket < ? ORDER BY bucket`, r.r15],
      [`SELECT ${cols} FROM rollup_15m WHERE device_id = ? AND bucket >= ? AND bucket < ? ORDER BY bucket`, r.m15Read],
    ];
  }

  private writeDeviceSqlite(b: DeviceBatch): void {
    const ps = batchParams(b);
    const r = rangesOf(b);
    const [raw, m5, m15] = this.readSql(ps, r).map(([sql, range]) => this.stmt(sql).all(b.deviceId, ...range) as Row[]) as [
      Row[],
      Row[],
      Row[],
    ];
    const plan = planWrite(b, ps, r, { raw, m5, m15 });
    for (const w of plan.writes) this.upsertSqlite(w);
    this.stmt(
      'UPDATE devices SET last_rssi = COALESCE(?, last_rssi), last_seen = ? WHERE id = ? AND (last_seen IS NULL OR last_seen <= ?)',
    ).run(plan.newest.rssi, plan.newest.ts, b.deviceId, plan.newest.ts);
  }

  /**
   * Multi-row upserts of about SQLITE_PARAMS_PER_STATEMENT bound values each (a statement per row
   * costs twice as much per raw reading), the rest one row at a time; one argument array is reused
   * per shape because binding copies the values.
   */
  private upsertSqlite(w: TableWrite): void {
    if (w.count === 0) return;
    const width = w.key.length + w.cols.length;
    const per = Math.max(1, Math.floor(SQLITE_PARAMS_PER_STATEMENT / width));
    let k = 0;
    if (w.count >= per && per > 1) {
      const many = this.stmt(upsertSql(w.table, w.key, w.cols, per, false, w.keepOld));
      const args = new Array<Value>(width * per);
      for (; k + per <= w.count; k += per) {
        for (let j = 0; j < per; j++) w.fill(k + j, args, j * width);
        many.run(args);
      }
    }
    if (k === w.count) return;
    const one = this.stmt(upsertSql(w.table, w.key, w.cols, 1, false, w.keepOld));
    const args = new Array<Value>(width);
    for (; k < w.count; k++) {
      w.fill(k, args, 0);
      one.run(args);
    }
  }

  private async writeDevicePg(client: pg.PoolClient, b: DeviceBatch): Promise<void> {
    const ps = batchParams(b);
    const r = rangesOf(b);
    // One client runs one query at a time: read the three levels in turn.
    const snap: Row[][] = [];
    for (const [sql, range] of this.readSql(ps, r)) snap.push((await client.query(toPg(sql), [b.deviceId, ...range])).rows as Row[]);
    const plan = planWrite(b, ps, r, { raw: snap[0] ?? [], m5: snap[1] ?? [], m15: snap[2] ?? [] });
    for (const w of plan.writes) await this.pgUpsert(client, w);
    await client.query(
      'UPDATE devices SET last_rssi = COALESCE($1, last_rssi), last_seen = $2 WHERE id = $3 AND (last_seen IS NULL OR last_seen <= $2)',
      [plan.newest.rssi, plan.newest.ts, b.deviceId],
    );
  }

  /**
   * One upsert per table: every column travels as one array parameter and `unnest` turns them back
   * into rows. A VALUES list of 5,000 readings is 60,000 placeholders PostgreSQL must parse and plan
   * each time; the array form is one small statement, prepared once per connection and shape.
   */
  private async pgUpsert(client: pg.PoolClient, w: TableWrite): Promise<void> {
    if (w.count === 0) return;
    const names = [...w.key, ...w.cols];
    const width = names.length;
    const columns = names.map(() => new Array<Value>(w.count));
    const row = new Array<Value>(width);
    for (let k = 0; k < w.count; k++) {
      w.fill(k, row, 0);
      for (let j = 0; j < width; j++) (columns[j] as Value[])[k] = row[j] as Value;
    }
    const shape = `${w.table}|${w.cols.join(',')}|${w.keepOld}`;
    let stmt = this.pgSql.get(shape);
    if (!stmt) {
      const types = names.map((c) => PG_COLUMN_TYPES[c] ?? 'float8');
      const set = w.cols.map((c) =>
        w.keepOld ? `${q(c)} = COALESCE(excluded.${q(c)}, ${w.table}.${q(c)})` : `${q(c)} = excluded.${q(c)}`,
      );
      const text = `INSERT INTO ${w.table} (${names.map(q).join(',')}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(',')}) ON CONFLICT (${w.key.join(',')}) DO UPDATE SET ${set.join(',')}`;
      stmt = { name: `pw_upsert_${++this.pgStatements}`, text };
      this.pgSql.set(shape, stmt);
    }
    await client.query({ name: stmt.name, text: stmt.text, values: columns });
  }

  /** Rows of `rows` (stored rollup rows) upserted as they are: the rebuild of local days. */
  private rowsWrite(table: RollupTable, deviceId: number, cols: readonly string[], values: Value[][]): TableWrite {
    return {
      table,
      key: ['device_id', 'bucket'],
      cols: cols.slice(1),
      count: values.length,
      keepOld: false,
      fill(k, out, offset) {
        const v = values[k] as Value[];
        out[offset] = deviceId;
        for (let j = 0; j < v.length; j++) out[offset + 1 + j] = v[j] as Value;
      },
    };
  }

  /** Creates the monthly partitions (UTC months) the timestamps fall in, once per process. */
  private async ensurePartitions(batches: readonly DeviceBatch[]): Promise<void> {
    const months = new Set<string>();
    // Batches are sorted: every month from the first reading's to the last's (a span is a few months at most).
    for (const b of batches) {
      const first = new Date(b.readings[0]?.ts ?? 0);
      const last = b.readings[b.readings.length - 1]?.ts ?? 0;
      for (let y = first.getUTCFullYear(), m = first.getUTCMonth(); Date.UTC(y, m, 1) <= last; m++) {
        const d = new Date(Date.UTC(y, m, 1));
        months.add(`${d.getUTCFullYear()}-${d.getUTCMonth()}`);
      }
    }
    const pool = this.storage.pgPool as pg.Pool;
    for (const m of months) {
      if (this.partitions.has(m)) continue;
      const [y, mo] = m.split('-').map(Number) as [number, number];
      const from = Date.UTC(y, mo, 1);
      const to = Date.UTC(y, mo + 1, 1);
      const name = `readings_p${y}${String(mo + 1).padStart(2, '0')}`;
      try {
        await pool.query(`CREATE TABLE IF NOT EXISTS ${name} PARTITION OF readings FOR VALUES FROM (${from}) TO (${to})`);
      } catch (err) {
        // 42P07: created concurrently. Anything else (rows of that month already in the default
        // partition) leaves the month in the default partition, which still works.
        if ((err as { code?: string }).code !== '42P07') {
          this.partitions.add(m);
          continue;
        }
      }
      this.partitions.add(m);
    }
  }

  /** Raw rows of a device in [from, to) with the given parameters. */
  raw(deviceId: number, from: number, to: number, params: readonly string[]): Promise<Row[]> {
    const cols = params.map(q).join(', ');
    return this.all(`SELECT ts${cols ? `, ${cols}` : ''} FROM readings WHERE device_id = ? AND ts >= ? AND ts < ? ORDER BY ts`, [
      deviceId,
      from,
      to,
    ]);
  }

  /**
   * Rollup rows of a level in [from, to) for a parameter set, column-wise. Rows come back as arrays
   * (better-sqlite3 raw mode, pg `rowMode: 'array'`): a year of 15-minute rows as objects with ~40 keys
   * each cost over a second in object creation and GC; as arrays a fraction of that.
   */
  async levelOf(table: RollupTable, deviceId: number, from: number, to: number, ps: ParamSet, tz?: string): Promise<Level> {
    const cols = paramSetColumns(ps).map(q);
    const isDay = table === 'rollup_day';
    const sql = `SELECT bucket, n${cols.length ? `, ${cols.join(', ')}` : ''} FROM ${table} WHERE device_id = ? AND bucket >= ? AND bucket < ?${isDay ? ' AND tz = ?' : ''} ORDER BY bucket`;
    const params: Value[] = isDay ? [deviceId, from, to, tz ?? ''] : [deviceId, from, to];
    let rows: Value[][];
    const sqlite = this.sqlite;
    if (sqlite) {
      let s = this.arrayStmts.get(sql);
      if (!s) {
        s = sqlite.prepare(sql).raw(true);
        this.arrayStmts.set(sql, s);
      }
      rows = s.all(...params) as Value[][];
    } else {
      rows = (await (this.storage.pgPool as pg.Pool).query<Value[]>({ text: toPg(sql), values: params, rowMode: 'array' })).rows;
    }
    return levelFromArrays(rows, ps);
  }

  /** For each counter, its last reading before `before` (from the 1-hour level), or null. */
  async lastCountersBefore(deviceId: number, before: number, counters: readonly string[]): Promise<Record<string, number | null>> {
    const out: Record<string, number | null> = {};
    for (const c of counters) {
      const rows = await this.all(
        `SELECT ${q(`${c}_last`)} AS v FROM rollup_1h WHERE device_id = ? AND bucket < ? AND ${q(`${c}_last`)} IS NOT NULL ORDER BY bucket DESC LIMIT 1`,
        [deviceId, floorTo(before, H1)],
      );
      // The hour containing `before` may hold readings before it: take them from the 5-minute level.
      const inHour = await this.all(
        `SELECT ${q(`${c}_last`)} AS v FROM rollup_5m WHERE device_id = ? AND bucket >= ? AND bucket < ? AND ${q(`${c}_last`)} IS NOT NULL ORDER BY bucket DESC LIMIT 1`,
        [deviceId, floorTo(before, H1), before],
      );
      const v = inHour[0]?.v ?? rows[0]?.v;
      out[c] = v === undefined || v === null ? null : Number(v);
    }
    return out;
  }

  /** For each counter, its last raw reading before `before`, or null (the raw-rows twin of `lastCountersBefore`). */
  async lastRawCountersBefore(deviceId: number, before: number, counters: readonly string[]): Promise<Record<string, number | null>> {
    const out: Record<string, number | null> = {};
    for (const c of counters) {
      const rows = await this.all(
        `SELECT ${q(c)} AS v FROM readings WHERE device_id = ? AND ts < ? AND ${q(c)} IS NOT NULL ORDER BY ts DESC LIMIT 1`,
        [deviceId, before],
      );
      const v = rows[0]?.v;
      out[c] = v === undefined || v === null ? null : Number(v);
    }
    return out;
  }

  /**
   * Parameters the device has any rollup data for in [from, to) at a level; `among` limits the check to
   * those parameters (the energy source asks about 4 counters, not all ~60 columns).
   */
  async presentIn(
    table: RollupTable,
    deviceId: number,
    from: number,
    to: number,
    among: readonly string[] = [...INSTANT_PARAMETERS, ...COUNTER_PARAMETERS],
  ): Promise<string[]> {
    const checks = among.map((p) =>
      COUNTER_PARAMETERS.includes(p)
        ? `MAX(CASE WHEN ${q(`${p}_first`)} IS NOT NULL THEN 1 ELSE 0 END) AS ${q(p)}`
        : `MAX(CASE WHEN ${q(`${p}_n`)} IS NOT NULL THEN 1 ELSE 0 END) AS ${q(p)}`,
    );
    const rows = await this.all(`SELECT ${checks.join(', ')} FROM ${table} WHERE device_id = ? AND bucket >= ? AND bucket < ?`, [
      deviceId,
      from,
      to,
    ]);
    const row = rows[0] ?? {};
    return among.filter((p) => Number(row[p]) === 1);
  }

  /** True when local-day rows of another timezone exist (the owner changed zone): they must be rebuilt. */
  async dayLevelStale(deviceId: number, tz: string): Promise<boolean> {
    const rows = await this.all('SELECT 1 AS x FROM rollup_day WHERE device_id = ? AND tz <> ? LIMIT 1', [deviceId, tz]);
    return rows.length > 0;
  }

  /** Rebuilds every local day of a device in `tz` from its 15-minute rollups. */
  async rebuildDays(deviceId: number, tz: string): Promise<void> {
    const m15 = await this.all('SELECT * FROM rollup_15m WHERE device_id = ? ORDER BY bucket', [deviceId]);
    const first = m15[0]?.bucket as number | undefined;
    const last = m15[m15.length - 1]?.bucket as number | undefined;
    const rows =
      first === undefined || last === undefined ? [] : dayRows(m15, [...localDayStarts(first, last + 1, tz), endOfDay(last, tz)], tz);
    const cols = ['bucket', 'n', 'bucket_end', 'tz', ...levelColumns(rows)];
    const values = rows.map((row) => cols.map((c) => row[c] ?? null));
    const sqlite = this.sqlite;
    if (sqlite) {
      sqlite.transaction(() => {
        this.stmt('DELETE FROM rollup_day WHERE device_id = ?').run(deviceId);
        const s = sqlite.prepare(upsertSql('rollup_day', ['device_id', 'bucket'], cols.slice(1), 1, false, false));
        for (const v of values) s.run(deviceId, ...v);
      })();
      return;
    }
    await this.pgLockedTransaction([deviceId], async (client) => {
      await client.query('DELETE FROM rollup_day WHERE device_id = $1', [deviceId]);
      await this.pgUpsert(client, this.rowsWrite('rollup_day', deviceId, cols, values));
    });
  }

  /** Deletes a device with its readings and rollups in one transaction. */
  async deleteDevice(deviceId: number): Promise<void> {
    const tables = ['readings', 'rollup_5m', 'rollup_15m', 'rollup_1h', 'rollup_day', 'devices'];
    const sqlite = this.sqlite;
    if (sqlite) {
      sqlite.transaction(() => {
        for (const t of tables) this.stmt(`DELETE FROM ${t} WHERE ${t === 'devices' ? 'id' : 'device_id'} = ?`).run(deviceId);
      })();
      return;
    }
    await this.pgLockedTransaction([deviceId], async (client) => {
      for (const t of tables) await client.query(`DELETE FROM ${t} WHERE ${t === 'devices' ? 'id' : 'device_id'} = $1`, [deviceId]);
    });
  }

  /**
   * Raw retention: drops raw rows older than `cutoff` (rollups stay). PostgreSQL drops whole monthly
   * partitions that end before the cutoff, then deletes the rest row-wise.
   */
  async deleteRawBefore(cutoff: number, deviceIds: readonly number[]): Promise<void> {
    if (!this.sqlite) {
      const pool = this.storage.pgPool as pg.Pool;
      const parts = await pool.query<{ name: string }>(
        "SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'readings' AND c.relname ~ '^readings_p[0-9]{6}$'",
      );
      for (const { name } of parts.rows) {
        const y = Number(name.slice(10, 14));
        const m = Number(name.slice(14, 16));
        if (Date.UTC(y, m, 1) <= cutoff) {
          await pool.query(`DROP TABLE IF EXISTS ${name}`);
          this.partitions.delete(`${y}-${m - 1}`);
        }
      }
    }
    for (const id of deviceIds) {
      if (this.sqlite) this.stmt('DELETE FROM readings WHERE device_id = ? AND ts < ?').run(id, cutoff);
      else await (this.storage.pgPool as pg.Pool).query('DELETE FROM readings WHERE device_id = $1 AND ts < $2', [id, cutoff]);
    }
  }
}

/** Start of the local day after the one containing `ts` (local days last 23 to 25 hours). */
function endOfDay(ts: number, tz: string): number {
  return startOfLocalDay(startOfLocalDay(ts, tz) + 26 * H1, tz);
}
