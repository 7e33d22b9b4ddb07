import { COUNTER_PARAMETERS, PARAMETER_NAMES } from '@phasewatch/shared';
import type { RawColumns } from './readings.rollup.js';
import type { TableWrite, Tx, Value } from './readings.sql.js';

/*
 * Raw readings: one row per device and timestamp, a nullable column per catalogue parameter (named as the
 * parameter). Rows are written with one fixed statement whatever a device sends (every column; absent
 * ones NULL, and an upsert keeps a stored value the new reading lacks).
 *
 * SQLite stores a REAL that happens to be integral as an integer of 1 to 6 bytes instead of 8. Meters send
 * decimals with few digits, so values are stored scaled by 1000 when that is exact (231.2 V → 231200,
 * 3 bytes; 12345.678 kWh → 4 bytes), and as they are otherwise: an unscaled value is never integral (an
 * integer times 1000 is exact), so a stored integral value always means "scaled". Nothing a meter sent is
 * lost: the value read back is the same double. PostgreSQL double precision columns take 8 bytes
 * either way and store values as they are.
 */

/** Raw columns, in catalogue order. */
export const RAW_COLUMNS: readonly string[] = PARAMETER_NAMES;
const COUNTER_COLUMNS = new Set(COUNTER_PARAMETERS);

const SCALE = 1000;

/** A value as SQLite stores it (scaled when exact). */
export function encodeRawValue(v: number): number {
  const i = Math.round(v * SCALE);
  return i / SCALE === v ? i : v;
}

/** A stored SQLite value back as the number the meter sent. */
export function decodeRawValue(x: number): number {
  return Number.isInteger(x) ? x / SCALE : x;
}

const q = (name: string) => `"${name}"`;

/** Reading timestamps and values of one device, column-wise in catalogue order (NaN: absent). */
export interface RawBatch {
  deviceId: number;
  ts: ArrayLike<number>;
  /** Catalogue indexes of the batch's parameters, and their columns. */
  index: readonly number[];
  cols: readonly ArrayLike<number>[];
}

/** Values bound per SQLite multi-row statement (rows per statement follow from the row width). */
const SQLITE_VALUES_PER_STATEMENT = 420;

/**
 * The upsert of batches' raw rows. PostgreSQL: one fixed statement shape (every catalogue column, the
 * ones a reading lacks NULL), prepared once per connection. SQLite: only the columns the batches carry
 * (binding 57 NULLs a row cost as much as the rest of the insert); a column left out keeps its stored
 * value on conflict, as a NULL does under the COALESCE, and the statements live in a bounded cache.
 */
export function rawWrite(batches: readonly RawBatch[], dialect: 'sqlite' | 'postgres'): TableWrite {
  const sqlite = dialect === 'sqlite';
  let slot: Int32Array | null = null;
  let cols = RAW_COLUMNS;
  if (sqlite) {
    const carried = new Set<number>();
    for (const b of batches) for (const c of b.index) carried.add(c);
    const used = [...carried].sort((x, y) => x - y);
    slot = new Int32Array(RAW_COLUMNS.length).fill(-1);
    used.forEach((c, j) => {
      (slot as Int32Array)[c] = j;
    });
    cols = used.map((c) => RAW_COLUMNS[c] as string);
  }
  const width = cols.length;
  // Row k is reading k - starts[b] of batch b.
  const starts: number[] = [];
  let count = 0;
  for (const b of batches) {
    starts.push(count);
    count += b.ts.length;
  }
  let b = 0;
  return {
    table: 'readings',
    key: ['device_id', 'ts'],
    cols,
    count,
    keepOld: true,
    rowsPerStatement: sqlite ? Math.max(1, Math.floor(SQLITE_VALUES_PER_STATEMENT / (width + 2))) : 6,
    fill(k, out, offset) {
      // Rows are filled in order; step back only if asked out of order.
      if (k < (starts[b] as number)) b = 0;
      while (b + 1 < batches.length && k >= (starts[b + 1] as number)) b++;
      const batch = batches[b] as RawBatch;
      const i = k - (starts[b] as number);
      out[offset] = batch.deviceId;
      out[offset + 1] = batch.ts[i] as number;
      const o = offset + 2;
      for (let j = 0; j < width; j++) out[o + j] = null;
      for (let j = 0; j < batch.index.length; j++) {
        const x = (batch.cols[j] as ArrayLike<number>)[i] as number;
        const c = batch.index[j] as number;
        if (!Number.isNaN(x)) out[o + (slot ? (slot[c] as number) : c)] = sqlite ? encodeRawValue(x) : x;
      }
    },
  };
}

const SELECT_ALL_COLUMNS = `SELECT ts, ${RAW_COLUMNS.map(q).join(', ')} FROM readings`;
const SELECT_ALL = `${SELECT_ALL_COLUMNS} WHERE device_id = ? AND ts >= ? AND ts < ? ORDER BY ts`;

/** Raw rows of a device in [from, to), every catalogue column, column-wise in catalogue order (NaN: absent). */
export async function readRawAll(tx: Tx, deviceId: number, from: number, to: number): Promise<{ ts: number[]; cols: Float64Array[] }> {
  return columnar(await tx.arrays(SELECT_ALL, [deviceId, from, to]), RAW_COLUMNS.length, tx.dialect === 'sqlite');
}

/** Raw rows of a device in [from, to) for some parameters (a statement per parameter list: cached, bounded). */
export async function readRaw(
  tx: Tx,
  deviceId: number,
  from: number,
  to: number,
  names: readonly string[],
): Promise<{ ts: number[]; cols: Float64Array[] }> {
  const sql = `SELECT ts${names.map((n) => `, ${q(n)}`).join('')} FROM readings WHERE device_id = ? AND ts >= ? AND ts < ? ORDER BY ts`;
  return columnar(await tx.arrays(sql, [deviceId, from, to]), names.length, tx.dialect === 'sqlite');
}

function columnar(rows: Value[][], width: number, sqlite: boolean): { ts: number[]; cols: Float64Array[] } {
  const ts = new Array<number>(rows.length);
  const cols = Array.from({ length: width }, () => new Float64Array(rows.length));
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as Value[];
    ts[i] = Number(r[0]);
    for (let j = 0; j < width; j++) {
      const v = r[j + 1];
      (cols[j] as Float64Array)[i] = v === null || v === undefined ? Number.NaN : sqlite ? decodeRawValue(v as number) : (v as number);
    }
  }
  return { ts, cols };
}

/** The columns of `names` (catalogue names) out of a catalogue-ordered read, as rollups take them. */
export function pick(all: { ts: number[]; cols: Float64Array[] }, names: readonly string[]): RawColumns {
  return { ts: all.ts, cols: names.map((n) => all.cols[RAW_COLUMNS.indexOf(n)] as Float64Array) };
}

/** Catalogue names with at least one value in a catalogue-ordered read. */
export function presentNames(all: { cols: Float64Array[] }): string[] {
  return RAW_COLUMNS.filter((_, j) => (all.cols[j] as Float64Array).some((v) => !Number.isNaN(v)));
}

/** Rows looked at before falling back to one query per counter (a dense counter is in the first row). */
const NEAR_ROWS = 32;

/**
 * Per counter, the newest raw reading before `before` and at or after `since` (absent: none): the newest
 * few rows in one query, then, for a counter they lack, one query walking the (device_id, ts) key.
 */
export async function lastRawBefore(
  tx: Tx,
  deviceId: number,
  counters: readonly string[],
  since: number,
  before: number,
): Promise<Map<string, { ts: number; value: number }>> {
  return nearestRaw(tx, deviceId, counters, `ts >= ? AND ts < ?`, [since, before], 'DESC');
}

/** Per counter, the oldest raw reading at or after `from` (absent: none). */
export async function firstRawFrom(
  tx: Tx,
  deviceId: number,
  counters: readonly string[],
  from: number,
): Promise<Map<string, { ts: number; value: number }>> {
  return nearestRaw(tx, deviceId, counters, 'ts >= ?', [from], 'ASC');
}

async function nearestRaw(
  tx: Tx,
  deviceId: number,
  counters: readonly string[],
  range: string,
  args: readonly number[],
  order: 'ASC' | 'DESC',
): Promise<Map<string, { ts: number; value: number }>> {
  const out = new Map<string, { ts: number; value: number }>();
  const wanted = counters.filter((c) => COUNTER_COLUMNS.has(c));
  if (wanted.length === 0) return out;
  const decode = (v: Value) => (tx.dialect === 'sqlite' ? decodeRawValue(v as number) : Number(v));
  const near = await tx.arrays(`${SELECT_ALL_COLUMNS} WHERE device_id = ? AND ${range} ORDER BY ts ${order} LIMIT ${NEAR_ROWS}`, [
    deviceId,
    ...args,
  ]);
  for (const c of wanted) {
    const j = RAW_COLUMNS.indexOf(c) + 1;
    const r = near.find((row) => row[j] !== null && row[j] !== undefined);
    if (r) out.set(c, { ts: Number(r[0]), value: decode(r[j] as Value) });
  }
  if (near.length < NEAR_ROWS) return out;
  for (const c of wanted) {
    if (out.has(c)) continue;
    const rows = await tx.arrays(
      `SELECT ts, ${q(c)} FROM readings WHERE device_id = ? AND ${range} AND ${q(c)} IS NOT NULL ORDER BY ts ${order} LIMIT 1`,
      [deviceId, ...args],
    );
    const r = rows[0];
    if (r) out.set(c, { ts: Number(r[0]), value: decode(r[1] as Value) });
  }
  return out;
}
