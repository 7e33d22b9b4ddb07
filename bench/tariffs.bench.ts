import { type Advisor, type TariffStats, type ZoneSchedule, zonedTimeToUtc } from '@phasewatch/shared';
import { placeDemoFleet } from '../apps/simulator/src/demo-place.js';
import { DEMO_FLEET } from '../apps/simulator/src/embedded.js';
import { createModel, KIND_TYPE_CODES } from '../apps/simulator/src/models/index.js';
import type { BenchContext } from './run.js';
import { timed } from './support/timing.js';
import { benchApp } from './telemetry-fixtures.js';

const TZ = 'Europe/Warsaw';
const MIN = 60_000;
const FROM = '2025-01-01';
const TO = '2026-01-01';
/** Readings per writer call while loading: an ingest request's worth. */
const LOAD_BATCH = 5000;
/** The demo location "Home" and its devices (the embedded fleet's slots and seeds). */
const HOME_SLOTS = ['home-meter', 'solar', 'thermostat'];

/** The first figure where two answers differ (costs compared to the grosz, energy to 1 mWh), or null. */
function mismatch(a: unknown, b: unknown, path = ''): string | null {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 0.005 ? null : `${path}: ${a} vs ${b}`;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}: ${a.length} vs ${b.length} entries`;
    for (let i = 0; i < a.length; i++) {
      const m = mismatch(a[i], b[i], `${path}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const m = mismatch((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (m) return m;
    }
    return null;
  }
  return a === b ? null : `${path}: ${String(a)} vs ${String(b)}`;
}

async function oneDialect(ctx: BenchContext, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const app = await benchApp(dialect, ctx.pgUrl);
  try {
    const { telemetry, places } = app.ctx;
    // The demo location's devices, registered like the embedded fleet's, with a year of 1-minute readings
    // from the same models and seeds, stored through the batched writer (raw rows and every rollup level).
    const specs = DEMO_FLEET.filter((d) => HOME_SLOTS.includes(d.slot));
    const devices: { slot: string; id: number }[] = [];
    const from = zonedTimeToUtc(TZ, 2025, 1, 1);
    const to = zonedTimeToUtc(TZ, 2026, 1, 1);
    const t0 = performance.now();
    let loaded = 0;
    for (const [i, spec] of specs.entries()) {
      const res = await fetch(`${app.base}/api/devices`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${app.token}` },
        body: JSON.stringify({ name: spec.name, mac: `02:BE:00:00:00:0${i + 1}`, typeCode: KIND_TYPE_CODES[spec.kind] }),
      });
      const { device } = (await res.json()) as { device: { id: number } };
      devices.push({ slot: spec.slot, id: device.id });
      const model = createModel(spec.kind, { seed: spec.seed, timeZone: TZ });
      let batch: { ts: number; values: Record<string, number> }[] = [];
      for (let ts = from; ts <= to; ts += MIN) {
        model.step(ts);
        if (model.isGap(ts)) continue;
        const values: Record<string, number> = {};
        model.params.forEach((p, k) => {
          values[p] = model.values[k] as number;
        });
        batch.push({ ts, values });
        if (batch.length === LOAD_BATCH) {
          await telemetry.writer.write({ deviceId: device.id, tz: TZ, readings: batch });
          loaded += batch.length;
          batch = [];
        }
      }
      if (batch.length) await telemetry.writer.write({ deviceId: device.id, tz: TZ, readings: batch });
      loaded += batch.length;
    }
    await telemetry.compactNow();
    const loadS = (performance.now() - t0) / 1000;
    ctx.report(
      `${label} load: the demo Home's ${specs.length} devices, a year of 1-minute readings`,
      loaded / loadS,
      'readings/s',
      `${loaded.toLocaleString('en')} readings in ${loadS.toFixed(1)} s`,
    );

    // The demo's locations and tariffs, as the embedded fleet sets them up (Home: TAURON G12), with a price
    // change on 1 July 2025 added so the year is priced with two lists.
    await placeDemoFleet({
      baseUrl: app.base,
      email: 'bench@example.com',
      password: 'secret1',
      devices,
      historyDays: 380,
      now: () => Date.UTC(2026, 0, 15),
    });
    const home = (await places.locations.list(app.userId)).find((l) => l.name === 'Home');
    if (!home?.tariff) throw new Error('no demo Home location with a tariff');
    const tariffId = home.tariff.id;
    const current = await places.tariffs.get(app.userId, home.id, tariffId);
    await places.tariffs.update(app.userId, home.id, tariffId, {
      ...current,
      schedule: current.schedule as ZoneSchedule,
      prices: [...current.prices, { validFrom: '2025-07-01', area1: 1.23, area2: 0.7, area3: null, fixedMonthly: 37 }],
    });
    const q = { from: FROM, to: TO };

    const statsRoll = await timed(2, 5, () => places.tariffs.stats(app.userId, tariffId, q, 'rollups'));
    const statsRaw = await timed(0, 1, () => places.tariffs.stats(app.userId, tariffId, q, 'raw'));
    const s: TariffStats = statsRoll.value;
    const statsDiff = mismatch(s, statsRaw.value);
    if (statsDiff) throw new Error(`${label} statistics: rollups and raw rows disagree at ${statsDiff}`);
    ctx.report(
      `${label} tariffs balance, a year of the demo Home (3 devices), from rollups`,
      statsRoll.ms,
      'ms',
      `${s.days.length} days, ${s.kWh.toFixed(1)} kWh, total ${s.totalCost.toFixed(2)} ${s.currency}; ${(statsRaw.ms / statsRoll.ms).toFixed(0)}× faster than from raw (target ≥ 20×)`,
    );
    ctx.report(
      `${label} tariffs balance, from raw readings`,
      statsRaw.ms,
      'ms',
      'baseline (the same quarter-hours folded from raw rows): identical to the grosz ✓',
    );

    const advRoll = await timed(2, 5, () => places.tariffs.advisor(app.userId, { locationId: home.id, ...q }, 'rollups'));
    const advRaw = await timed(0, 1, () => places.tariffs.advisor(app.userId, { locationId: home.id, ...q }, 'raw'));
    const a: Advisor = advRoll.value;
    const advDiff = mismatch(a, advRaw.value);
    if (advDiff) throw new Error(`${label} advisor: rollups and raw rows disagree at ${advDiff}`);
    ctx.report(
      `${label} tariff advisor, a year of the demo Home, from rollups`,
      advRoll.ms,
      'ms',
      `${a.options.length} presets priced, cheapest ${a.options[0]?.presetId}; ${(advRaw.ms / advRoll.ms).toFixed(0)}× faster than from raw (target ≥ 20×)`,
    );
    ctx.report(`${label} tariff advisor, from raw readings`, advRaw.ms, 'ms', 'baseline: identical to the grosz ✓');
  } finally {
    await app.close();
  }
}

/**
 * Tariff statistics and the advisor over a year of 15-minute data of the demo location (the embedded
 * fleet's Home: household meter, solar inverter, thermostat, a year of 1-minute readings each), from the
 * stored rollups through the readings service as the API answers them, against the same computation with
 * every quarter-hour folded from raw readings, in the same run: times, ratio (target ≥ 20×) and every
 * figure compared (costs to the grosz; a difference fails the bench). SQLite and PostgreSQL.
 */
export default async function tariffsBench(ctx: BenchContext): Promise<void> {
  await oneDialect(ctx, 'sqlite');
  await oneDialect(ctx, 'postgres');
}
