import { isDeepStrictEqual } from 'node:util';
import { localWeek, type PowerQualityResponse } from '@phasewatch/shared';
import { DevicesRepository } from '../apps/server/src/modules/devices/index.js';
import { LocationsRepository } from '../apps/server/src/modules/locations/index.js';
import { loadPowerQualityReport, type PowerQualitySource } from '../apps/server/src/modules/power-quality/index.js';
import { DEMO_FLEET } from '../apps/simulator/src/embedded.js';
import { createModel, KIND_TYPE_CODES } from '../apps/simulator/src/models/index.js';
import type { BenchContext } from './run.js';
import { timed } from './support/timing.js';
import { benchApp } from './telemetry-fixtures.js';

/*
 * The power-quality report (issue 30): GET /api/devices/:id/power-quality over HTTP for a week of one
 * reading every 5 s of a three-phase meter (120,960 readings; answered from the 10-minute aggregate and the
 * raw rows of the bins holding event candidates; target ≤ 300 ms on SQLite and PostgreSQL), against the plain
 * raw read of the same columns in the same run (the floor any answer from raw rows pays), and checked equal to
 * the report computed from every raw reading; then a year of weekly verdicts of the demo meter (1-minute readings).
 */

const TZ = 'Europe/Warsaw';
const WEEK = '2026-11-16';
const LOAD_BATCH = 5000;
const NAMES = ['vave1', 'vmin1', 'vmax1', 'vave2', 'vmin2', 'vmax2', 'vave3', 'vmin3', 'vmax3', 'frq1'];

async function register(app: Awaited<ReturnType<typeof benchApp>>, name: string, mac: string, typeCode: number, interval: number) {
  const res = await fetch(`${app.base}/api/devices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${app.token}` },
    body: JSON.stringify({ name, mac, typeCode, reportingIntervalSeconds: interval }),
  });
  return ((await res.json()) as { device: { id: number } }).device.id;
}

/** Readings of the demo household model every `stepMs` in [from, to), written through the batched writer. */
async function load(app: Awaited<ReturnType<typeof benchApp>>, deviceId: number, seed: number, from: number, to: number, stepMs: number) {
  const model = createModel('household', { seed, timeZone: TZ });
  let batch: { ts: number; values: Record<string, number> }[] = [];
  let n = 0;
  for (let ts = from; ts < to; ts += stepMs) {
    model.step(ts);
    const values: Record<string, number> = {};
    model.params.forEach((p, k) => {
      values[p] = model.values[k] as number;
    });
    batch.push({ ts, values });
    if (batch.length === LOAD_BATCH) {
      await app.ctx.telemetry.writer.write({ deviceId, tz: TZ, readings: batch });
      n += batch.length;
      batch = [];
    }
  }
  if (batch.length) await app.ctx.telemetry.writer.write({ deviceId, tz: TZ, readings: batch });
  return n + batch.length;
}

async function oneDialect(ctx: BenchContext, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const app = await benchApp(dialect, ctx.pgUrl);
  try {
    const { from, to } = localWeek(WEEK, TZ);
    const meter = await register(app, 'Three-phase 5 s', '02:9A:00:00:00:01', 13, 5);
    const loaded = await load(app, meter, 30, from, to, 5000);
    if (loaded !== 120_960) throw new Error(`expected 120,960 readings, loaded ${loaded}`);
    await app.ctx.telemetry.compactNow();

    const url = `${app.base}/api/devices/${meter}/power-quality?week=${WEEK}`;
    const headers = { authorization: `Bearer ${app.token}` };
    const http = await timed(2, 7, async () => {
      const res = await fetch(url, { headers });
      if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
      return (await res.json()) as PowerQualityResponse;
    });
    const repo = app.ctx.telemetry.readingsRepository;
    const floor = await timed(2, 7, () => repo.raw(meter, from, to, NAMES));
    if (floor.value.ts.length !== 120_960) throw new Error(`raw read gave ${floor.value.ts.length} rows`);
    const src: PowerQualitySource = {
      db: app.ctx.storage.db,
      devices: new DevicesRepository(app.ctx.storage.db, app.ctx.storage.dialect),
      locations: new LocationsRepository(app.ctx.storage.db),
      readings: repo,
    };
    // The aggregate's answer is the raw computation's, figure for figure.
    const fromAggregate = await loadPowerQualityReport(src, app.userId, meter, WEEK);
    const fromRaw = await loadPowerQualityReport(src, app.userId, meter, WEEK, Date.now(), { raw: true });
    if (!isDeepStrictEqual(fromAggregate, fromRaw)) throw new Error('the report from the aggregate differs from the raw computation');
    const r = http.value;
    ctx.report(
      `${label} power-quality week, 120,960 readings every 5 s (3 phases), HTTP`,
      http.ms,
      'ms',
      `target ≤ 300 ms; ${r.bins} bins, verdict ${r.verdict}, N ${r.phases.map((p) => p.n).join('/')}, ${r.events.length} events; ` +
        `plain raw read of the 10 columns ${floor.ms.toFixed(0)} ms (${(http.ms / floor.ms).toFixed(2)}× it)`,
    );

    // A year of weekly verdicts of the demo meter (the embedded fleet's model and seed, a reading a minute).
    const spec = DEMO_FLEET.find((d) => d.slot === 'home-meter');
    if (!spec) throw new Error('no demo home meter');
    const demo = await register(app, spec.name, '02:9A:00:00:00:02', KIND_TYPE_CODES[spec.kind], 60);
    const yearFrom = localWeek('2025-11-17', TZ).from;
    const yearTo = localWeek('2026-11-16', TZ).from;
    const t0 = performance.now();
    const yearReadings = await load(app, demo, spec.seed, yearFrom, yearTo, 60_000);
    await app.ctx.telemetry.compactNow();
    const loadS = (performance.now() - t0) / 1000;
    const weeks: string[] = [];
    for (let d = Date.parse('2025-11-17T12:00:00Z'); d < Date.parse('2026-11-16T00:00:00Z'); d += 7 * 86_400_000)
      weeks.push(new Date(d).toISOString().slice(0, 10));
    const year = await timed(1, 3, async () => {
      const verdicts: string[] = [];
      for (const w of weeks) verdicts.push((await loadPowerQualityReport(src, app.userId, demo, w)).verdict);
      return verdicts;
    });
    const counts = year.value.reduce<Record<string, number>>((acc, v) => {
      acc[v] = (acc[v] ?? 0) + 1;
      return acc;
    }, {});
    ctx.report(
      `${label} a year of weekly verdicts, demo meter (1-minute readings)`,
      year.ms,
      'ms',
      `${weeks.length} weeks (${(year.ms / weeks.length).toFixed(0)} ms a week), ${JSON.stringify(counts)}; ` +
        `${yearReadings.toLocaleString('en')} readings loaded in ${loadS.toFixed(0)} s`,
    );
  } finally {
    await app.close();
  }
}

export default async function quality(ctx: BenchContext): Promise<void> {
  await oneDialect(ctx, 'sqlite');
  await oneDialect(ctx, 'postgres');
}
