/**
 * Disk per stored reading and per device-year, raw rows and rollups, on SQLite and PostgreSQL: a
 * three-phase meter sending every parameter of the catalogue a 3-phase meter sends (52), a year at
 * 1-minute reporting, and 30 days at 5-second reporting (scaled to a year; raw rows are kept
 * RAW_RETENTION_DAYS, 400 by default, rollups forever). Baseline, measured in the same run: the same
 * 1-minute readings in the previous layout (version 1, SQLite; see support/footprint.ts).
 *
 * FOOTPRINT_DAYS shortens the 1-minute year (default 365).
 */
import { zonedTimeToUtc } from '@phasewatch/shared';
import type { BenchContext } from './run.js';
import { threePhaseReading } from './support/fleet.js';
import { devicesOf, footprintOf, perReading, v1Footprint } from './support/footprint.js';
import { benchApp } from './telemetry-fixtures.js';

const TZ = 'Europe/Warsaw';
const DAYS = Number(process.env.FOOTPRINT_DAYS ?? 365);
const BATCH = 5000;

async function load(dialect: 'sqlite' | 'postgres', pgUrl: string, stepMs: number, days: number) {
  const app = await benchApp(dialect, pgUrl);
  const from = zonedTimeToUtc(TZ, 2025, 1, 1);
  const count = Math.floor((days * 86_400_000) / stepMs);
  const { telemetry } = app.ctx;
  for (let i = 0; i < count; i += BATCH) {
    const readings = [];
    for (let k = i; k < Math.min(count, i + BATCH); k++) {
      const ts = from + k * stepMs;
      readings.push({ ts, values: threePhaseReading(0, ts) });
    }
    await telemetry.writer.write({ deviceId: app.deviceId, tz: TZ, readings });
  }
  await telemetry.compactNow();
  return app;
}

export default async function footprintBench(ctx: BenchContext): Promise<void> {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    for (const [stepMs, days] of [
      [60_000, DAYS],
      [5_000, 30],
    ] as const) {
      const app = await load(dialect, ctx.pgUrl, stepMs, days);
      try {
        const f = await footprintOf(app.ctx.storage);
        const every = stepMs === 60_000 ? '1-minute' : '5-second';
        const perYear = ((f.rawBytes + f.rollupBytes) * (365 / days)) / 2 ** 20;
        const split = `raw ${(f.rawBytes / f.readings).toFixed(0)} B + rollups ${(f.rollupBytes / f.readings).toFixed(0)} B; ${f.readings.toLocaleString('en')} readings`;
        if (dialect === 'sqlite' && stepMs === 60_000) {
          const repo = app.ctx.telemetry.readingsRepository;
          const v1 = await v1Footprint(devicesOf(app.ctx.storage, (id) => repo.rawAll(id, 0, Number.MAX_SAFE_INTEGER)));
          ctx.report(
            `${label} 3-phase meter, ${every}: bytes per reading`,
            perReading(f),
            'B',
            `${split}; ${((perReading(f) / perReading(v1)) * 100).toFixed(0)} % of the previous layout (target ≤ 50 %)`,
          );
          ctx.report(
            `${label} 3-phase meter, ${every}: previous layout`,
            perReading(v1),
            'B',
            `baseline: raw ${(v1.rawBytes / v1.readings).toFixed(0)} B + rollups ${(v1.rollupBytes / v1.readings).toFixed(0)} B`,
          );
        } else ctx.report(`${label} 3-phase meter, ${every}: bytes per reading`, perReading(f), 'B', split);
        ctx.report(
          `${label} 3-phase meter, ${every}: disk per device-year`,
          perYear,
          'MB',
          days === 365 ? '' : `${days} days measured, scaled to a year`,
        );
      } finally {
        await app.close();
      }
    }
  }
}
