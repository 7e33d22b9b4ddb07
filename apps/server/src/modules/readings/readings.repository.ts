import { COUNTER_PARAMETERS, INSTANT_PARAMETERS, localDayStarts, startOfLocalDay } from '@phasewatch/shared';
import type SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import type { Storage } from '../../storage/database.js';
import { COUNTER_SUFFIXES, INSTANT_SUFFIXES, type RollupTable } from './readings.columns.js';
import { aggregate, floorTo, H1, M5, M15, presentParams, type Row } from './readings.rollup.js';

/** Readings of one device for one write, sorted by ts with unique timestamps. */
export interface DeviceBatch {
  deviceId: number;
  /** The owner's timezone: local-day rollups are built in it. */
  tz: string;
  readings: { ts: number; values: Record<string, number> }[];
}

type Value = number | string | null;

/** What a write reads before it computes: existing rows around the batch. */
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

interface Plan {
  rawCols: string[];
  raw: Value[][];
  levels: { table: RollupTable; cols: string[]; rows: Value[][] }[];
  newest: { ts: number; rssi: number | null };
}

const q = (name: string) => `"${name}"`;

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

/** Replaces the rows of `base` whose bucket lies in [lo, hi) by `fresh`, keeping bucket order. */
function overlay(base: readonly Row[], fresh: readonly Row[], lo: number, hi: number): Row[] {
  const kept = base.filter((r) => (r.bucket as number) < lo || (r.bucket as number) >= hi);
  return [...kept, ...fresh].sort((a, b) => (a.bucket as number) - (b.bucket as number));
}

/** The pure middle of a write: from the snapshot and the batch to every row to upsert. */
function planWrite(b: DeviceBatch, r: Ranges, snap: Snapshot): Plan {
  const rawCols = [...new Set(b.readings.flatMap((x) => Object.keys(x.values)))].sort();
  const byTs = new Map<number, Row>();
  for (const row of snap.raw) byTs.set(row.ts as number, row);
  for (const x of b.readings) byTs.set(x.ts, { ...(byTs.get(x.ts) ?? { ts: x.ts }), ...x.values });
  const raw = [...byTs.values()].sort((a, c) => (a.ts as number) - (c.ts as number));

  const m5 = aggregate(raw, (row) => floorTo(row.ts as number, M5), true);
  const m5All = overlay(snap.m5, m5, r.r5[0], r.r5[1]);
  const m15 = aggregate(
    m5All.filter((row) => (row.bucket as number) >= r.r15[0] && (row.bucket as number) < r.r15[1]),
    (row) => floorTo(row.bucket as number, M15),
    false,
  );
  const m15All = overlay(snap.m15, m15, r.r15[0], r.r15[1]);
  const h1 = aggregate(
    m15All.filter((row) => (row.bucket as number) >= r.r60[0] && (row.bucket as number) < r.r60[1]),
    (row) => floorTo(row.bucket as number, H1),
    false,
  );
  const day = dayRows(
    m15All.filter(
      (row) => (row.bucket as number) >= (r.days[0] as number) && (row.bucket as number) < (r.days[r.days.length - 1] as number),
    ),
    r.days,
    b.tz,
  );

  const newestReading = b.readings[b.readings.length - 1];
  const levels: Plan['levels'] = [];
  for (const [table, rows] of [
    ['rollup_5m', m5],
    ['rollup_15m', m15],
    ['rollup_1h', h1],
    ['rollup_day', day],
  ] as const) {
    const extra = table === 'rollup_day' ? ['bucket_end', 'tz'] : [];
    const cols = ['bucket', 'n', ...extra, ...levelColumns(rows)];
    levels.push({ table, cols, rows: rows.map((row) => cols.map((c) => row[c] ?? null)) });
  }
  return {
    rawCols,
    raw: b.readings.map((x) => [x.ts, ...rawCols.map((c) => x.values[c] ?? null)]),
    levels,
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

function upsertSql(table: string, key: string[], cols: string[], rowsCount: number, pgStyle: boolean, keepOld: boolean): string {
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
    await this.ensurePartitions(work.flatMap((b) => b.readings.map((r) => r.ts)));
    const client = await (this.storage.pgPool as pg.Pool).connect();
    try {
      await client.query('BEGIN');
      // Lock devices in id order so two writers never deadlock on each other's devices.
      for (const id of [...new Set(work.map((b) => b.deviceId))].sort((a, b) => a - b)) {
        await client.query('SELECT pg_advisory_xact_lock(7341, $1)', [id]);
      }
      for (const b of work) await this.writeDevicePg(client, b);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  private readSql(r: Ranges) {
    return {
      raw: ['SELECT * FROM readings WHERE device_id = ? AND ts >= ? AND ts < ? ORDER BY ts', r.r5] as const,
      m5: ['SELECT * FROM rollup_5m WHERE device_id = ? AND bucket >= ? AND bucket < ? ORDER BY bucket', r.r15] as const,
      m15: ['SELECT * FROM rollup_15m WHERE device_id = ? AND bucket >= ? AND bucket < ? ORDER BY bucket', r.m15Read] as const,
    };
  }

  private writeDeviceSqlite(b: DeviceBatch): void {
    const r = rangesOf(b);
    const reads = this.readSql(r);
    const snap: Snapshot = {
      raw: this.stmt(reads.raw[0]).all(b.deviceId, ...reads.raw[1]) as Row[],
      m5: this.stmt(reads.m5[0]).all(b.deviceId, ...reads.m5[1]) as Row[],
      m15: this.stmt(reads.m15[0]).all(b.deviceId, ...reads.m15[1]) as Row[],
    };
    const plan = planWrite(b, r, snap);
    const rawStmt = this.stmt(upsertSql('readings', ['device_id', 'ts'], plan.rawCols, 1, false, true));
    for (const row of plan.raw) rawStmt.run(b.deviceId, ...row);
    for (const level of plan.levels) {
      const s = this.stmt(upsertSql(level.table, ['device_id', 'bucket'], level.cols.slice(1), 1, false, false));
      for (const row of level.rows) s.run(b.deviceId, ...row);
    }
    this.stmt(
      'UPDATE devices SET last_rssi = COALESCE(?, last_rssi), last_seen = ? WHERE id = ? AND (last_seen IS NULL OR last_seen <= ?)',
    ).run(plan.newest.rssi, plan.newest.ts, b.deviceId, plan.newest.ts);
  }

  private async writeDevicePg(client: pg.PoolClient, b: DeviceBatch): Promise<void> {
    const r = rangesOf(b);
    const reads = this.readSql(r);
    // One client runs one query at a time: read the three levels in turn.
    const read = async ([sql, range]: readonly [string, readonly [number, number]]) =>
      (await client.query(toPg(sql), [b.deviceId, ...range])).rows as Row[];
    const raw = await read(reads.raw);
    const m5 = await read(reads.m5);
    const m15 = await read(reads.m15);
    const plan = planWrite(b, r, { raw, m5, m15 });
    await this.pgUpsert(client, 'readings', ['device_id', 'ts'], plan.rawCols, b.deviceId, plan.raw, true);
    for (const level of plan.levels) {
      await this.pgUpsert(client, level.table, ['device_id', 'bucket'], level.cols.slice(1), b.deviceId, level.rows, false);
    }
    await client.query(
      'UPDATE devices SET last_rssi = COALESCE($1, last_rssi), last_seen = $2 WHERE id = $3 AND (last_seen IS NULL OR last_seen <= $2)',
      [plan.newest.rssi, plan.newest.ts, b.deviceId],
    );
  }

  /** Multi-row upserts, chunked under PostgreSQL's 65,535 bind parameters. */
  private async pgUpsert(
    client: pg.PoolClient,
    table: string,
    key: string[],
    cols: string[],
    deviceId: number,
    rows: Value[][],
    keepOld: boolean,
  ) {
    if (rows.length === 0) return;
    const perRow = cols.length + 2;
    const chunk = Math.max(1, Math.floor(60_000 / perRow));
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      const sql = upsertSql(table, key, cols, part.length, true, keepOld);
      await client.query(
        sql,
        part.flatMap((row) => [deviceId, ...row]),
      );
    }
  }

  /** Creates the monthly partitions (UTC months) the timestamps fall in, once per process. */
  private async ensurePartitions(tss: number[]): Promise<void> {
    const months = new Set<string>();
    for (const ts of tss) {
      const d = new Date(ts);
      months.add(`${d.getUTCFullYear()}-${d.getUTCMonth()}`);
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

  /** Rollup rows of a level in [from, to) with the columns of the given parameters. */
  level(table: RollupTable, deviceId: number, from: number, to: number, params: readonly string[], tz?: string): Promise<Row[]> {
    const cols = columnsOf(params).map(q);
    const tzClause = table === 'rollup_day' ? ' AND tz = ?' : '';
    return this.all(
      `SELECT bucket, n${table === 'rollup_day' ? ', bucket_end' : ''}${cols.length ? `, ${cols.join(', ')}` : ''} FROM ${table} WHERE device_id = ? AND bucket >= ? AND bucket < ?${tzClause} ORDER BY bucket`,
      table === 'rollup_day' ? [deviceId, from, to, tz ?? ''] : [deviceId, from, to],
    );
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

  /** Parameters the device has any rollup data for in [from, to) at a level. */
  async presentIn(table: RollupTable, deviceId: number, from: number, to: number): Promise<string[]> {
    const checks = [
      ...INSTANT_PARAMETERS.map((p) => `MAX(CASE WHEN ${q(`${p}_n`)} IS NOT NULL THEN 1 ELSE 0 END) AS ${q(p)}`),
      ...COUNTER_PARAMETERS.map((p) => `MAX(CASE WHEN ${q(`${p}_first`)} IS NOT NULL THEN 1 ELSE 0 END) AS ${q(p)}`),
    ];
    const rows = await this.all(`SELECT ${checks.join(', ')} FROM ${table} WHERE device_id = ? AND bucket >= ? AND bucket < ?`, [
      deviceId,
      from,
      to,
    ]);
    const row = rows[0] ?? {};
    return [...INSTANT_PARAMETERS, ...COUNTER_PARAMETERS].filter((p) => Number(row[p]) === 1);
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
    const client = await (this.storage.pgPool as pg.Pool).connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(7341, $1)', [deviceId]);
      await client.query('DELETE FROM rollup_day WHERE device_id = $1', [deviceId]);
      await this.pgUpsert(client, 'rollup_day', ['device_id', 'bucket'], cols.slice(1), deviceId, values, false);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
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
    const client = await (this.storage.pgPool as pg.Pool).connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(7341, $1)', [deviceId]);
      for (const t of tables) await client.query(`DELETE FROM ${t} WHERE ${t === 'devices' ? 'id' : 'device_id'} = $1`, [deviceId]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
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

/** Rollup columns of the given parameters. */
export function columnsOf(params: readonly string[]): string[] {
  return params.flatMap((p) =>
    COUNTER_PARAMETERS.includes(p) ? COUNTER_SUFFIXES.map((s) => `${p}_${s}`) : INSTANT_SUFFIXES.map((s) => `${p}_${s}`),
  );
}
