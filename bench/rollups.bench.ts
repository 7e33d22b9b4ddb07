import { bucketEnergy, localDayStarts, zonedTimeToUtc } from '@phasewatch/shared';
import { type ReadingsColumns, releaseColumns } from '../apps/server/src/modules/readings/index.js';
import type { BenchContext } from './run.js';
import { devicesOf, footprintOf, perReading, v1Footprint } from './support/footprint.js';
import { timed } from './support/timing.js';
import { BENCH_PARAMS, benchApp, benchReadings } from './telemetry-fixtures.js';

const TZ = 'Europe/Warsaw';
const MIN = 60_000;
/** Readings per writer call while loading: an ingest request's worth. */
const LOAD_BATCH = 5000;

/** A year of readings as the simulator sends them, with a counter reset and a 6-hour gap thrown in. */
function yearOfReadings(from: number, to: number, stepMs: number) {
  const rows = benchReadings(from, Math.floor((to - from) / stepMs), stepMs);
  const resetAt = zonedTimeToUtc(TZ, 2025, 6, 14, 12);
  const gapFrom = zonedTimeToUtc(TZ, 2025, 10, 26, 1);
  const gapTo = gapFrom + 6 * 3_600_000;
  let offset: number | null = null;
  const out: typeof rows = [];
  for (const r of rows) {
    if (r.ts >= gapFrom && r.ts < gapTo) continue;
    const e = r.values.eai1 as number;
    // A meter swap mid-June: the counter restarts near zero and keeps growing from there.
    if (r.ts >= resetAt) offset ??= e - 0.5;
    out.push(offset === null ? r : { ts: r.ts, values: { ...r.values, eai1: Math.round((e - offset) * 1000) / 1000 } });
  }
  return out;
}

/** A figure of an answer column, 0 where it has none (NaN: null in the JSON). */
const orZero = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? 0 : x);

/** The first difference between two answers (exact comparison of every number), or null. */
function firstMismatch(a: ReadingsColumns, b: ReadingsColumns): string | null {
  if (a.ts.length !== b.ts.length) return `bucket count ${a.ts.length} vs ${b.ts.length}`;
  for (let i = 0; i < a.ts.length; i++) if (a.ts[i] !== b.ts[i]) return `ts[${i}] ${a.ts[i]} vs ${b.ts[i]}`;
  for (const [p, s] of Object.entries(a.series)) {
    const t = b.series[p] as Record<string, unknown> | undefined;
    if (!t) return `${p} missing from raw answer`;
    for (const [k, v] of Object.entries(s)) {
      if (!(v instanceof Float64Array)) continue;
      const w = t[k] as Float64Array;
      for (let i = 0; i < v.length; i++) {
        if (!Object.is(v[i], w[i]))
          return `${p}.${k}[${i}] (bucket ${new Date(a.ts[i] ?? 0).toISOString()}): rollups ${v[i]} vs raw ${w[i]}`;
      }
    }
  }
  return Object.keys(b.series).length === Object.keys(a.series).length ? null : 'series sets differ';
}

async function oneDialect(ctx: BenchContext, dialect: 'sqlite' | 'postgres', stepMs: number): Promise<void> {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const from = zonedTimeToUtc(TZ, 2025, 1, 1);
  const to = zonedTimeToUtc(TZ, 2026, 1, 1);
  const rows = yearOfReadings(from, to, stepMs);
  const app = await benchApp(dialect, ctx.pgUrl);
  try {
    const { telemetry } = app.ctx;
    const identity = await telemetry.ingest.authenticate(app.ingestKey);
    if (identity.timezone !== TZ) throw new Error(`bench user is in ${identity.timezone}, expected ${TZ}`);
    // Loaded through the shared batched writer (raw rows and every rollup level, as ingest writes them).
    const t0 = performance.now();
    for (let i = 0; i < rows.length; i += LOAD_BATCH) {
      await telemetry.writer.write({ deviceId: app.deviceId, tz: TZ, readings: rows.slice(i, i + LOAD_BATCH) });
    }
    // History batches roll their whole hours up at once; the last hour is rolled up by the compactor.
    await telemetry.compactNow();
    const loadS = (performance.now() - t0) / 1000;
    ctx.report(
      `${label} load: a year of ${stepMs / MIN}-minute readings`,
      rows.length / loadS,
      'readings/s',
      `${rows.length.toLocaleString('en')} readings in ${loadS.toFixed(1)} s`,
    );

    // Independently of the rollup code: plain per-bucket formulas over the raw readings.
    const daily = await telemetry.readings.readings(app.deviceId, TZ, { from, to, interval: '24h', params: ['eai1'] });
    const edges = [...localDayStarts(from, to, TZ), to];
    const expected = bucketEnergy(
      rows.map((r) => ({ ts: r.ts, value: r.values.eai1 as number })),
      edges,
    ).energy;
    const delta = (daily.series.eai1 as { delta: Float64Array }).delta;
    let worstEnergy = 0;
    edges.slice(0, -1).forEach((_, i) => {
      worstEnergy = Math.max(worstEnergy, Math.abs(orZero(delta[i]) - (expected[i] ?? 0)));
    });
    const q15 = await telemetry.readings.readings(app.deviceId, TZ, { from, to, interval: '15m', params: ['vave1'] });
    const avg = (q15.series.vave1 as { avg: Float64Array }).avg;
    let worstAvg = 0;
    let j = 0;
    q15.ts.forEach((bucket, i) => {
      let sum = 0;
      let count = 0;
      while (j < rows.length && (rows[j]?.ts as number) < bucket + 15 * MIN) {
        sum += rows[j]?.values.vave1 as number;
        count++;
        j++;
      }
      worstAvg = Math.max(worstAvg, Math.abs(orZero(avg[i]) - sum / count));
    });
    // Averages are answered to 2 decimals (V), energy to 1 mWh.
    if (delta.length !== edges.length - 1 || worstEnergy > 1e-6 || worstAvg > 0.005 + 1e-9) {
      throw new Error(`${label}: rollups differ from per-bucket formulas: energy ${worstEnergy} kWh, voltage average ${worstAvg} V`);
    }
    ctx.report(
      `${label} check vs per-bucket formulas (max |Δ|)`,
      worstEnergy,
      'kWh',
      `daily energy (${delta.length} local days, 23 h / 25 h included); 15-min voltage avg |Δ| ${worstAvg.toExponential(1)} V`,
    );
    // The readings are in the database now; a server does not hold them as objects, and 525,240 of them
    // alive here made every garbage collection of the timed calls below mark them all.
    rows.length = 0;

    const cases = [
      { name: 'a year of 15-minute data, 10 parameters', q: { from, to, interval: '15m' as const, params: [...BENCH_PARAMS] } },
      { name: 'a year of 15-minute power (one chart)', q: { from, to, interval: '15m' as const, params: ['pave1'] } },
      { name: 'a year of daily energy (local days)', q: { from, to, interval: '24h' as const, params: ['eai1'] } },
    ];
    for (const { name, q } of cases) {
      const roll = await timed(3, 7, () => telemetry.readings.readings(app.deviceId, TZ, q), releaseColumns);
      const raw = await timed(1, 1, () => telemetry.readings.readingsFromRaw(app.deviceId, TZ, q));
      const ratio = raw.ms / roll.ms;
      ctx.report(
        `${label} ${name}, from rollups`,
        roll.ms,
        'ms',
        `${roll.value.ts.length} buckets; ${ratio.toFixed(0)}× faster than from raw (target ≥ 20×)`,
      );
      ctx.report(`${label} ${name}, from raw rows`, raw.ms, 'ms', 'baseline (same answer folded from raw rows)');
      const mismatch = firstMismatch(roll.value, raw.value);
      if (mismatch) throw new Error(`${label} ${name}: rollups and raw rows disagree: ${mismatch}`);
    }

    // Disk per stored reading, and the same readings in the previous layout (SQLite, same run).
    const f = await footprintOf(app.ctx.storage);
    const note = `raw ${(f.rawBytes / f.readings).toFixed(0)} B + rollups ${(f.rollupBytes / f.readings).toFixed(0)} B; ${f.readings.toLocaleString('en')} readings of ${BENCH_PARAMS.length} parameters`;
    if (dialect === 'sqlite') {
      const repo = telemetry.readingsRepository;
      const v1 = await v1Footprint(devicesOf(app.ctx.storage, (id) => repo.rawAll(id, 0, Number.MAX_SAFE_INTEGER)));
      ctx.report(
        `${label} bytes per stored reading`,
        perReading(f),
        'B',
        `${note}; ${((perReading(f) / perReading(v1)) * 100).toFixed(0)} % of the previous layout (a 10-parameter meter; the ≤ 50 % target is on full three-phase readings: bench footprint)`,
      );
      ctx.report(
        `${label} bytes per stored reading, previous layout`,
        perReading(v1),
        'B',
        `baseline: raw ${(v1.rawBytes / v1.readings).toFixed(0)} B + rollups ${(v1.rollupBytes / v1.readings).toFixed(0)} B`,
      );
    } else ctx.report(`${label} bytes per stored reading`, perReading(f), 'B', note);
  } finally {
    await app.close();
  }
}

/**
 * Rollups against raw rows for one device with a year of data, on SQLite and PostgreSQL: a year of
 * 15-minute data and a year of local-day energy, each from the stored rollups (the readings service)
 * and the same answer folded from raw rows in the same run. The two answers must be identical to the
 * last bit (a mismatch fails the bench with the first differing figure); a second check compares
 * against plain per-bucket formulas. 1-minute data (what the simulator sends) on both dialects, loaded
 * through the batched writer; about a minute per dialect on two shared cores.
 */
export default async function rollupsBench(ctx: BenchContext): Promise<void> {
  await oneDialect(ctx, 'sqlite', MIN);
  await oneDialect(ctx, 'postgres', MIN);
}
