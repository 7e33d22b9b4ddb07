import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BoundedMap } from '@phasewatch/shared';
import type SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Storage } from '../../storage/database.js';

/*
 * The dialect layer of the readings module: one async interface over better-sqlite3 and pg, so the
 * write and read logic is written once. Statement text is bounded: writes use fixed statements (every
 * catalogue column, whatever a device sends), and the few reads whose columns follow a request are
 * cached in a bounded LRU on SQLite and sent unnamed (not prepared per connection) on PostgreSQL.
 */

export type Value = number | string | Buffer | Uint8Array | null;
export type Row = Record<string, Value>;

/** Prepared SQLite statements kept per connection; older ones are dropped (and finalized by GC). */
const SQLITE_STATEMENT_CACHE = 200;
/** Of them, raw-row upserts: one per column set a flush carries (a fleet of one meter model needs a few). */
const SQLITE_UPSERT_CACHE = 32;

/** Rows of one table to upsert, written by `fill` into a flat parameter array (key columns first). */
export interface TableWrite {
  table: string;
  key: readonly string[];
  cols: readonly string[];
  count: number;
  /** COALESCE on conflict (raw rows: a later reading with fewer parameters keeps the others). */
  keepOld: boolean;
  /**
   * No row of the write can meet a stored one or another of the write (the caller checked under its
   * devices' locks): a large write on PostgreSQL then goes by `COPY` straight into the table, with no
   * staging table and no ON CONFLICT.
   */
  insertOnly?: boolean;
  /** SQLite rows per multi-row statement (bound values per statement stay around a few hundred). */
  rowsPerStatement: number;
  fill(k: number, out: Value[], offset: number): void;
}

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

const q = (name: string) => `"${name}"`;

/** `?` placeholders as `$1, $2, …`. */
export const toPg = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

function upsertSql(w: Pick<TableWrite, 'table' | 'key' | 'cols' | 'keepOld'>, rowsCount: number): string {
  const all = [...w.key, ...w.cols];
  const values = Array.from({ length: rowsCount }, () => `(${all.map(() => '?').join(',')})`).join(',');
  const set = w.cols.map((c) => (w.keepOld ? `${q(c)} = COALESCE(excluded.${q(c)}, ${w.table}.${q(c)})` : `${q(c)} = excluded.${q(c)}`));
  return `INSERT INTO ${w.table} (${all.map(q).join(',')}) VALUES ${values} ON CONFLICT (${w.key.join(',')}) DO UPDATE SET ${set.join(',')}`;
}

/** A table write's rows as one array per column (key columns first), as `unnest` takes them. */
function pgColumns(w: TableWrite): { names: string[]; columns: Value[][] } {
  const names = [...w.key, ...w.cols];
  const width = names.length;
  const columns = names.map(() => new Array<Value>(w.count));
  const row = new Array<Value>(width);
  for (let k = 0; k < w.count; k++) {
    w.fill(k, row, 0);
    for (let j = 0; j < width; j++) (columns[j] as Value[])[k] = row[j] as Value;
  }
  return { names, columns };
}

/**
 * Raw rows of one transaction's write from this many on travel by `COPY … FROM STDIN` into a staging table
 * (then one INSERT … SELECT … ON CONFLICT): no parameter arrays to build, send and unnest. Below it the one
 * unnest statement is cheaper than the extra round trip (a live flush is a few rows per device).
 */
export const COPY_MIN_ROWS = 256;

/** Connections whose staging table exists (a temp table lives as long as its connection). */
const staged = new WeakSet<object>();

/** The staging table of `table` on this connection: same columns, temporary (unlogged, private). */
const stagingOf = (table: string) => `pw_stage_${table}`;

/**
 * A table write's rows as COPY text, in chunks of about 64 KB: tab-separated, `\N` for NULL. Numbers as
 * JavaScript prints them, the shortest text that reads back as the same double (PostgreSQL's float8 input
 * is exact), so a stored value is the one the meter sent, as through a bound parameter.
 */
export function* copyText(w: TableWrite): Generator<string> {
  const width = w.key.length + w.cols.length;
  const row = new Array<Value>(width);
  let chunk = '';
  for (let k = 0; k < w.count; k++) {
    w.fill(k, row, 0);
    let line = '';
    for (let j = 0; j < width; j++) {
      const v = row[j];
      if (j > 0) line += '\t';
      if (v === null || v === undefined) line += '\\N';
      else if (typeof v === 'number') line += String(v);
      else throw new Error(`COPY of ${w.table}: only numbers and NULLs are written this way`);
    }
    chunk += `${line}\n`;
    if (chunk.length >= 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** What the readings logic needs from a connection, inside or outside a transaction. */
export interface Tx {
  readonly dialect: 'sqlite' | 'postgres';
  /** A SELECT's rows as objects (`?` placeholders). */
  all(sql: string, params: readonly Value[]): Promise<Row[]>;
  /** A SELECT's rows as arrays (no object per row). */
  arrays(sql: string, params: readonly Value[]): Promise<Value[][]>;
  /**
   * `arrays` for reads of many blobs: on PostgreSQL the rows travel in binary (bytea as hex text doubles
   * the bytes and their decoding). Parameters are numbers and catalogue names only (written into the text).
   */
  blobArrays(sql: string, params: readonly (number | string)[]): Promise<Value[][]>;
  run(sql: string, params: readonly Value[]): Promise<void>;
  upsert(w: TableWrite): Promise<void>;
}

/** better-sqlite3 behind the async interface (the calls are synchronous underneath). */
export class SqliteTx implements Tx {
  readonly dialect = 'sqlite';
  private readonly objects = new Map<string, SqliteDatabase.Statement>();
  /** Statements in raw (array) mode: kept apart because the mode sticks to a statement. */
  private readonly rawMode = new Map<string, SqliteDatabase.Statement>();
  /** Upsert statements by table, columns and rows (raw rows are written with the columns a flush carries). */
  private readonly upserts = new BoundedMap<string, SqliteDatabase.Statement>(SQLITE_UPSERT_CACHE);

  private upsertStatement(w: TableWrite, rows: number): SqliteDatabase.Statement {
    const key = `${w.table}|${w.cols.join(',')}|${rows}`;
    let s = this.upserts.get(key);
    if (!s) {
      s = this.db.prepare(upsertSql(w, rows));
      this.upserts.set(key, s);
    }
    return s;
  }

  constructor(readonly db: SqliteDatabase.Database) {}

  /** A cached statement; the cache is an LRU (a Map keeps insertion order: re-insert on use). */
  statement(sql: string, raw = false): SqliteDatabase.Statement {
    const cache = raw ? this.rawMode : this.objects;
    let s = cache.get(sql);
    if (s) {
      cache.delete(sql);
      cache.set(sql, s);
      return s;
    }
    s = raw ? this.db.prepare(sql).raw(true) : this.db.prepare(sql);
    cache.set(sql, s);
    if (cache.size > SQLITE_STATEMENT_CACHE) cache.delete(cache.keys().next().value as string);
    return s;
  }

  /** Statements cached now (tests check the bound). */
  get cachedStatements(): number {
    return this.objects.size + this.rawMode.size + this.upserts.size;
  }

  async all(sql: string, params: readonly Value[]): Promise<Row[]> {
    return this.allSync(sql, params);
  }

  allSync(sql: string, params: readonly Value[]): Row[] {
    return this.statement(sql).all(...params) as Row[];
  }

  async arrays(sql: string, params: readonly Value[]): Promise<Value[][]> {
    return this.arraysSync(sql, params);
  }

  async blobArrays(sql: string, params: readonly (number | string)[]): Promise<Value[][]> {
    return this.arraysSync(sql, params);
  }

  arraysSync(sql: string, params: readonly Value[]): Value[][] {
    return this.statement(sql, true).all(...params) as Value[][];
  }

  async run(sql: string, params: readonly Value[]): Promise<void> {
    this.statement(sql).run(...params);
  }

  /**
   * Multi-row upserts of `rowsPerStatement` rows each (a statement per row costs twice as much per raw
   * reading), the rest one row at a time; one argument array is reused per shape because binding copies.
   */
  async upsert(w: TableWrite): Promise<void> {
    if (w.count === 0) return;
    const width = w.key.length + w.cols.length;
    const per = Math.max(1, w.rowsPerStatement);
    let k = 0;
    if (w.count >= per && per > 1) {
      const many = this.upsertStatement(w, per);
      const args = new Array<Value>(width * per);
      for (; k + per <= w.count; k += per) {
        for (let j = 0; j < per; j++) w.fill(k + j, args, j * width);
        many.run(args);
      }
    }
    if (k === w.count) return;
    const one = this.upsertStatement(w, 1);
    const args = new Array<Value>(width);
    for (; k < w.count; k++) {
      w.fill(k, args, 0);
      one.run(args);
    }
  }
}

/** A pg client (a pooled one inside a transaction, or the pool) behind the async interface. */
export class PgTx implements Tx {
  readonly dialect = 'postgres';

  constructor(
    private readonly client: pg.Pool | pg.PoolClient,
    private readonly named: Map<string, string>,
    /** A connection in a transaction (the runner's): large raw writes may go through COPY. */
    private readonly inTransaction = false,
  ) {}

  async all(sql: string, params: readonly Value[]): Promise<Row[]> {
    return (await this.client.query(toPg(sql), params as Value[])).rows as Row[];
  }

  async arrays(sql: string, params: readonly Value[]): Promise<Value[][]> {
    return (await this.client.query<Value[]>({ text: toPg(sql), values: params as Value[], rowMode: 'array' })).rows;
  }

  async blobArrays(sql: string, params: readonly (number | string)[]): Promise<Value[][]> {
    // pg sends parameters in binary too when asked for binary rows, which it cannot encode: the values
    // (checked) go into the text instead.
    let i = 0;
    const text = sql.replace(/\?/g, () => {
      const v = params[i++];
      if (typeof v === 'number' && Number.isFinite(v)) return String(v);
      if (typeof v === 'string' && /^[a-z0-9_]+$/.test(v)) return `'${v}'`;
      throw new Error(`blobArrays: unsupported parameter ${String(v)}`);
    });
    // (`binary` is a query option of pg its types leave out.)
    const config = { text, rowMode: 'array', binary: true } as unknown as pg.QueryArrayConfig;
    return (await this.client.query<Value[]>(config)).rows;
  }

  async run(sql: string, params: readonly Value[]): Promise<void> {
    await this.client.query(toPg(sql), params as Value[]);
  }

  /**
   * One upsert per table: every column travels as one array parameter and `unnest` turns them back into
   * rows. A VALUES list of 5,000 readings is 60,000 placeholders PostgreSQL must parse and plan each time;
   * the array form is one small statement, prepared once per connection (the shapes are fixed).
   */
  async upsert(w: TableWrite): Promise<void> {
    if (w.count === 0) return;
    if (this.inTransaction && w.table === 'readings' && w.count >= COPY_MIN_ROWS)
      return w.insertOnly ? this.copyInsert(w, this.client as pg.PoolClient) : this.copyUpsert(w, this.client as pg.PoolClient);
    const { names, columns } = pgColumns(w);
    const shape = `${w.table}|${w.cols.join(',')}|${w.keepOld}`;
    let name = this.named.get(shape);
    const types = names.map((c) => PG_COLUMN_TYPES[c] ?? 'float8');
    const set = w.cols.map((c) => (w.keepOld ? `${q(c)} = COALESCE(excluded.${q(c)}, ${w.table}.${q(c)})` : `${q(c)} = excluded.${q(c)}`));
    const text = `INSERT INTO ${w.table} (${names.map(q).join(',')}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(',')}) ON CONFLICT (${w.key.join(',')}) DO UPDATE SET ${set.join(',')}`;
    if (!name) {
      name = `pw_upsert_${this.named.size + 1}`;
      this.named.set(shape, name);
    }
    await this.client.query({ name, text, values: columns });
  }

  /** Rows that meet no stored row (`insertOnly`): one `COPY` into the table itself (PostgreSQL routes them to their partitions). */
  private async copyInsert(w: TableWrite, client: pg.PoolClient): Promise<void> {
    const names = [...w.key, ...w.cols];
    await pipeline(Readable.from(copyText(w)), client.query(copyFrom(`COPY ${w.table} (${names.map(q).join(',')}) FROM STDIN`)));
  }

  /**
   * The upsert of `upsert` with the rows sent by COPY: into this connection's staging table (created on
   * first use), then moved by one statement that empties it (`DELETE … RETURNING`) and inserts with the
   * same ON CONFLICT as the unnest form — duplicates update, a NULL keeps the stored value. In the caller's
   * transaction: a rollback takes the staged rows back too, and rollups and events see what they saw.
   */
  private async copyUpsert(w: TableWrite, client: pg.PoolClient): Promise<void> {
    const names = [...w.key, ...w.cols];
    const stage = stagingOf(w.table);
    if (!staged.has(client)) {
      await client.query(`CREATE TEMP TABLE IF NOT EXISTS ${stage} (LIKE ${w.table})`);
      staged.add(client);
    }
    await pipeline(Readable.from(copyText(w)), client.query(copyFrom(`COPY ${stage} (${names.map(q).join(',')}) FROM STDIN`)));
    const shape = `copy|${w.table}|${w.cols.join(',')}|${w.keepOld}`;
    let name = this.named.get(shape);
    if (!name) {
      name = `pw_copy_${this.named.size + 1}`;
      this.named.set(shape, name);
    }
    const set = w.cols.map((c) => (w.keepOld ? `${q(c)} = COALESCE(excluded.${q(c)}, ${w.table}.${q(c)})` : `${q(c)} = excluded.${q(c)}`));
    const list = names.map(q).join(',');
    const text = `WITH s AS (DELETE FROM ${stage} RETURNING ${list}) INSERT INTO ${w.table} (${list}) SELECT ${list} FROM s ON CONFLICT (${w.key.join(',')}) DO UPDATE SET ${set.join(',')}`;
    await client.query({ name, text });
  }
}

/** A connection whose transaction was rolled back may have lost a staging table created in it. */
export function forgetStaging(client: object): void {
  staged.delete(client);
}

/** Last reading time and signal per device, as a live write records them on the device rows. */
export interface DeviceTouch {
  ids: number[];
  ts: number[];
  rssi: (number | null)[];
}

/**
 * A flush of live readings on PostgreSQL in one statement, so in one round trip and its own
 * transaction: the devices' rows locked (in id order, as every write locks them), the raw rows
 * upserted and the devices' last reading and signal recorded, but only when no reading is before its
 * device's watermark; a device deleted meanwhile keeps nothing. Answers false (nothing written) when
 * some reading is late: the caller then takes the full path, which recomputes what late readings touch.
 * The five round trips of a transaction (BEGIN, lock, upsert, touch, COMMIT) each waited for a core on
 * a machine busy with the fleet's requests: 4-7 ms for ten readings, and ten times that in a backlog.
 */
export async function liveWritePg(client: pg.Pool, named: Map<string, string>, w: TableWrite, touch: DeviceTouch): Promise<boolean> {
  const { names, columns } = pgColumns(w);
  const width = names.length;
  const shape = `live|${w.table}|${w.cols.join(',')}`;
  let name = named.get(shape);
  if (!name) {
    name = `pw_live_${named.size + 1}`;
    named.set(shape, name);
  }
  const types = names.map((c) => PG_COLUMN_TYPES[c] ?? 'float8');
  const t = width + 1;
  const text = `WITH w AS (
      SELECT id, rollup_through FROM devices WHERE id = ANY($1::int4[]) ORDER BY id FOR UPDATE
    ), r AS (
      SELECT * FROM unnest(${types.map((ty, i) => `$${i + 2}::${ty}[]`).join(',')}) AS r(${names.map(q).join(',')})
    ), late AS (
      SELECT EXISTS (SELECT 1 FROM r JOIN w ON w.id = r.device_id WHERE r.ts < w.rollup_through) AS is_late
    ), ins AS (
      INSERT INTO ${w.table} (${names.map(q).join(',')})
      SELECT r.* FROM r JOIN w ON w.id = r.device_id WHERE NOT (SELECT is_late FROM late)
      ON CONFLICT (${w.key.join(',')}) DO UPDATE SET ${w.cols.map((c) => `${q(c)} = COALESCE(excluded.${q(c)}, ${w.table}.${q(c)})`).join(',')}
    ), touch AS (
      UPDATE devices d SET
        last_rssi = CASE WHEN d.last_seen IS NULL OR d.last_seen <= u.ts THEN COALESCE(u.rssi, d.last_rssi) ELSE d.last_rssi END,
        last_seen = GREATEST(COALESCE(d.last_seen, u.ts), u.ts)
      FROM w JOIN unnest($1::int4[], $${t + 1}::int8[], $${t + 2}::float8[]) AS u(id, ts, rssi) ON u.id = w.id
      WHERE d.id = w.id AND NOT (SELECT is_late FROM late)
    )
    SELECT is_late AS late FROM late`;
  const res = await client.query({ name, text, values: [touch.ids, ...columns, touch.ts, touch.rssi] });
  return res.rows[0]?.late === false;
}

/** The connections of a storage as `Tx`s: autocommit reads, and transactions for writes. */
export class SqlRunner {
  readonly sqlite: SqliteTx | null;
  /** Names of the fixed PostgreSQL upserts (prepared once per connection). */
  private readonly named = new Map<string, string>();

  constructor(private readonly storage: Storage) {
    this.sqlite = storage.sqlite ? new SqliteTx(storage.sqlite) : null;
  }

  get dialect(): 'sqlite' | 'postgres' {
    return this.sqlite ? 'sqlite' : 'postgres';
  }

  /** PostgreSQL: `liveWritePg` on the pool (its own transaction). */
  liveWrite(w: TableWrite, touch: DeviceTouch): Promise<boolean> {
    return liveWritePg(this.storage.pgPool as pg.Pool, this.named, w, touch);
  }

  /** Autocommit statements (reads). */
  get reader(): Tx {
    return this.sqlite ?? new PgTx(this.storage.pgPool as pg.Pool, this.named);
  }

  /**
   * Runs `body` in one transaction, rolled back on any error. SQLite: BEGIN IMMEDIATE (the write lock is
   * taken or waited for up front; a deferred transaction that read first would fail with
   * SQLITE_BUSY_SNAPSHOT if another connection committed in between). The connection must not be shared
   * with other async work while `body` runs: the readings writer owns its connection.
   */
  async transaction<T>(body: (tx: Tx) => Promise<T>): Promise<T> {
    const sqlite = this.sqlite;
    if (sqlite) {
      sqlite.db.exec('BEGIN IMMEDIATE');
      try {
        const out = await body(sqlite);
        sqlite.db.exec('COMMIT');
        return out;
      } catch (err) {
        if (sqlite.db.inTransaction) sqlite.db.exec('ROLLBACK');
        throw err;
      }
    }
    const client = await (this.storage.pgPool as pg.Pool).connect();
    try {
      await client.query('BEGIN');
      const out = await body(new PgTx(client, this.named, true));
      await client.query('COMMIT');
      return out;
    } catch (err) {
      forgetStaging(client);
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }
}
