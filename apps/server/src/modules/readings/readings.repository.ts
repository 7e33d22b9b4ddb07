import {
  COUNTER_PARAMETERS,
  type CounterRules,
  type CounterRun,
  DEFAULT_COUNTER_RULES,
  INSTANT_PARAMETERS,
  localDayStarts,
  PARAMETER_NAMES,
  type PqAggregate,
  startOfLocalDay,
} from '@phasewatch/shared';
import type pg from 'pg';
import type { Storage } from '../../storage/database.js';
import {
  batchSize,
  type ColumnarBatch,
  columnarBatch,
  deviceTouch,
  encodeFlush,
  firstAtOrAfter,
  isLiveFlush,
  newestOf,
  rollsUpInline,
  type WriteBatch,
  withBatch,
} from './readings.batches.js';
import { type DayFigures, dayFiguresOf, dayParams, decodeDay, encodeDay, levelFromDays } from './readings.days.js';
import { dayEdges, endOfDay } from './readings.local-days.js';
import {
  blobHasValueIn,
  decodeBlob,
  firstRunIn,
  lastRunIn,
  levelFromPacked,
  PACKED_WIDTHS,
  type PackedLevel,
  packedWrites,
  SLOTS,
  spanOf,
} from './readings.packed.js';
import { type PqCoverage, pqBackfillStep, pqCoverage, readPq, recomputePq, storePqFromRaw } from './readings.pq.js';
import { firstRawFrom, lastRawBefore, pick, presentNames, RAW_COLUMNS, rawWrite, readRaw, readRawAll } from './readings.raw.js';
import {
  floorTo,
  foldLevel,
  H1,
  type Level,
  levelFromRaw,
  M15,
  overlayLevel,
  type ParamSet,
  paramSetOf,
  sliceLevel,
} from './readings.rollup.js';
import { SqlRunner, type Tx, type Value } from './readings.sql.js';
import { type DayRow, dayTableWrite, foldDays, inList, packedTableWrite, readPacked } from './readings.table-writes.js';
import { type WriterTarget, WriterThread } from './readings.writer-thread.js';

/*
 * Storage of readings: raw rows (the durable truth) and rollups derived from them (quarter-hours and
 * hours packed per parameter and span, local days one row each).
 *
 * Write path. A device's rollups are complete for its readings before its watermark `rollup_through`
 * (devices table, always a whole hour). A reading at or after the watermark costs one raw row: nothing is
 * rolled up at once, so a live reading's cost does not depend on the rollup layout. Readings before the
 * watermark (late, repeated, out of order) recompute the quarter-hours they fall in from their raw rows,
 * and the hours and days above them, in the same transaction. The watermark moves forward in whole
 * hours: in the background (`compactDue`, paced, for every device whose readings passed it; up to the
 * end of the hour of its newest reading, so history sent in several requests is never late), or at once
 * when a batch of history brings whole hours (from the batch's own columns when nothing was stored where
 * it lands, else from the raw rows read back). Reads take rollups below the watermark and compute the
 * rest (at most about an hour) from raw rows, so every answer is complete and identical either way.
 *
 * Concurrency. Every write runs on the writer thread (readings.writer-thread.ts). SQLite: one at a time.
 * PostgreSQL: side by side on the thread's pool; a write locks its devices' rows (`FOR UPDATE`, in id
 * order) before reading the watermark, so ingest and compaction of one device serialize across server
 * instances; no advisory lock outlives its transaction.
 */

/**
 * PostgreSQL transactions the writer runs at once for a configured pool size: two, one waiting on its
 * round trips while the other goes on (at 2,000 live devices four at once took twice as long each, 14.6
 * vs 7.4 ms for 8.5 readings, contending for the same two cores and pages).
 */
export function pgWriteConcurrency(pgPoolSize: number): number {
  return Math.max(1, Math.min(2, Math.floor(pgPoolSize / 2)));
}

/** The writer thread's target: the SQLite file, or the PostgreSQL database with a pool of `concurrency` + 1 (compaction). */
function writerTarget(storage: Storage, concurrency: number): WriterTarget {
  if (storage.sqlite) return { dialect: 'sqlite', file: storage.location };
  const url = (storage.pgPool as pg.Pool & { options: { connectionString?: string } }).options.connectionString;
  if (!url) throw new Error('the readings writer thread needs the PostgreSQL connection string');
  return { dialect: 'postgres', url, poolSize: concurrency + 1 };
}

export interface RepositoryOptions {
  /** Run the writes on a worker thread (see readings.writer-thread.ts). */
  writerThread?: boolean;
  /** PostgreSQL with `writerThread`: the transactions at once the writer may run (its pool holds one more, for compaction). */
  pgWriteConcurrency?: number;
  rules?: CounterRules;
}

/** Most raw time one background compaction step reads (6 h: 21,600 readings at one a second). */
const COMPACT_CHUNK_MS = 6 * H1;
/** Devices looked at per background round. */
const COMPACT_DEVICES_PER_ROUND = 256;

/** A device's newly announced status (see `recordStatuses`). */
export interface StatusChange {
  id: number;
  status: string;
  weak: boolean;
}

/** Local days one step of a timezone rebuild writes (`rebuildDaysStep`). */
const REBUILD_DAYS_PER_STEP = 31;

export class ReadingsRepository {
  readonly rules: CounterRules;
  private readonly sql: SqlRunner;
  private readonly partitions = new Set<string>();
  /** With `writerThread`: the writes run on a worker thread (see readings.writer-thread.ts). */
  private readonly thread: WriterThread | null;

  constructor(
    private readonly storage: Storage,
    opts: RepositoryOptions = {},
  ) {
    this.rules = opts.rules ?? DEFAULT_COUNTER_RULES;
    this.sql = new SqlRunner(storage);
    this.thread = opts.writerThread ? new WriterThread(writerTarget(storage, opts.pgWriteConcurrency ?? 2), this.rules) : null;
  }

  /**
   * How many writes may be under way at once. SQLite without the thread: one (one connection). With
   * the thread: two, so the thread has the next flush waiting while the main thread hears of the last
   * (the thread still runs them one after another). PostgreSQL: `pgWriteConcurrency` (writes of one
   * device never overlap: the caller keeps them apart, and the device row locks would serialize them
   * anyway).
   */
  writeConcurrency(pgPoolSize: number): number {
    if (this.storage.sqlite) return this.thread ? 2 : 1;
    return pgWriteConcurrency(pgPoolSize);
  }

  /** The writer thread (null without one): other modules' writes that must not wait on the app's connection run there. */
  get writerThread(): WriterThread | null {
    return this.thread;
  }

  /** Stops the writer thread (after the writes already made); the storage itself is closed by its owner. */
  async close(): Promise<void> {
    await this.thread?.close();
  }

  /** Autocommit reads. */
  get reader(): Tx {
    return this.sql.reader;
  }

  /** SQLite statements prepared on the connections (the writer thread's and the app's): bounded whatever devices send. */
  async statementCount(): Promise<{ reads: number; writes: number }> {
    const reads = this.sql.sqlite?.cachedStatements ?? 0;
    if (this.thread) return { reads, writes: ((await this.thread.call('statementCount', [])) as { reads: number }).reads };
    return { reads, writes: reads };
  }

  // ---------------------------------------------------------------- writes

  /** Writes the batches in one transaction; nothing of it is visible or kept if any part fails. */
  async write(batches: readonly WriteBatch[]): Promise<void> {
    const work = batches.filter((b) => batchSize(b) > 0).map((b) => ('cols' in b ? b : columnarBatch(b)));
    if (work.length === 0) return;
    if (this.thread) {
      const flush = encodeFlush(work);
      await this.thread.call('write', [flush], [flush.data.buffer as ArrayBuffer]);
      return;
    }
    await this.writeColumnar(work);
  }

  /** `write` of batches already column-wise (the writer thread's entry). */
  async writeColumnar(work: readonly ColumnarBatch[]): Promise<void> {
    if (this.sql.dialect === 'postgres') {
      await this.ensurePartitions(work);
      // Live readings (short batches, nothing late): one statement; anything else, the transaction below.
      if (isLiveFlush(work) && (await this.sql.liveWrite(rawWrite(work, 'postgres'), deviceTouch(work)))) return;
    }
    await this.sql.transaction(async (tx) => {
      const marks = await this.lockDevices(
        tx,
        work.map((b) => b.deviceId),
      );
      // A device deleted since its readings were accepted: nothing to keep.
      const live = work.filter((b) => marks.has(b.deviceId));
      if (live.length === 0) return;
      const fresh = await this.freshSpans(tx, live, marks);
      // Every device's raw rows in one statement shape; then each device's late readings and history. When
      // every batch is fresh from its first reading on (nothing late, nothing stored where it lands, one
      // batch a device, timestamps increasing — checked with the devices locked), the rows are inserted
      // without an upsert's conflict handling (COPY straight into the table on PostgreSQL).
      const raw = rawWrite(live, tx.dialect);
      raw.insertOnly = live.every((b) => fresh.has(b) && firstAtOrAfter(b.ts, marks.get(b.deviceId) as number) === 0);
      await tx.upsert(raw);
      const touched = new Map<number, { newest: number; rssi: number | null }>();
      for (const b of live) {
        const w = marks.get(b.deviceId) as number;
        marks.set(b.deviceId, await this.rollDevice(tx, b, w, fresh.has(b)));
        const t = newestOf(b);
        const had = touched.get(b.deviceId);
        if (!had || t.newest >= had.newest) touched.set(b.deviceId, t);
      }
      await this.touchDevices(tx, touched, marks);
    });
  }

  /**
   * Last reading time and signal of the written devices (only ever forward), and their watermarks: one
   * statement on PostgreSQL (the rows are locked already), one small one per device on SQLite.
   */
  private async touchDevices(
    tx: Tx,
    touched: Map<number, { newest: number; rssi: number | null }>,
    marks: Map<number, number>,
  ): Promise<void> {
    if (tx.dialect === 'postgres') {
      const ids = [...touched.keys()];
      await tx.run(
        `UPDATE devices d SET
           last_rssi = CASE WHEN d.last_seen IS NULL OR d.last_seen <= u.ts THEN COALESCE(u.rssi, d.last_rssi) ELSE d.last_rssi END,
           last_seen = GREATEST(COALESCE(d.last_seen, u.ts), u.ts),
           rollup_through = u.w
         FROM unnest(?::int4[], ?::int8[], ?::float8[], ?::int8[]) AS u(id, ts, rssi, w) WHERE d.id = u.id`,
        [
          ids as unknown as Value,
          ids.map((id) => touched.get(id)?.newest) as unknown as Value,
          ids.map((id) => touched.get(id)?.rssi ?? null) as unknown as Value,
          ids.map((id) => marks.get(id)) as unknown as Value,
        ],
      );
      return;
    }
    for (const [id, t] of touched) {
      await tx.run(
        `UPDATE devices SET
           last_rssi = CASE WHEN last_seen IS NULL OR last_seen <= ? THEN COALESCE(?, last_rssi) ELSE last_rssi END,
           last_seen = MAX(COALESCE(last_seen, ?), ?),
           rollup_through = ?
         WHERE id = ?`,
        [t.newest, t.rssi, t.newest, t.newest, marks.get(id) as number, id],
      );
    }
  }

  /**
   * The watermarks of devices, locked for the rest of the transaction on PostgreSQL (row locks in id
   * order, so two writers never deadlock); missing devices are left out.
   */
  private async lockDevices(tx: Tx, ids: readonly number[]): Promise<Map<number, number>> {
    const sorted = [...new Set(ids)].sort((a, b) => a - b);
    const out = new Map<number, number>();
    if (tx.dialect === 'postgres') {
      const rows = await tx.all('SELECT id, rollup_through FROM devices WHERE id = ANY(?::int4[]) ORDER BY id FOR UPDATE', [
        sorted as unknown as Value,
      ]);
      for (const r of rows) out.set(Number(r.id), Number(r.rollup_through));
      return out;
    }
    for (const id of sorted) {
      const [r] = await tx.all('SELECT rollup_through FROM devices WHERE id = ?', [id]);
      if (r) out.set(id, Number(r.rollup_through));
    }
    return out;
  }

  /**
   * Batches whose rows above their device's watermark land where the device had no raw row yet (checked
   * before they are written; one batch of the device in the flush; timestamps strictly increasing): what
   * is stored there afterwards is exactly the batch, so its history is rolled up from its own columns
   * instead of read back (a history batch's read-back cost as much as writing it).
   */
  private async freshSpans(tx: Tx, live: readonly ColumnarBatch[], marks: Map<number, number>): Promise<Set<ColumnarBatch>> {
    const out = new Set<ColumnarBatch>();
    const perDevice = new Map<number, number>();
    for (const b of live) perDevice.set(b.deviceId, (perDevice.get(b.deviceId) ?? 0) + 1);
    for (const b of live) {
      const n = b.ts.length;
      const w = marks.get(b.deviceId) as number;
      const lo = firstAtOrAfter(b.ts, w);
      if (perDevice.get(b.deviceId) !== 1 || !rollsUpInline(b, lo, w)) continue;
      let increasing = true;
      for (let i = lo + 1; i < n && increasing; i++) increasing = (b.ts[i] as number) > (b.ts[i - 1] as number);
      if (!increasing) continue;
      const hit = await tx.arrays('SELECT 1 FROM readings WHERE device_id = ? AND ts >= ? AND ts <= ? LIMIT 1', [
        b.deviceId,
        b.ts[lo] as number,
        b.ts[n - 1] as number,
      ]);
      if (hit.length === 0) out.add(b);
    }
    return out;
  }

  /** After a device's raw rows are written: its late readings' buckets, and whole hours of history; returns the new watermark. */
  private async rollDevice(tx: Tx, b: ColumnarBatch, w: number, fresh: boolean): Promise<number> {
    const n = b.ts.length;
    let late = 0;
    while (late < n && (b.ts[late] as number) < w) late++;
    if (late > 0) {
      const names = b.index
        .filter((_, j) => {
          const col = b.cols[j] as Float64Array;
          for (let i = 0; i < late; i++) if (!Number.isNaN(col[i] as number)) return true;
          return false;
        })
        .map((i) => PARAMETER_NAMES[i] as string);
      await this.recompute(tx, b.deviceId, b.tz, b.ts.subarray(0, late), paramSetOf(names), w);
      // The power-quality aggregate counts every reading (one without voltage still ends an event run).
      await recomputePq(tx, b.deviceId, b.ts.subarray(0, late));
    }
    if (rollsUpInline(b, late, w)) {
      const next = floorTo(b.ts[n - 1] as number, H1);
      await this.rollUp(tx, b.deviceId, b.tz, w, next, fresh ? { batch: b, lo: late } : undefined);
      return next;
    }
    return w;
  }

  /**
   * Readings before the watermark: the quarter-hours they fall in are recomputed from their raw rows
   * (stored ones and the new ones, already upserted), then the hours and days above them. Only the
   * parameters the late readings carry can change.
   */
  private async recompute(tx: Tx, deviceId: number, tz: string, lateTs: Float64Array, ps: ParamSet, w: number): Promise<void> {
    // Touched quarter-hours, grouped into ranges (a day apart at most) read in one go.
    const ranges: [number, number][] = [];
    for (const ts of lateTs) {
      const q = floorTo(ts, M15);
      const last = ranges[ranges.length - 1];
      if (last && q < last[1] + 24 * H1) last[1] = Math.max(last[1], q + M15);
      else ranges.push([q, q + M15]);
    }
    const names = [...ps.instant, ...ps.counter];
    for (const [lo, hi] of ranges) {
      const raw = await readRawAll(tx, deviceId, lo, Math.min(hi, w));
      if (raw.ts.length === 0) continue;
      await this.apply(tx, deviceId, tz, levelFromRaw(pick(raw, names), ps, M15, this.rules), ps, w);
    }
  }

  /**
   * Rolls up every raw reading in [from, to) (whole hours; nothing of it rolled up yet). With `known`,
   * the rows from its batch's reading `lo` on are that batch's (see `freshSpans`): only the rows before
   * it are read.
   */
  private async rollUp(
    tx: Tx,
    deviceId: number,
    tz: string,
    from: number,
    to: number,
    known?: { batch: ColumnarBatch; lo: number },
  ): Promise<void> {
    const stored = await readRawAll(tx, deviceId, from, known ? Math.min(to, known.batch.ts[known.lo] as number) : to);
    const raw = known ? withBatch(stored, known.batch, known.lo, to, tx.dialect) : stored;
    if (raw.ts.length === 0) return;
    const ps = paramSetOf(presentNames(raw));
    const fresh = levelFromRaw(pick(raw, [...ps.instant, ...ps.counter]), ps, M15, this.rules);
    await this.apply(tx, deviceId, tz, fresh, ps, to);
    await storePqFromRaw(tx, deviceId, raw, from, to);
  }

  /**
   * Stores fresh quarter-hours (sorted, complete for the parameters of `ps`) and recomputes the hours and
   * local days holding them from all their quarter-hours (stored ones below `limit`, overlaid with the
   * fresh ones); other parameters of the stored rows stay as they are.
   */
  private async apply(tx: Tx, deviceId: number, tz: string, fresh: Level, ps: ParamSet, limit: number): Promise<void> {
    if (fresh.bucket.length === 0) return;
    const names = [...ps.instant, ...ps.counter];
    const firstQ = fresh.bucket[0] as number;
    const lastQ = fresh.bucket[fresh.bucket.length - 1] as number;
    const hourLo = floorTo(firstQ, H1);
    const hourHi = floorTo(lastQ, H1) + H1;
    const edges = dayEdges(firstQ, lastQ + M15, tz);
    const dayLo = edges[0] as number;
    const dayHi = edges[edges.length - 1] as number;
    const readLo = Math.min(hourLo, dayLo);
    const readHi = Math.max(hourHi, dayHi);

    const stored15 = await readPacked(tx, deviceId, M15, names, readLo, readHi);
    const stored1h = await readPacked(tx, deviceId, H1, names, hourLo, hourHi);
    const storedDays = new Map<number, DayFigures>();
    for (const r of await tx.arrays('SELECT bucket, data FROM rollup_day WHERE device_id = ? AND bucket >= ? AND bucket < ?', [
      deviceId,
      dayLo,
      dayHi,
    ])) {
      storedDays.set(Number(r[0]), decodeDay(r[1] as Uint8Array));
    }

    const m15All = overlayLevel(levelFromPacked(stored15, ps, M15, readLo, Math.min(readHi, limit)), fresh, ps);
    const hours = foldLevel(sliceLevel(m15All, hourLo, hourHi, ps), ps, (t) => floorTo(t, H1), this.rules);
    const days = foldDays(m15All, edges, ps, this.rules);
    const dayEnd = new Map(edges.slice(0, -1).map((d, i) => [d, edges[i + 1] as number]));
    const dayRows: DayRow[] = days.bucket.map((bucket, k) => ({
      bucket,
      end: dayEnd.get(bucket) as number,
      n: days.n[k] as number,
      data: encodeDay(dayFiguresOf(days, k, ps, storedDays.get(bucket))),
    }));

    await tx.upsert(packedTableWrite(deviceId, [...packedWrites(fresh, ps, M15, stored15), ...packedWrites(hours, ps, H1, stored1h)]));
    await tx.upsert(dayTableWrite(deviceId, tz, dayRows));
  }

  /**
   * Background compaction: rolls up devices whose raw readings passed their watermark, up to `target`
   * (a whole hour), in steps of at most COMPACT_CHUNK_MS of raw time, until `budgetMs` is spent. True
   * when work is left.
   */
  async compactDue(target: number, budgetMs: number): Promise<boolean> {
    if (this.thread) return (await this.thread.call('compactDue', [target, budgetMs])) as boolean;
    const started = performance.now();
    const due = await this.sql.reader.all(
      'SELECT id FROM devices WHERE last_seen IS NOT NULL AND last_seen >= rollup_through AND rollup_through < ? ORDER BY rollup_through, id LIMIT ?',
      [target, COMPACT_DEVICES_PER_ROUND],
    );
    // Devices with nothing to roll up before `target` move on together; the others step by step.
    for (const id of await this.advanceEmpty(
      due.map((r) => Number(r.id)),
      target,
    )) {
      for (;;) {
        if (performance.now() - started > budgetMs) return true;
        if (await this.compactStep(id, target)) break;
      }
    }
    return due.length === COMPACT_DEVICES_PER_ROUND;
  }

  /**
   * `compactStep`'s first look for many devices in one transaction: their rows locked (so every reading
   * committed for them is seen), the watermark of each with no raw row in [watermark, target) and one
   * after `target` set to `target` in one statement. Answers the devices that have hours to roll up.
   * A fleet's first readings made every new device due (its watermark at 0): one transaction of six
   * statements per device, 12,000 statements for 2,000 devices beside their live writes.
   */
  private advanceEmpty(ids: readonly number[], target: number): Promise<number[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.sql.transaction(async (tx) => {
      const marks = await this.lockDevices(tx, ids);
      const open = [...marks].filter(([, w]) => w < target).map(([id]) => id);
      if (open.length === 0) return [];
      const rows = await tx.all(
        `SELECT d.id AS id,
           EXISTS (SELECT 1 FROM readings r WHERE r.device_id = d.id AND r.ts >= d.rollup_through AND r.ts < ?) AS before,
           EXISTS (SELECT 1 FROM readings r WHERE r.device_id = d.id AND r.ts >= ?) AS after
         FROM devices d WHERE d.id IN (${inList(open.length)})`,
        [target, target, ...open],
      );
      const yes = (v: unknown) => v === true || v === 1;
      const work = new Set<number>();
      const move: number[] = [];
      for (const r of rows) {
        if (yes(r.before)) work.add(Number(r.id));
        else if (yes(r.after)) move.push(Number(r.id));
      }
      if (move.length > 0) await tx.run(`UPDATE devices SET rollup_through = ? WHERE id IN (${inList(move.length)})`, [target, ...move]);
      // In the order they were due (oldest watermark first).
      return ids.filter((id) => work.has(id));
    });
  }

  /** One compaction step of a device in its own transaction; true when it reached `target`. */
  private compactStep(deviceId: number, target: number): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const w = (await this.lockDevices(tx, [deviceId])).get(deviceId);
      if (w === undefined || w >= target) return true;
      const [span] = await tx.arrays('SELECT MIN(ts), MAX(ts) FROM readings WHERE device_id = ? AND ts >= ? AND ts < ?', [
        deviceId,
        w,
        target,
      ]);
      const firstTs = span?.[0];
      if (firstTs === null || firstTs === undefined) {
        // Nothing to roll up before `target`. With readings after it, the watermark moves to `target`;
        // without, it stays where the readings end: moved up to `target`, every later reading before it
        // would be late (a device uploading its history in several requests, the compactor running
        // between them), and late readings are rolled up by reading their stored neighbours back.
        const after = await tx.arrays('SELECT 1 FROM readings WHERE device_id = ? AND ts >= ? LIMIT 1', [deviceId, target]);
        if (after.length > 0) await tx.run('UPDATE devices SET rollup_through = ? WHERE id = ?', [target, deviceId]);
        return true;
      }
      const from = floorTo(Number(firstTs), H1);
      // Up to the end of the hour of the newest reading at most: that hour is over, later ones may still come.
      const next = Math.min(target, from + COMPACT_CHUNK_MS, floorTo(Number(span?.[1]), H1) + H1);
      const [owner] = await tx.all('SELECT u.timezone AS tz FROM devices d JOIN users u ON u.id = d.user_id WHERE d.id = ?', [deviceId]);
      await this.rollUp(tx, deviceId, String(owner?.tz ?? 'UTC'), from, next);
      await tx.run('UPDATE devices SET rollup_through = ? WHERE id = ?', [next, deviceId]);
      return next >= target;
    });
  }

  /**
   * One step of rebuilding a device's local days in `tz` after its owner changed timezone: the days that
   * start in [cursor, a month later) from the stored quarter-hours, with every row of another zone that
   * starts before that month's end removed (rows of `tz` before the cursor are the earlier steps'). A step
   * reads a month of quarter-hours and writes ~31 rows, so ingest waits for at most that on the writer
   * (the whole device in one go held the SQLite writer ~0.1-0.8 s: another user's live ingest went from
   * 3.5 ms to 146 ms median while three users flipped timezones). Starts at the device's first
   * quarter-hour when `cursor` is null. Answers where the next step starts, or null when the rebuild is
   * done (the rows of other zones left are removed) or `tz` is no longer the owner's (a later read asks
   * again in the new one).
   */
  async rebuildDaysStep(deviceId: number, tz: string, cursor: number | null): Promise<number | null> {
    if (this.thread) return (await this.thread.call('rebuildDaysStep', [deviceId, tz, cursor])) as number | null;
    return this.sql.transaction(async (tx) => {
      await this.lockDevices(tx, [deviceId]);
      const [owner] = await tx.all('SELECT u.timezone AS tz FROM devices d JOIN users u ON u.id = d.user_id WHERE d.id = ?', [deviceId]);
      if (!owner || String(owner.tz) !== tz) return null;
      const [spans] = await tx.arrays('SELECT MIN(span), MAX(span) FROM rollup_packed WHERE device_id = ? AND width = ?', [deviceId, M15]);
      const firstSpan = spans?.[0];
      if (firstSpan === null || firstSpan === undefined) {
        await tx.run('DELETE FROM rollup_day WHERE device_id = ? AND tz <> ?', [deviceId, tz]);
        return null;
      }
      const quartersEnd = Number(spans?.[1]) + SLOTS * M15;
      const from = cursor ?? startOfLocalDay(Number(firstSpan), tz);
      const starts = localDayStarts(from, from + (REBUILD_DAYS_PER_STEP + 2) * 86_400_000, tz);
      const to = starts[REBUILD_DAYS_PER_STEP] ?? endOfDay(from, tz);
      const last = to >= quartersEnd;
      await tx.run('DELETE FROM rollup_day WHERE device_id = ? AND bucket < ? AND (tz <> ? OR bucket >= ?)', [deviceId, to, tz, from]);
      if (last) await tx.run('DELETE FROM rollup_day WHERE device_id = ? AND tz <> ?', [deviceId, tz]);
      const ps = paramSetOf(await this.presentIn('15m', deviceId, from, to, undefined, tx));
      const m15 = await this.levelOf('15m', deviceId, from, to, ps, undefined, tx);
      const first = m15.bucket[0];
      const lastBucket = m15.bucket[m15.bucket.length - 1];
      if (first !== undefined && lastBucket !== undefined) {
        const edges = [...localDayStarts(first, lastBucket + 1, tz), endOfDay(lastBucket, tz)];
        const days = foldDays(m15, edges, ps, this.rules);
        const dayEnd = new Map(edges.slice(0, -1).map((d, i) => [d, edges[i + 1] as number]));
        const rows = days.bucket.map((bucket, k) => ({
          bucket,
          end: dayEnd.get(bucket) as number,
          n: days.n[k] as number,
          data: encodeDay(dayFiguresOf(days, k, ps, undefined)),
        }));
        await tx.upsert(dayTableWrite(deviceId, tz, rows));
      }
      return last ? null : to;
    });
  }

  /** Rebuilds every local day of a device in `tz` at once (tests and tools; the app goes step by step). */
  async rebuildDays(deviceId: number, tz: string): Promise<void> {
    let cursor = await this.rebuildDaysStep(deviceId, tz, null);
    while (cursor !== null) cursor = await this.rebuildDaysStep(deviceId, tz, cursor);
  }

  /**
   * Records the statuses announced for devices (one statement per distinct status and signal), on the
   * writer with the devices' rows locked in id order like every write. A fleet coming online changes
   * thousands at once while the writer commits back to back: on the app's SQLite connection the update
   * waited for the writer's lock in SQLite's busy handler, which sleeps the event loop; on PostgreSQL it
   * locked the rows in scan order against the writer's id order (waits, and a deadlock is detected only
   * after a second).
   */
  async recordStatuses(changes: readonly StatusChange[]): Promise<void> {
    if (changes.length === 0) return;
    if (this.thread) {
      await this.thread.call('recordStatuses', [changes.map((c) => ({ id: c.id, status: c.status, weak: c.weak }))]);
      return;
    }
    const groups = new Map<string, number[]>();
    for (const c of changes) {
      const key = `${c.status}|${c.weak ? 1 : 0}`;
      const ids = groups.get(key);
      if (ids) ids.push(c.id);
      else groups.set(key, [c.id]);
    }
    await this.sql.transaction(async (tx) => {
      await this.lockDevices(
        tx,
        changes.map((c) => c.id),
      );
      for (const [key, ids] of groups) {
        const [status, weak] = key.split('|') as [string, string];
        if (tx.dialect === 'postgres') {
          await tx.run('UPDATE devices SET last_status = ?, last_weak = ? WHERE id = ANY(?::int4[])', [
            status,
            Number(weak),
            ids as unknown as Value,
          ]);
        } else {
          await tx.run(`UPDATE devices SET last_status = ?, last_weak = ? WHERE id IN (${inList(ids.length)})`, [
            status,
            Number(weak),
            ...ids,
          ]);
        }
      }
    });
  }

  /** Deletes a device with its readings and rollups in one transaction. */
  async deleteDevice(deviceId: number): Promise<void> {
    if (this.thread) {
      await this.thread.call('deleteDevice', [deviceId]);
      return;
    }
    await this.sql.transaction(async (tx) => {
      await this.lockDevices(tx, [deviceId]);
      for (const t of ['readings', 'rollup_packed', 'rollup_day', 'rollup_pq'])
        await tx.run(`DELETE FROM ${t} WHERE device_id = ?`, [deviceId]);
      await tx.run('DELETE FROM devices WHERE id = ?', [deviceId]);
    });
  }

  /**
   * Raw retention: drops raw rows older than `cutoff` (rollups stay; a watermark is always far newer than
   * the retention). PostgreSQL drops whole monthly partitions that end before the cutoff, then deletes
   * the rest row-wise.
   */
  async deleteRawBefore(cutoff: number, deviceIds: readonly number[]): Promise<void> {
    if (this.thread) {
      await this.thread.call('deleteRawBefore', [cutoff, [...deviceIds]]);
      return;
    }
    if (this.sql.dialect === 'postgres') {
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
    // The power-quality aggregate goes with its raw rows (its report is reproducible from them): its hours
    // before the cutoff; an hour the cutoff cuts that keeps raw rows is read from them until the backfill
    // (`backfillPq`) redoes it from what is left.
    const kept = floorTo(cutoff, H1) + (cutoff % H1 === 0 ? 0 : H1);
    for (const id of deviceIds) {
      await this.sql.reader.run('DELETE FROM readings WHERE device_id = ? AND ts < ?', [id, cutoff]);
      await this.sql.reader.run('DELETE FROM rollup_pq WHERE device_id = ? AND bucket < ?', [id, cutoff]);
      if (kept === cutoff) continue;
      await this.sql.reader.run(
        'UPDATE devices SET pq_from = ? WHERE id = ? AND pq_from < ? AND EXISTS (SELECT 1 FROM readings WHERE device_id = ? AND ts >= ? AND ts < ?)',
        [kept, id, kept, id, cutoff, kept],
      );
    }
  }

  /**
   * Builds the power-quality aggregate of readings from before it existed (devices with `pq_from` > 0, see
   * readings.pq.ts), a step of at most 6 h of raw rows per transaction, until `budgetMs` is spent. True when
   * work is left.
   */
  async backfillPq(budgetMs: number): Promise<boolean> {
    if (this.thread) return (await this.thread.call('backfillPq', [budgetMs])) as boolean;
    const started = performance.now();
    const due = await this.sql.reader.all('SELECT id FROM devices WHERE pq_from > 0 ORDER BY id LIMIT ?', [COMPACT_DEVICES_PER_ROUND]);
    for (const r of due) {
      const id = Number(r.id);
      for (;;) {
        if (performance.now() - started > budgetMs) return true;
        const done = await this.sql.transaction(async (tx) => {
          if (!(await this.lockDevices(tx, [id])).has(id)) return true;
          return pqBackfillStep(tx, id);
        });
        if (done) break;
      }
    }
    return due.length === COMPACT_DEVICES_PER_ROUND;
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

  // ---------------------------------------------------------------- reads

  /** The device's watermark: rollups hold every reading before it. */
  async watermark(deviceId: number, tx: Tx = this.sql.reader): Promise<number> {
    const [r] = await tx.all('SELECT rollup_through FROM devices WHERE id = ?', [deviceId]);
    return r ? Number(r.rollup_through) : 0;
  }

  /** Which hours the power-quality aggregate of a device holds (see readings.pq.ts). */
  pqCoverage(deviceId: number, tx: Tx = this.sql.reader): Promise<PqCoverage> {
    return pqCoverage(tx, deviceId);
  }

  /** Sets the bins of `agg` in [lo, hi) (whole hours inside the coverage) from the stored aggregate. */
  readPq(deviceId: number, agg: PqAggregate, lo: number, hi: number, tx: Tx = this.sql.reader): Promise<void> {
    return readPq(tx, deviceId, agg, lo, hi);
  }

  /** Raw rows of a device in [from, to) for some parameters, column-wise in their order. */
  async raw(deviceId: number, from: number, to: number, names: readonly string[], tx: Tx = this.sql.reader) {
    return readRaw(tx, deviceId, from, to, names);
  }

  /** Raw rows of a device in [from, to), every catalogue column (in catalogue order). */
  async rawAll(deviceId: number, from: number, to: number, tx: Tx = this.sql.reader) {
    return readRawAll(tx, deviceId, from, to);
  }

  /** Per counter, its newest raw reading in [since, before). */
  lastRaw(deviceId: number, counters: readonly string[], since: number, before: number) {
    return lastRawBefore(this.sql.reader, deviceId, counters, since, before);
  }

  /** Per counter, its oldest raw reading at or after `from`. */
  firstRaw(deviceId: number, counters: readonly string[], from: number) {
    return firstRawFrom(this.sql.reader, deviceId, counters, from);
  }

  /** Stored buckets of a level in [from, to) for a parameter set, column-wise. */
  async levelOf(
    level: PackedLevel | 'day',
    deviceId: number,
    from: number,
    to: number,
    ps: ParamSet,
    tz?: string,
    tx: Tx = this.sql.reader,
  ): Promise<Level> {
    if (level !== 'day') {
      const width = PACKED_WIDTHS[level];
      return levelFromPacked(await readPacked(tx, deviceId, width, [...ps.instant, ...ps.counter], from, to), ps, width, from, to);
    }
    const rows = await tx.arrays(
      'SELECT bucket, n, data FROM rollup_day WHERE device_id = ? AND bucket >= ? AND bucket < ? AND tz = ? ORDER BY bucket',
      [deviceId, from, to, tz ?? ''],
    );
    return levelFromDays(
      rows.map(([bucket, n, data]) => ({ bucket: Number(bucket), n: Number(n), data: data as Uint8Array })),
      ps,
    );
  }

  /**
   * Per counter, the run of its last stored hour before `before` (any distance back): one query for the
   * spans of the last month, then, for a counter not found there, a walk back through its older spans.
   */
  async lastStoredHour(deviceId: number, counters: readonly string[], before: number): Promise<Map<string, CounterRun>> {
    const out = new Map<string, CounterRun>();
    if (counters.length === 0) return out;
    const recent = spanOf(before, H1) - 8 * SLOTS * H1;
    const rows = await this.sql.reader.all(
      `SELECT param, span, data FROM rollup_packed WHERE device_id = ? AND width = ? AND param IN (${inList(counters.length)}) AND span >= ? AND span < ? ORDER BY span DESC`,
      [deviceId, H1, ...counters, recent, before],
    );
    for (const r of rows) {
      const c = String(r.param);
      if (out.has(c)) continue;
      const found = lastRunIn(decodeBlob(r.data as Uint8Array), Number(r.span), H1, before);
      if (found) out.set(c, found);
    }
    const older =
      'SELECT span, data FROM rollup_packed WHERE device_id = ? AND width = ? AND param = ? AND span < ? ORDER BY span DESC LIMIT 8';
    for (const c of counters) {
      if (out.has(c)) continue;
      let below = recent;
      for (;;) {
        const page = await this.sql.reader.all(older, [deviceId, H1, c, below]);
        let found: CounterRun | null = null;
        for (const r of page) {
          below = Number(r.span);
          found = lastRunIn(decodeBlob(r.data as Uint8Array), below, H1, before);
          if (found) break;
        }
        if (found) out.set(c, found);
        if (found || page.length < 8) break;
      }
    }
    return out;
  }

  /**
   * Per counter, the run of its first stored quarter-hour in [from, before): one query for the spans of the
   * next week, then, for a counter not found there, a walk forward through its later spans.
   */
  async firstStoredQuarter(deviceId: number, counters: readonly string[], from: number, before: number): Promise<Map<string, CounterRun>> {
    const out = new Map<string, CounterRun>();
    if (counters.length === 0) return out;
    const soon = Math.min(before, spanOf(from, M15) + 8 * SLOTS * M15);
    const rows = await this.sql.reader.all(
      `SELECT param, span, data FROM rollup_packed WHERE device_id = ? AND width = ? AND param IN (${inList(counters.length)}) AND span >= ? AND span < ? ORDER BY span`,
      [deviceId, M15, ...counters, spanOf(from, M15), soon],
    );
    for (const r of rows) {
      const c = String(r.param);
      if (out.has(c)) continue;
      const found = firstRunIn(decodeBlob(r.data as Uint8Array), Number(r.span), M15, from, before);
      if (found) out.set(c, found);
    }
    const later =
      'SELECT span, data FROM rollup_packed WHERE device_id = ? AND width = ? AND param = ? AND span >= ? AND span < ? ORDER BY span LIMIT 8';
    for (const c of counters) {
      if (out.has(c)) continue;
      let after = soon;
      for (;;) {
        const page = await this.sql.reader.all(later, [deviceId, M15, c, after, before]);
        let found: CounterRun | null = null;
        for (const r of page) {
          found = firstRunIn(decodeBlob(r.data as Uint8Array), Number(r.span), M15, from, before);
          after = Number(r.span) + 1;
          if (found) break;
        }
        if (found) out.set(c, found);
        if (found || page.length < 8) break;
      }
    }
    return out;
  }

  /**
   * Parameters the device has stored rollups of in [from, to) at a level; `among` limits the check to
   * those parameters (the energy source asks about 4 counters, not all ~60).
   */
  async presentIn(
    level: PackedLevel | 'day',
    deviceId: number,
    from: number,
    to: number,
    among: readonly string[] = [...INSTANT_PARAMETERS, ...COUNTER_PARAMETERS],
    tx: Tx = this.sql.reader,
  ): Promise<string[]> {
    if (among.length === 0) return [];
    if (level === 'day') {
      const found = new Set<string>();
      for (const [data] of await tx.arrays('SELECT data FROM rollup_day WHERE device_id = ? AND bucket >= ? AND bucket < ?', [
        deviceId,
        from,
        to,
      ])) {
        for (const p of dayParams(data as Uint8Array)) found.add(p);
      }
      return among.filter((p) => found.has(p));
    }
    const width = PACKED_WIDTHS[level];
    const length = SLOTS * width;
    // Spans wholly inside the range: a stored blob always holds a value, so its presence is the answer.
    const firstWhole = Math.ceil(from / length) * length;
    const found = new Set<string>();
    const whole = await tx.all(
      `SELECT DISTINCT param FROM rollup_packed WHERE device_id = ? AND width = ? AND param IN (${inList(among.length)}) AND span >= ? AND span <= ?`,
      [deviceId, width, ...among, firstWhole, to - length],
    );
    for (const r of whole) found.add(String(r.param));
    // The spans cut by the range's ends: look at their buckets.
    const edges = [...new Set([spanOf(from, width), spanOf(to - 1, width)])].filter((span) => span < firstWhole || span + length > to);
    for (const span of edges) {
      const rows = await tx.all(
        `SELECT param, data FROM rollup_packed WHERE device_id = ? AND width = ? AND param IN (${inList(among.length)}) AND span = ?`,
        [deviceId, width, ...among, span],
      );
      for (const r of rows) {
        const param = String(r.param);
        const data = decodeBlob(r.data as Uint8Array);
        if (blobHasValueIn({ counter: COUNTER_PARAMETERS.includes(param) }, data, span, width, from, to)) found.add(param);
      }
    }
    return among.filter((p) => found.has(p));
  }

  /** Parameters with a raw value in [from, to) (one fixed statement over every column). */
  async presentInRaw(deviceId: number, from: number, to: number): Promise<string[]> {
    if (from >= to) return [];
    const checks = RAW_COLUMNS.map((c) => `MAX(CASE WHEN "${c}" IS NOT NULL THEN 1 ELSE 0 END)`).join(', ');
    const [row] = await this.sql.reader.arrays(`SELECT ${checks} FROM readings WHERE device_id = ? AND ts >= ? AND ts < ?`, [
      deviceId,
      from,
      to,
    ]);
    return RAW_COLUMNS.filter((_, j) => Number(row?.[j]) === 1);
  }

  /** True when local-day rows of another timezone exist (the owner changed zone): they must be rebuilt. */
  async dayLevelStale(deviceId: number, tz: string): Promise<boolean> {
    const rows = await this.sql.reader.all('SELECT 1 AS x FROM rollup_day WHERE device_id = ? AND tz <> ? LIMIT 1', [deviceId, tz]);
    return rows.length > 0;
  }
}
