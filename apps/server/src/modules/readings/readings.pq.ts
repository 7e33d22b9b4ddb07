import { PQ_COLUMNS, PQ_LIMITS, PQ_ROW_MS, PqAggregate } from '@phasewatch/shared';
import { decodeBlob, encodeBlob } from './readings.packed.js';
import { pick, readRaw } from './readings.raw.js';
import { floorTo } from './readings.rollup.js';
import type { TableWrite, Tx } from './readings.sql.js';

/*
 * The 10-minute power-quality aggregate (PqAggregate in packages/shared), kept beside the other rollups:
 * table `rollup_pq`, one row per device and UTC hour (`bucket`) holding its six bins, written only for hours
 * with readings. It is built from raw rows by the same steps that keep the quarter-hours (readings.repository.ts):
 * hours rolled up past the watermark (`rollUp`) and, for late readings, their hours again from their raw rows.
 * Devices that had readings before migration 0011 have `pq_from` > 0: the aggregate holds [pq_from,
 * rollup_through) and the compactor fills older hours from raw rows step by step (`pqBackfillStep`).
 */

const COLUMNS: readonly string[] = PQ_COLUMNS;

/** Rows of the aggregate's hours in [lo, hi) (whole hours) computed from their raw rows (catalogue-ordered or PQ_COLUMNS). */
export function pqHourRows(raw: { ts: ArrayLike<number>; cols: readonly ArrayLike<number>[] }, lo: number, hi: number) {
  const agg = new PqAggregate(lo, Math.round((hi - lo) / PQ_LIMITS.binMs));
  agg.add(raw.ts, raw.cols, lo, hi);
  const out: { bucket: number; data: Buffer }[] = [];
  for (let h = lo; h < hi; h += PQ_ROW_MS) {
    const row = agg.encodeHour(h);
    if (row) out.push({ bucket: h, data: encodeBlob(row) });
  }
  return out;
}

export function pqTableWrite(deviceId: number, rows: readonly { bucket: number; data: Buffer }[]): TableWrite {
  return {
    table: 'rollup_pq',
    key: ['device_id', 'bucket'],
    cols: ['data'],
    count: rows.length,
    keepOld: false,
    rowsPerStatement: 50,
    fill(k, out, offset) {
      const r = rows[k] as { bucket: number; data: Buffer };
      out[offset] = deviceId;
      out[offset + 1] = r.bucket;
      out[offset + 2] = r.data;
    },
  };
}

/** Stores the aggregate of [lo, hi) (whole hours) from a catalogue-ordered raw read of it (rows of empty hours need none: nothing was stored there). */
export async function storePqFromRaw(tx: Tx, deviceId: number, all: { ts: number[]; cols: Float64Array[] }, lo: number, hi: number) {
  const span = pqSpanOf(all.ts, lo, hi);
  if (!span) return;
  await tx.upsert(pqTableWrite(deviceId, pqHourRows(pick(all, COLUMNS), span[0], span[1])));
}

/**
 * The whole hours of [lo, hi) that rows at `ts` fall in, or null without any. A device's first roll-up runs
 * from its watermark 0: the aggregate of [0, now) was 3 million bins allocated and half a million hours walked
 * (a 1.3 s stall of the writer, and of every meter's post behind it, at each new device's first history).
 */
export function pqSpanOf(ts: ArrayLike<number>, lo: number, hi: number): [number, number] | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i] as number;
    if (t < lo || t >= hi) continue;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  if (min > max) return null;
  return [Math.max(lo, floorTo(min, PQ_ROW_MS)), Math.min(hi, floorTo(max, PQ_ROW_MS) + PQ_ROW_MS)];
}

/**
 * Late readings: the hours they fall in are computed again from their raw rows (stored ones and the new ones,
 * already upserted), consecutive hours in one read.
 */
export async function recomputePq(tx: Tx, deviceId: number, lateTs: ArrayLike<number>): Promise<void> {
  const hours = [...new Set(Array.from(lateTs, (t) => floorTo(t, PQ_ROW_MS)))].sort((a, b) => a - b);
  let i = 0;
  while (i < hours.length) {
    const lo = hours[i] as number;
    let hi = lo + PQ_ROW_MS;
    while (i + 1 < hours.length && hours[i + 1] === hi) {
      i++;
      hi += PQ_ROW_MS;
    }
    i++;
    const raw = await readRaw(tx, deviceId, lo, hi, COLUMNS);
    await tx.upsert(pqTableWrite(deviceId, pqHourRows(raw, lo, hi)));
  }
}

/** Raw time one backfill step reads at most (as a compaction step). */
const BACKFILL_CHUNK_MS = 6 * PQ_ROW_MS;

/**
 * One step of building the aggregate of a device's readings from before migration 0011 (its `pq_from` > 0),
 * newest first, in the caller's transaction with the device's row locked: the hours of up to 6 h of raw rows
 * below `pq_from` are stored and `pq_from` moves down to them (0 once no raw row is left below it). True when
 * the device is done.
 */
export async function pqBackfillStep(tx: Tx, deviceId: number): Promise<boolean> {
  const [dev] = await tx.arrays('SELECT pq_from FROM devices WHERE id = ?', [deviceId]);
  const pqFrom = Number(dev?.[0] ?? 0);
  if (pqFrom <= 0) return true;
  const [newest] = await tx.arrays('SELECT MAX(ts) FROM readings WHERE device_id = ? AND ts < ?', [deviceId, pqFrom]);
  const last = newest?.[0];
  if (last === null || last === undefined) {
    await tx.run('UPDATE devices SET pq_from = 0 WHERE id = ?', [deviceId]);
    return true;
  }
  const hi = floorTo(Number(last), PQ_ROW_MS) + PQ_ROW_MS;
  const lo = hi - BACKFILL_CHUNK_MS;
  const raw = await readRaw(tx, deviceId, lo, hi, COLUMNS);
  await tx.upsert(pqTableWrite(deviceId, pqHourRows(raw, lo, hi)));
  await tx.run('UPDATE devices SET pq_from = ? WHERE id = ?', [lo, deviceId]);
  return false;
}

/** What the aggregate of a device holds: the bins of hours in [from, through) (`through`: the rollup watermark). */
export interface PqCoverage {
  from: number;
  through: number;
}

export async function pqCoverage(tx: Tx, deviceId: number): Promise<PqCoverage> {
  const [r] = await tx.arrays('SELECT pq_from, rollup_through FROM devices WHERE id = ?', [deviceId]);
  return { from: Number(r?.[0] ?? 0), through: Number(r?.[1] ?? 0) };
}

/** Sets the bins of `agg` in [lo, hi) (whole hours) from the stored rows. */
export async function readPq(tx: Tx, deviceId: number, agg: PqAggregate, lo: number, hi: number): Promise<void> {
  if (lo >= hi) return;
  const rows = await tx.blobArrays(
    'SELECT bucket, data FROM rollup_pq WHERE device_id = ? AND bucket >= ? AND bucket < ? ORDER BY bucket',
    [deviceId, floorTo(lo, PQ_ROW_MS), hi],
  );
  for (const [bucket, data] of rows) agg.decodeHour(Number(bucket), decodeBlob(data as Uint8Array), lo, hi);
}
