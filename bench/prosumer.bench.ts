import { type Ledger, zonedTimeToUtc } from '@phasewatch/shared';
import { placeDemoFleet } from '../apps/simulator/src/demo-place.js';
import { DEMO_FLEET } from '../apps/simulator/src/embedded.js';
import { createModel, KIND_TYPE_CODES } from '../apps/simulator/src/models/index.js';
import type { BenchContext } from './run.js';
import { timed } from './support/timing.js';
import { benchApp } from './telemetry-fixtures.js';

const TZ = 'Europe/Warsaw';
const MIN = 60_000;
const LOAD_BATCH = 5000;
/**
 * The demo Home's devices the ledger reads: the main meter (behind the rooftop PV, so it imports and
 * exports) and the PV inverter. The Home's thermostat is a sub-meter that no ledger figure reads, so it is
 * not loaded (it would only lengthen the load).
 */
const HOME_SLOTS = ['home-meter', 'solar'];
const MONEY = ['price', 'credited', 'used', 'refunded', 'lost', 'balance', 'expiringNext', 'energyCost', 'cashForEnergy'];

/** The first month and field where two ledgers differ: money exactly (both are whole grosz), energy to 1e-5 kWh. */
function mismatch(a: Ledger, b: Ledger): string | null {
  if (a.months.length !== b.months.length) return `${a.months.length} vs ${b.months.length} months`;
  for (const [i, m] of a.months.entries()) {
    const n = b.months[i] as Ledger['months'][number];
    for (const [k, v] of Object.entries(m)) {
      const w = (n as Record<string, unknown>)[k];
      if (typeof v === 'number' && typeof w === 'number') {
        if (MONEY.includes(k) ? v !== w : Math.abs(v - w) > 1e-5) return `${m.month}.${k}: ${v} vs ${w}`;
      } else if (v !== w) return `${m.month}.${k}: ${String(v)} vs ${String(w)}`;
    }
  }
  return null;
}

async function oneDialect(ctx: BenchContext, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const app = await benchApp(dialect, ctx.pgUrl);
  try {
    const { telemetry, places } = app.ctx;
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
        body: JSON.stringify({ name: spec.name, mac: `02:BF:00:00:00:0${i + 1}`, typeCode: KIND_TYPE_CODES[spec.kind] }),
      });
      const { device } = (await res.json()) as { device: { id: number } };
      devices.push({ slot: spec.slot, id: device.id });
      // The same models and seeds as the embedded fleet, the main meter behind the rooftop PV.
      const model = createModel(spec.kind, {
        seed: spec.seed,
        timeZone: TZ,
        ...(spec.rooftopSolarSeed !== undefined ? { rooftopSolarSeed: spec.rooftopSolarSeed } : {}),
      });
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
      `${label} load: the demo Home's main meter and PV, a year of 1-minute readings`,
      loaded / loadS,
      'readings/s',
      `${loaded.toLocaleString('en')} readings in ${loadS.toFixed(1)} s`,
    );

    // The demo's locations, tariffs (with energy parts) and the Home's net-billing (RCEm) settlement.
    await placeDemoFleet({
      baseUrl: app.base,
      email: 'bench@example.com',
      password: 'secret1',
      devices,
      historyDays: 380,
      now: () => Date.UTC(2026, 0, 15),
    });
    const home = (await places.locations.list(app.userId)).find((l) => l.name === 'Home');
    if (!home) throw new Error('no demo Home location');
    await places.prosumer.putSettings(app.userId, home.id, {
      scheme: 'net-billing-rcem',
      since: '2025-01-01',
      installationKw: 8,
      coefficient: 1.23,
      refundCap: 0.2,
      rcemVersion: 'latest',
      rceClamp: 'quarter',
      coefficientFrom: '2024-12-27',
    });
    const q = { from: '2025-01', to: '2025-12' };
    const roll = await timed(2, 5, () => places.prosumer.ledger(app.userId, home.id, q, 'rollups'));
    const raw = await timed(0, 1, () => places.prosumer.ledger(app.userId, home.id, q, 'raw'));
    const l: Ledger = roll.value;
    const diff = mismatch(l, raw.value);
    if (diff) throw new Error(`${label} ledger: rollups and raw rows disagree at ${diff}`);
    const exported = l.months.reduce((s, m) => s + m.nettedExportKWh, 0);
    if (!(exported > 0)) throw new Error(`${label} ledger: the demo Home exported nothing`);
    const credited = l.months.reduce((s, m) => s + m.credited, 0);
    const used = l.months.reduce((s, m) => s + m.used, 0);
    ctx.report(
      `${label} prosumer ledger, a year of the demo Home (net-billing RCEm), from rollups`,
      roll.ms,
      'ms',
      `12 months, netted export ${exported.toFixed(1)} kWh, credited ${credited.toFixed(2)} PLN, used ${used.toFixed(2)} PLN, deposit at year end ${l.months.at(-1)?.balance.toFixed(2)} PLN; ${(raw.ms / roll.ms).toFixed(0)}× faster than from raw (target ≥ 20×)`,
    );
    ctx.report(
      `${label} prosumer ledger, from raw readings`,
      raw.ms,
      'ms',
      'baseline (the same buckets folded from raw rows: hours in whole-hour zones): identical to the grosz ✓',
    );
  } finally {
    await app.close();
  }
}

/**
 * A year's prosumer ledger of the demo Home (main meter behind the rooftop PV, net-billing at RCEm): hourly
 * netting from the stored 15-minute rollups through the readings service, as the API answers it, against the
 * same ledger with every quarter-hour folded from raw readings, in the same run: times, ratio (target ≥ 20×)
 * and every month's figures compared (money exactly, to the grosz; a difference fails the bench).
 * `PROSUMER_BENCH_DIALECTS=sqlite` limits it to one dialect.
 */
export default async function prosumerBench(ctx: BenchContext): Promise<void> {
  const only = process.env.PROSUMER_BENCH_DIALECTS;
  if (!only || only.includes('sqlite')) await oneDialect(ctx, 'sqlite');
  if (!only || only.includes('postgres')) await oneDialect(ctx, 'postgres');
}
