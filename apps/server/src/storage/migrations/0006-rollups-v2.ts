import { COUNTER_PARAMETERS, DEFAULT_COUNTER_RULES, INSTANT_PARAMETERS, PARAMETER_NAMES } from '@phasewatch/shared';
import { type Kysely, sql } from 'kysely';
import { bigint } from '../columns.js';
import type { Dialect } from '../database.js';
import { type DayFigures, dayFiguresOf, encodeDay } from './legacy/v2-days.js';
import { levelFromPacked, type PackedRow, packedOf } from './legacy/v2-packed.js';
import { foldLevel, H1, M15, paramSetOf } from './legacy/v2-rollup.js';

const SLOTS = 96;
type Row = Record<string, unknown>;

/**
 * Rollups, version 2 (energy where it was used). What a bucket keeps of a counter becomes its run (first
 * and last reading with their times, the energy inside, the high-water mark, the longest gap; see
 * CounterRun in packages/shared), so a bucket boundary is interpolated from its neighbours at read time.
 * The 5-minute level goes (nothing reads it; quarter-hours are built from raw rows), local days become
 * one blob per row, devices get the rollup watermark `rollup_through`, and SQLite raw values are stored
 * scaled where that is exact (readings.raw.ts), which makes them 2–4 bytes instead of 8.
 *
 * Where raw rows exist, rollups are rebuilt from them: this migration clears every rollup from the
 * first whole hour with raw rows on and sets the watermark there; the background compaction then rebuilds
 * those hours from raw rows while the app runs (answers are complete meanwhile: reads compute what lies
 * past the watermark from raw rows). Older rollups, whose raw rows retention dropped, are converted: their
 * runs take the bucket's start and end as first and last reading time (v1 kept no times), and a v1 delta
 * that was not last − first is kept as energy after a reset.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const big = bigint(dialect);
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  await sql.raw(`ALTER TABLE devices ADD COLUMN rollup_through ${big} NOT NULL DEFAULT 0`).execute(db);
  await sql.raw('DELETE FROM rollup_packed WHERE width = 300000').execute(db);
  await sql
    .raw(
      `CREATE TABLE rollup_day_v2 (device_id integer NOT NULL, bucket ${big} NOT NULL, bucket_end ${big} NOT NULL, tz varchar(64) NOT NULL, n integer NOT NULL, data ${blob} NOT NULL, PRIMARY KEY (device_id, bucket))`,
    )
    .execute(db);

  const ids = new Set<number>();
  for (const table of ['rollup_packed', 'rollup_day', 'readings']) {
    const rows = await sql.raw<{ device_id: number }>(`SELECT DISTINCT device_id FROM ${table}`).execute(db);
    for (const r of rows.rows) ids.add(Number(r.device_id));
  }
  for (const id of [...ids].sort((a, b) => a - b)) await convertDevice(db, id);

  await sql.raw('DROP TABLE rollup_day').execute(db);
  await sql.raw('ALTER TABLE rollup_day_v2 RENAME TO rollup_day').execute(db);

  if (dialect === 'sqlite') {
    // Raw values scaled by 1000 where exact (an integral REAL is stored as a small integer).
    const set = PARAMETER_NAMES.map(
      (c) => `"${c}" = CASE WHEN "${c}" IS NOT NULL AND round("${c}" * 1000) / 1000.0 = "${c}" THEN round("${c}" * 1000) ELSE "${c}" END`,
    );
    await sql.raw(`UPDATE readings SET ${set.join(', ')}`).execute(db);
  }
}

const ceilTo = (t: number, w: number) => Math.ceil(t / w) * w;

async function convertDevice(db: Kysely<unknown>, id: number): Promise<void> {
  const first = await sql.raw<Row>(`SELECT MIN(ts) AS t FROM readings WHERE device_id = ${id}`).execute(db);
  const firstRaw = first.rows[0]?.t;
  let watermark: number;
  if (firstRaw !== null && firstRaw !== undefined) watermark = ceilTo(Number(firstRaw), H1);
  else {
    const last = await sql.raw<Row>(`SELECT MAX(span) AS s FROM rollup_packed WHERE device_id = ${id} AND width = ${M15}`).execute(db);
    const lastSpan = last.rows[0]?.s;
    watermark = lastSpan === null || lastSpan === undefined ? 0 : Number(lastSpan) + SLOTS * M15;
  }

  // Packed levels: counters to the v2 layout; every slot from the watermark on cleared (rebuilt from raw rows).
  for (const width of [M15, H1]) {
    const rows = await sql
      .raw<{ param: string; span: number | string; data: Uint8Array }>(
        `SELECT param, span, data FROM rollup_packed WHERE device_id = ${id} AND width = ${width}`,
      )
      .execute(db);
    for (const r of rows.rows) {
      const span = Number(r.span);
      const v1 = new Float64Array(new Uint8Array(r.data).buffer);
      const counter = COUNTER_PARAMETERS.includes(r.param);
      const v2 = counter ? counterV2(v1, span, width) : v1.slice();
      const sections = counter ? 8 : r.param === '_n' ? 1 : 4;
      let any = false;
      for (let s = 0; s < SLOTS; s++) {
        if (span + s * width >= watermark) clearSlot(v2, s, counter, sections);
        else if (counter ? !Number.isNaN(v2[s] as number) : (v2[(sections - 1) * SLOTS + s] as number) > 0) any = true;
      }
      const where = `device_id = ${id} AND width = ${width} AND param = '${r.param}' AND span = ${span}`;
      if (!any) await sql.raw(`DELETE FROM rollup_packed WHERE ${where}`).execute(db);
      else await sql`UPDATE rollup_packed SET data = ${Buffer.from(v2.buffer)} WHERE ${sql.raw(where)}`.execute(db);
    }
  }

  // Local days: whole days before the watermark converted, the day it cuts rebuilt from its quarter-hours.
  const days = await sql.raw<Row>(`SELECT * FROM rollup_day WHERE device_id = ${id} ORDER BY bucket`).execute(db);
  for (const d of days.rows) {
    const bucket = Number(d.bucket);
    const end = Number(d.bucket_end);
    if (bucket >= watermark) continue;
    let figures: DayFigures;
    let n = Number(d.n);
    if (end <= watermark) figures = dayFromWide(d, bucket, end);
    else {
      const stored = await sql
        .raw<PackedRow>(
          `SELECT param, span, data FROM rollup_packed WHERE device_id = ${id} AND width = ${M15} AND span >= ${bucket - 86_400_000} AND span < ${end}`,
        )
        .execute(db);
      const packed = packedOf(stored.rows);
      const ps = paramSetOf([...packed.keys()].filter((p) => p !== '_n'));
      const quarters = levelFromPacked(packed, ps, M15, bucket, watermark);
      const day = foldLevel(quarters, ps, () => bucket, DEFAULT_COUNTER_RULES);
      if (day.bucket.length === 0) continue;
      figures = dayFiguresOf(day, 0, ps, undefined);
      n = day.n[0] as number;
    }
    await sql`INSERT INTO rollup_day_v2 (device_id, bucket, bucket_end, tz, n, data) VALUES (${id}, ${bucket}, ${end}, ${String(d.tz)}, ${n}, ${encodeDay(figures)})`.execute(
      db,
    );
  }
  await sql.raw(`UPDATE devices SET rollup_through = ${watermark} WHERE id = ${id}`).execute(db);
}

/** A v1 counter blob (first | last | delta) as v2 runs, the bucket's start and end as reading times. */
function counterV2(v1: Float64Array, span: number, width: number): Float64Array {
  const v2 = new Float64Array(8 * SLOTS);
  for (let s = 0; s < SLOTS; s++) {
    const f = v1[s] as number;
    if (Number.isNaN(f)) {
      clearSlot(v2, s, true, 8);
      continue;
    }
    const l = v1[SLOTS + s] as number;
    const d = v1[2 * SLOTS + s] as number;
    const run = runFromV1(f, l, d, span + s * width, width);
    run.forEach((x, i) => {
      v2[i * SLOTS + s] = x;
    });
  }
  return v2;
}

/** firstTs, first, lastTs, last, peak, post, top, gap of a v1 summary. */
function runFromV1(first: number, last: number, delta: number, bucket: number, width: number): number[] {
  const plain = last >= first && Math.abs(last - first - delta) < 1e-9;
  return plain
    ? [bucket, first, bucket + width - 1, last, last, Number.NaN, last, 0]
    : [bucket, first, bucket + width - 1, last, first, delta, last, 0];
}

function clearSlot(b: Float64Array, s: number, counter: boolean, sections: number): void {
  if (counter) {
    for (let f = 0; f < 7; f++) b[f * SLOTS + s] = Number.NaN;
    b[7 * SLOTS + s] = 0;
  } else for (let f = 0; f < sections; f++) b[f * SLOTS + s] = 0;
}

/** A v1 wide day row as v2 figures. */
function dayFromWide(d: Row, bucket: number, end: number): DayFigures {
  const out: DayFigures = new Map();
  PARAMETER_NAMES.forEach((p, index) => {
    if (INSTANT_PARAMETERS.includes(p)) {
      const n = d[`${p}_n`];
      if (n === null || n === undefined || Number(n) === 0) return;
      out.set(index, Float64Array.of(Number(d[`${p}_sum`]), Number(d[`${p}_min`]), Number(d[`${p}_max`]), Number(n)));
      return;
    }
    const f = d[`${p}_first`];
    if (f === null || f === undefined) return;
    out.set(
      index,
      Float64Array.from(runFromV1(Number(f), Number(d[`${p}_last`] ?? f), Number(d[`${p}_delta`] ?? 0), bucket, end - bucket)),
    );
  });
  return out;
}
