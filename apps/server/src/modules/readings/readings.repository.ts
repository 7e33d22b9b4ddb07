import { BoundedMap, COUNTER_PARAMETERS, INSTANT_PARAMETERS, localDayStarts, startOfLocalDay } from '@phasewatch/shared';
import type SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import type { Storage } from '../../storage/database.js';
import {
  blobHasValueIn,
  COUNT_PARAM,
  decodeBlob,
  lastCounterIn,
  levelFromPacked,
  PACKED_WIDTHS,
  type Packed,
  type PackedLevel,
  type PackedRow,
  type PackedWrite,
  packedOf,
  packedWrites,
  SLOTS,
  spanOf,
} from './readings.packed.js';
import {
  emptyLevel,
  fillLevelRow,
  floorTo,
  foldLevel,
  H1,
  type Level,
  levelFromArrays,
  levelFromRaw,
  M5,
  M15,
  overlayLevel,
  type ParamSet,
  paramSetColumns,
  paramSetOf,
  type RawColumns,
  type Row,
  sliceLevel,
} from './readings.rollup.js';
import { WriterThread } from './readings.writer-thread.js';

/** Readings of one device for one write, sorted by ts with unique timestamps. */
export interface DeviceBatch {
  deviceId: number;
  /** The owner's timezone: local-day rollups are built in it. */
  tz: string;
  readings: { ts: number; values: Record<string, number> }[];
}

/**
 * A device batch column-wise, as writes use it: `names` are its parameters (instantaneous ones first,
 * catalogue order, then counters), `cols[j][i]` parameter j at `ts[i]` (NaN: the reading lacks it).
 * Typed arrays, so a batch moves to the writer thread without a copy.
 */
export interface ColumnarBatch {
  deviceId: number;
  tz: string;
  names: string[];
  ts: Float64Array;
  cols: Float64Array[];
}

type Value = number | string | Buffer | null;

/** What a write reads before it computes: the stored rows around the batch, only the batch's parameters. */
interface Snapshot {
  raw: Row[];
  m5: Packed;
  m15: Packed;
  h1: Packed;
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
  width: 'int4',
  param: 'text',
  span: 'int8',
  data: 'bytea',
};

/** Statements kept prepared (and PostgreSQL statement names handed out) per repository. */
const STATEMENT_CACHE_SIZE = 256;

/** Bound values per multi-row SQLite statement: ~33 raw readings of a 10-parameter device, 80 packed rollup rows. */
const SQLITE_PARAMS_PER_STATEMENT = 400;

/** Recently used local days per zone, [start, end) (Intl calls cost ~10 µs each; a live write needs a few). */
const recentDays = new BoundedMap<string, [number, number][]>(1024);

/** Start and end of the local day holding `ts` in `tz`. */
function localDayOf(ts: number, tz: string): [number, number] {
  let days = recentDays.get(tz);
  if (!days) {
    days = [];
    recentDays.set(tz, days);
  }
  for (const d of days) if (ts >= d[0] && ts < d[1]) return d;
  const start = startOfLocalDay(ts, tz);
  const day: [number, number] = [start, endOfDay(start, tz)];
  days.unshift(day);
  if (days.length > 16) days.pop();
  return day;
}

function rangesOf(b: ColumnarBatch): Ranges {
  const min = b.ts[0] ?? 0;
  const max = b.ts[b.ts.length - 1] ?? 0;
  const r5: [number, number] = [floorTo(min, M5), floorTo(max, M5) + M5];
  const r15: [number, number] = [floorTo(min, M15), floorTo(max, M15) + M15];
  const r60: [number, number] = [floorTo(min, H1), floorTo(max, H1) + H1];
  // The local days the batch touches, and the end of the last one.
  const days: number[] = [];
  let day = localDayOf(min, b.tz);
  for (;;) {
    days.push(day[0]);
    if (max < day[1]) break;
    day = localDayOf(day[1], b.tz);
  }
  const endOfDays = day[1];
  days.push(endOfDays);
  return { r5, r15, r60, days, m15Read: [Math.min(r60[0], days[0] as number), Math.max(r60[1], endOfDays)] };
}

/** A batch column-wise (one pass for its parameter names, one to fill the columns). */
export function columnarBatch(b: DeviceBatch): ColumnarBatch {
  const seen = new Set<string>();
  for (const r of b.readings) for (const k in r.values) seen.add(k);
  const ps = paramSetOf(seen);
  const names = [...ps.instant, ...ps.counter];
  const len = b.readings.length;
  const ts = new Float64Array(len);
  const cols = names.map(() => new Float64Array(len));
  for (let i = 0; i < len; i++) {
    const r = b.readings[i] as DeviceBatch['readings'][number];
    ts[i] = r.ts;
    const v = r.values;
    for (let j = 0; j < names.length; j++) {
      const x = v[names[j] as string];
      (cols[j] as Float64Array)[i] = x === undefined ? Number.NaN : x;
    }
  }
  return { deviceId: b.deviceId, tz: b.tz, names, ts, cols };
}

/**
 * The batch's columns merged with the stored raw rows of its range (a stored value fills a parameter the
 * new reading lacks). Usually the stored rows are a few readings of the first bucket, before the batch.
 */
function mergedRaw(batch: RawColumns, names: readonly string[], stored: readonly Row[]): RawColumns {
  if (stored.length === 0) return batch;
  const { ts, cols } = batch;
  const len = ts.length;
  const storedTs = stored.map((r) => Number(r.ts));
  // Merged length: every batch timestamp plus the stored ones it does not repeat.
  let size = len;
  for (let i = 0, s = 0; s < storedTs.length; s++) {
    const st = storedTs[s] as number;
    while (i < len && (ts[i] as number) < st) i++;
    if (i >= len || ts[i] !== st) size++;
  }
  const outTs = new Float64Array(size);
  const outCols = names.map(() => new Float64Array(size));
  let i = 0;
  let s = 0;
  for (let k = 0; k < size; k++) {
    const bt = i < len ? (ts[i] as number) : Number.POSITIVE_INFINITY;
    const st = s < storedTs.length ? (storedTs[s] as number) : Number.POSITIVE_INFINITY;
    const row = stored[s] as Row;
    outTs[k] = Math.min(bt, st);
    for (let j = 0; j < names.length; j++) {
      const fromBatch = bt <= st ? ((cols[j] as ArrayLike<number>)[i] as number) : Number.NaN;
      let v = fromBatch;
      if (Number.isNaN(v) && st <= bt) {
        const sv = row[names[j] as string];
        v = sv === null || sv === undefined ? Number.NaN : Number(sv);
      }
      (outCols[j] as Float64Array)[k] = v;
    }
    if (bt <= st) i++;
    if (st <= bt) s++;
  }
  return { ts: outTs, cols: outCols };
}

/**
 * The pure middle of a write: from the snapshot and the batch to every row to upsert. Only the batch's
 * parameters are computed: the rollup columns of other parameters cannot change (raw rows keep their
 * other values), so they are left as stored. Every bucket in the batch's span is recomputed from its
 * complete children (stored ones overlaid with fresh ones), so late, repeated and out-of-order readings
 * give exactly what a computation from raw rows gives; in the usual append case the snapshot is empty
 * and everything comes from the batch in memory.
 */
function planWrite(b: ColumnarBatch, ps: ParamSet, r: Ranges, snap: Snapshot): Plan {
  const names = b.names;
  const batch: RawColumns = { ts: b.ts, cols: b.cols };
  const raw = mergedRaw(batch, names, snap.raw);

  const m5 = levelFromRaw(raw, ps, M5);
  const m5All = overlayLevel(levelFromPacked(snap.m5, ps, M5, r.r15[0], r.r15[1]), m5, ps);
  const m15 = foldLevel(sliceLevel(m5All, r.r15[0], r.r15[1], ps), ps, (t) => floorTo(t, M15));
  const m15All = overlayLevel(levelFromPacked(snap.m15, ps, M15, r.m15Read[0], r.m15Read[1]), m15, ps);
  const h1 = foldLevel(sliceLevel(m15All, r.r60[0], r.r60[1], ps), ps, (t) => floorTo(t, H1));
  const day = daysOf(m15All, r.days, ps);
  const packed = [...packedWrites(m5, ps, M5, snap.m5), ...packedWrites(m15, ps, M15, snap.m15), ...packedWrites(h1, ps, H1, snap.h1)];
  const last = b.ts.length - 1;
  const rssi = b.names.indexOf('rssi');
  const newestRssi = rssi < 0 ? Number.NaN : ((b.cols[rssi] as Float64Array)[last] as number);
  return {
    writes: [
      {
        table: 'readings',
        key: ['device_id', 'ts'],
        cols: names,
        count: b.ts.length,
        keepOld: true,
        fill(k, out, offset) {
          out[offset] = b.deviceId;
          out[offset + 1] = batch.ts[k] as number;
          for (let j = 0; j < names.length; j++) {
            const x = (batch.cols[j] as ArrayLike<number>)[k] as number;
            out[offset + 2 + j] = Number.isNaN(x) ? null : x;
          }
        },
      },
      packedTableWrite(b.deviceId, packed),
      dayTableWrite(b.deviceId, b.tz, day, r.days, ps),
    ],
    newest: { ts: b.ts[last] ?? 0, rssi: Number.isNaN(newestRssi) ? null : newestRssi },
  };
}

/** 15-minute buckets folded into the local days whose starts are `edges` (plus the end of the last day). */
function daysOf(m15: Level, edges: readonly number[], ps: ParamSet): Level {
  if (edges.length < 2) return emptyLevel(ps);
  let e = 0;
  return foldLevel(sliceLevel(m15, edges[0] as number, edges[edges.length - 1] as number, ps), ps, (t) => {
    while (t >= (edges[e + 1] as number)) e++;
    return edges[e] as number;
  });
}

/** Upserts of local-day rows (each with its end and the zone it was built in). */
function dayTableWrite(deviceId: number, tz: string, day: Level, edges: readonly number[], ps: ParamSet): TableWrite {
  const dayEnd = new Map<number, number>();
  for (let i = 0; i + 1 < edges.length; i++) dayEnd.set(edges[i] as number, edges[i + 1] as number);
  return {
    table: 'rollup_day',
    key: ['device_id', 'bucket'],
    cols: ['n', 'bucket_end', 'tz', ...paramSetColumns(ps)],
    count: day.bucket.length,
    keepOld: false,
    fill(k, out, offset) {
      const bucket = day.bucket[k] as number;
      out[offset] = deviceId;
      out[offset + 1] = bucket;
      out[offset + 2] = day.n[k] as number;
      out[offset + 3] = dayEnd.get(bucket) ?? null;
      out[offset + 4] = tz;
      fillLevelRow(day, k, out, offset + 5);
    },
  };
}

/** Upserts of packed rows (see readings.packed.ts). */
function packedTableWrite(deviceId: number, rows: readonly PackedWrite[]): TableWrite {
  return {
    table: 'rollup_packed',
    key: ['device_id', 'width', 'param', 'span'],
    cols: ['data'],
    count: rows.length,
    keepOld: false,
    fill(k, out, offset) {
      const w = rows[k] as PackedWrite;
      out[offset] = deviceId;
      out[offset + 1] = w.width;
      out[offset + 2] = w.param;
      out[offset + 3] = w.span;
      out[offset + 4] = w.data;
    },
  };
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
  // Keyed by statement text, which varies with a batch's parameter set: bounded (see BoundedMap).
  private readonly stmts = new BoundedMap<string, SqliteDatabase.Statement>(STATEMENT_CACHE_SIZE);
  private readonly partitions = new Set<string>();
  /** Upsert statements by table and columns, each with a name so connections prepare it once. */
  private readonly pgSql = new BoundedMap<string, { name: string; text: string }>(STATEMENT_CACHE_SIZE);
  private pgStatements = 0;
  /** Statements in raw (array) mode: kept apart because the mode sticks to a statement. */
  private readonly arrayStmts = new BoundedMap<string, SqliteDatabase.Statement>(STATEMENT_CACHE_SIZE);

  /** SQLite with `writerThread`: the writes run on a worker thread (see readings.writer-thread.ts). */
  private readonly thread: WriterThread | null;

  constructor(
    private readonly storage: Storage,
    opts: { writerThread?: boolean } = {},
  ) {
    this.thread = opts.writerThread && storage.sqlite ? new WriterThread(storage.location) : null;
  }

  /** Stops the writer thread (after the writes already made); the storage itself is closed by its owner. */
  async close(): Promise<void> {
    await this.thread?.close();
  }

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
    const work = batches.filter((b) => b.readings.length > 0).map(columnarBatch);
    if (work.length === 0) return;
    if (this.thread) {
      const transfer = work.flatMap((b) => [b.ts.buffer, ...b.cols.map((c) => c.buffer)]) as ArrayBuffer[];
      return this.thread.call('write', [work], transfer);
    }
    return this.writeColumnar(work);
  }

  /** `write` of batches already column-wise (the writer thread's entry). */
  async writeColumnar(work: readonly ColumnarBatch[]): Promise<void> {
    const sqlite = this.sqlite;
    if (sqlite) {
      // IMMEDIATE: the write lock is taken (or waited for) up front. A deferred transaction that reads
      // first would fail with SQLITE_BUSY_SNAPSHOT, without waiting, if the app's connection committed
      // in between (the writer thread and the main connection share the file).
      sqlite
        .transaction(() => {
          for (const b of work) this.writeDeviceSqlite(b);
        })
        .immediate();
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

  /**
   * The snapshot reads of a write, as SQL and parameters: raw rows of the batch's 5-minute buckets, and
   * the stored spans of each packed level the write recomputes from or rewrites (5-minute spans
   * around the touched quarter-hours, 15-minute spans of the touched hours and local days, hour spans),
   * each only for the batch's parameters and the reading counts.
   */
  private snapshotReads(deviceId: number, ps: ParamSet, r: Ranges): { raw: [string, Value[]]; packed: [string, Value[]][] } {
    const names = [...ps.instant, ...ps.counter];
    const params = [...names, COUNT_PARAM];
    const inList = params.map(() => '?').join(', ');
    const packedSql = `SELECT param, span, data FROM rollup_packed WHERE device_id = ? AND width = ? AND param IN (${inList}) AND span >= ? AND span < ?`;
    const level = (width: number, [lo, hi]: readonly [number, number]): [string, Value[]] => [
      packedSql,
      [deviceId, width, ...params, spanOf(lo, width), hi],
    ];
    return {
      raw: [
        `SELECT ts, ${names.map(q).join(', ')} FROM readings WHERE device_id = ? AND ts >= ? AND ts < ? ORDER BY ts`,
        [deviceId, ...r.r5],
      ],
      packed: [level(M5, r.r15), level(M15, r.m15Read), level(H1, r.r60)],
    };
  }

  private writeDeviceSqlite(b: ColumnarBatch): void {
    const ps = paramSetOf(new Set(b.names));
    const r = rangesOf(b);
    const reads = this.snapshotReads(b.deviceId, ps, r);
    const raw = this.stmt(reads.raw[0]).all(...reads.raw[1]) as Row[];
    const [m5, m15, h1] = reads.packed.map(([sql, args]) => packedOf(this.stmt(sql).all(...args) as PackedRow[])) as [
      Packed,
      Packed,
      Packed,
    ];
    const plan = planWrite(b, ps, r, { raw, m5, m15, h1 });
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

  private async writeDevicePg(client: pg.PoolClient, b: ColumnarBatch): Promise<void> {
    const ps = paramSetOf(new Set(b.names));
    const r = rangesOf(b);
    const reads = this.snapshotReads(b.deviceId, ps, r);
    // One client runs one query at a time: read the raw rows and the three levels in turn.
    const raw = (await client.query(toPg(reads.raw[0]), reads.raw[1])).rows as Row[];
    const levels: Packed[] = [];
    for (const [sql, args] of reads.packed) levels.push(packedOf((await client.query(toPg(sql), args)).rows as PackedRow[]));
    const [m5, m15, h1] = levels as [Packed, Packed, Packed];
    const plan = planWrite(b, ps, r, { raw, m5, m15, h1 });
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
      // Each named statement is prepared once per pooled connection and kept there: only so many
      // shapes get a name, later ones run unnamed (parsed per call).
      stmt = { name: this.pgStatements < STATEMENT_CACHE_SIZE ? `pw_upsert_${++this.pgStatements}` : '', text };
      this.pgSql.set(shape, stmt);
    }
    await client.query(stmt.name ? { name: stmt.name, text: stmt.text, values: columns } : { text: stmt.text, values: columns });
  }

  /** Creates the monthly partitions (UTC months) the timestamps fall in, once per process. */
  private async ensurePartitions(batches: readonly ColumnarBatch[]): Promise<void> {
    const months = new Set<string>();
    // Batches are sorted: every month from the first reading's to the last's (a span is a few months at most).
    for (const b of batches) {
      const first = new Date(b.ts[0] ?? 0);
      const last = b.ts[b.ts.length - 1] ?? 0;
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
   * A level's buckets in [from, to) for a parameter set, column-wise. The UTC levels come from packed
   * rows (a year of 15-minute data for one parameter: 365 blobs). Local days are wide rows, read as
   * arrays (better-sqlite3 raw mode, pg `rowMode: 'array'`) rather than objects with ~40 keys each.
   */
  async levelOf(level: PackedLevel | 'day', deviceId: number, from: number, to: number, ps: ParamSet, tz?: string): Promise<Level> {
    if (level !== 'day') {
      const width = PACKED_WIDTHS[level];
      const params = [...ps.instant, ...ps.counter, COUNT_PARAM];
      const sql = `SELECT param, span, data FROM rollup_packed WHERE device_id = ? AND width = ? AND param IN (${params.map(() => '?').join(', ')}) AND span >= ? AND span < ?`;
      const rows = await this.allArrays(sql, [deviceId, width, ...params, spanOf(from, width), to]);
      return levelFromPacked(packedOf(rows.map(([param, span, data]) => ({ param, span, data }) as PackedRow)), ps, width, from, to);
    }
    const cols = paramSetColumns(ps).map(q);
    const sql = `SELECT bucket, n${cols.length ? `, ${cols.join(', ')}` : ''} FROM rollup_day WHERE device_id = ? AND bucket >= ? AND bucket < ? AND tz = ? ORDER BY bucket`;
    return levelFromArrays(await this.allArrays(sql, [deviceId, from, to, tz ?? '']), ps);
  }

  /** A SELECT's rows as arrays (better-sqlite3 raw mode, pg `rowMode: 'array'`): no object per row. */
  private async allArrays(sql: string, params: Value[]): Promise<Value[][]> {
    const sqlite = this.sqlite;
    if (!sqlite) {
      return (await (this.storage.pgPool as pg.Pool).query<Value[]>({ text: toPg(sql), values: params, rowMode: 'array' })).rows;
    }
    let s = this.arrayStmts.get(sql);
    if (!s) {
      s = sqlite.prepare(sql).raw(true);
      this.arrayStmts.set(sql, s);
    }
    return s.all(...params) as Value[][];
  }

  /**
   * For each counter, its last reading before `before`, or null: from the 5-minute level within the
   * hour holding `before`, else from the last hour before it that has one.
   */
  async lastCountersBefore(deviceId: number, before: number, counters: readonly string[]): Promise<Record<string, number | null>> {
    const out: Record<string, number | null> = {};
    const hour = floorTo(before, H1);
    const blobSql = 'SELECT span, data FROM rollup_packed WHERE device_id = ? AND width = ? AND param = ? AND span = ?';
    const olderSql =
      'SELECT span, data FROM rollup_packed WHERE device_id = ? AND width = ? AND param = ? AND span < ? ORDER BY span DESC LIMIT 8';
    for (const c of counters) {
      const span5 = spanOf(hour, M5);
      const [m5] = await this.all(blobSql, [deviceId, M5, c, span5]);
      let v = m5 ? lastCounterIn(decodeBlob(m5.data as unknown as Uint8Array), span5, M5, before, hour) : null;
      // Stored blobs hold at least one reading, so this rarely reads past the first span.
      let below = spanOf(hour, H1) + SLOTS * H1;
      while (v === null) {
        const rows = await this.all(olderSql, [deviceId, H1, c, below]);
        for (const r of rows) {
          below = Number(r.span);
          v = lastCounterIn(decodeBlob(r.data as unknown as Uint8Array), below, H1, hour);
          if (v !== null) break;
        }
        if (rows.length < 8) break;
      }
      out[c] = v;
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
   * those parameters (the energy source asks about 4 counters, not all ~60).
   */
  async presentIn(
    level: PackedLevel | 'day',
    deviceId: number,
    from: number,
    to: number,
    among: readonly string[] = [...INSTANT_PARAMETERS, ...COUNTER_PARAMETERS],
  ): Promise<string[]> {
    if (among.length === 0) return [];
    const inList = among.map(() => '?').join(', ');
    if (level === 'day') {
      const checks = among.map((p) =>
        COUNTER_PARAMETERS.includes(p)
          ? `MAX(CASE WHEN ${q(`${p}_first`)} IS NOT NULL THEN 1 ELSE 0 END) AS ${q(p)}`
          : `MAX(CASE WHEN ${q(`${p}_n`)} IS NOT NULL THEN 1 ELSE 0 END) AS ${q(p)}`,
      );
      const rows = await this.all(`SELECT ${checks.join(', ')} FROM rollup_day WHERE device_id = ? AND bucket >= ? AND bucket < ?`, [
        deviceId,
        from,
        to,
      ]);
      const row = rows[0] ?? {};
      return among.filter((p) => Number(row[p]) === 1);
    }
    const width = PACKED_WIDTHS[level];
    const length = SLOTS * width;
    // Spans wholly inside the range: a stored blob always holds a value, so its presence is the answer.
    const firstWhole = Math.ceil(from / length) * length;
    const found = new Set<string>();
    const whole = await this.all(
      `SELECT DISTINCT param FROM rollup_packed WHERE device_id = ? AND width = ? AND param IN (${inList}) AND span >= ? AND span <= ?`,
      [deviceId, width, ...among, firstWhole, to - length],
    );
    for (const r of whole) found.add(String(r.param));
    // The spans cut by the range's ends: look at their buckets.
    const edges = [...new Set([spanOf(from, width), spanOf(to - 1, width)])].filter((span) => span < firstWhole || span + length > to);
    if (edges.length > 0) {
      const rows = await this.all(
        `SELECT param, span, data FROM rollup_packed WHERE device_id = ? AND width = ? AND param IN (${inList}) AND span IN (${edges.map(() => '?').join(', ')})`,
        [deviceId, width, ...among, ...edges],
      );
      for (const r of rows) {
        const param = String(r.param);
        const data = decodeBlob(r.data as unknown as Uint8Array);
        if (blobHasValueIn({ counter: COUNTER_PARAMETERS.includes(param) }, data, Number(r.span), width, from, to)) found.add(param);
      }
    }
    return among.filter((p) => found.has(p));
  }

  /** True when local-day rows of another timezone exist (the owner changed zone): they must be rebuilt. */
  async dayLevelStale(deviceId: number, tz: string): Promise<boolean> {
    const rows = await this.all('SELECT 1 AS x FROM rollup_day WHERE device_id = ? AND tz <> ? LIMIT 1', [deviceId, tz]);
    return rows.length > 0;
  }

  /** Rebuilds every local day of a device in `tz` from its 15-minute rollups. */
  async rebuildDays(deviceId: number, tz: string): Promise<void> {
    if (this.thread) return this.thread.call('rebuildDays', [deviceId, tz]);
    const ps = paramSetOf(new Set(await this.presentIn('15m', deviceId, 0, Number.MAX_SAFE_INTEGER)));
    const m15 = await this.levelOf('15m', deviceId, 0, Number.MAX_SAFE_INTEGER, ps);
    const first = m15.bucket[0];
    const last = m15.bucket[m15.bucket.length - 1];
    const edges = first === undefined || last === undefined ? [] : [...localDayStarts(first, last + 1, tz), endOfDay(last, tz)];
    const write = dayTableWrite(deviceId, tz, daysOf(m15, edges, ps), edges, ps);
    const sqlite = this.sqlite;
    if (sqlite) {
      sqlite
        .transaction(() => {
          this.stmt('DELETE FROM rollup_day WHERE device_id = ?').run(deviceId);
          this.upsertSqlite(write);
        })
        .immediate();
      return;
    }
    await this.pgLockedTransaction([deviceId], async (client) => {
      await client.query('DELETE FROM rollup_day WHERE device_id = $1', [deviceId]);
      await this.pgUpsert(client, write);
    });
  }

  /** Deletes a device with its readings and rollups in one transaction. */
  async deleteDevice(deviceId: number): Promise<void> {
    if (this.thread) return this.thread.call('deleteDevice', [deviceId]);
    const tables = ['readings', 'rollup_packed', 'rollup_day', 'devices'];
    const sqlite = this.sqlite;
    if (sqlite) {
      sqlite
        .transaction(() => {
          for (const t of tables) this.stmt(`DELETE FROM ${t} WHERE ${t === 'devices' ? 'id' : 'device_id'} = ?`).run(deviceId);
        })
        .immediate();
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
    if (this.thread) return this.thread.call('deleteRawBefore', [cutoff, [...deviceIds]]);
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
