import {
  billingPeriod,
  COUNTER_PARAMETERS,
  type CounterSummary,
  counterDelta,
  type EnergyResponse,
  PARAMETER_NAMES,
  parameterInfo,
  type ReadingInterval,
  type ReadingsResponse,
  roundEnergy,
  type Series,
  spansEnergy,
  startOfLocalDay,
  startOfLocalMonth,
  startOfLocalYear,
} from '@phasewatch/shared';
import type { RollupTable } from './readings.columns.js';
import type { ReadingsRepository } from './readings.repository.js';
import { aggregate, floorTo, H1, M15, type Row } from './readings.rollup.js';

const isCounter = (p: string) => COUNTER_PARAMETERS.includes(p);
const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export interface ReadingsQueryInput {
  from: number;
  to: number;
  interval: ReadingInterval;
  params?: string[] | undefined;
}

export interface EnergyDeviceInfo {
  meterValueKwh: number;
  billingStartDate: string;
  billingPeriodMonths: number;
}

function summaries(rows: readonly Row[], p: string): (CounterSummary | null)[] {
  return rows.map((r) => {
    const first = n(r[`${p}_first`]);
    if (first === null) return null;
    return { first, last: n(r[`${p}_last`]) ?? first, delta: n(r[`${p}_delta`]) ?? 0 };
  });
}

/** Columnar readings and energy figures, read from rollups for everything but raw. */
export class ReadingsService {
  constructor(private readonly repo: ReadingsRepository) {}

  /** Local-day rollups in `tz`, rebuilt first when the owner changed timezone since they were built. */
  private async ensureDays(deviceId: number, tz: string): Promise<void> {
    if (await this.repo.dayLevelStale(deviceId, tz)) await this.repo.rebuildDays(deviceId, tz);
  }

  async readings(deviceId: number, tz: string, q: ReadingsQueryInput): Promise<ReadingsResponse> {
    if (q.interval === 'raw') return this.rawReadings(deviceId, tz, q);
    let table: RollupTable;
    let from = q.from;
    if (q.interval === '24h') {
      await this.ensureDays(deviceId, tz);
      table = 'rollup_day';
      from = startOfLocalDay(q.from, tz);
    } else if (q.interval === '1h') {
      table = 'rollup_1h';
      from = floorTo(q.from, H1);
    } else {
      table = 'rollup_15m';
      from = floorTo(q.from, q.interval === '30m' ? 2 * M15 : M15);
    }
    const params = q.params ?? (await this.repo.presentIn(table, deviceId, from, q.to));
    let rows = await this.repo.level(table, deviceId, from, q.to, params, tz);
    if (q.interval === '30m') rows = aggregate(rows, (r) => floorTo(r.bucket as number, 2 * M15), false);
    const counters = params.filter(isCounter);
    const prev = counters.length ? await this.repo.lastCountersBefore(deviceId, from, counters) : {};
    const series: Record<string, Series> = {};
    for (const p of params) {
      const unit = parameterInfo(p)?.unit ?? '';
      if (isCounter(p)) {
        const energy = spansEnergy(prev[p], summaries(rows, p));
        series[p] = { kind: 'counter', unit, delta: rows.map((r, i) => (r[`${p}_first`] === null ? null : roundEnergy(energy[i] ?? 0))) };
      } else {
        const avg: (number | null)[] = [];
        const min: (number | null)[] = [];
        const max: (number | null)[] = [];
        for (const r of rows) {
          const cnt = n(r[`${p}_n`]);
          avg.push(cnt ? (n(r[`${p}_sum`]) ?? 0) / cnt : null);
          min.push(n(r[`${p}_min`]));
          max.push(n(r[`${p}_max`]));
        }
        series[p] = { kind: 'instant', unit, avg, min, max };
      }
    }
    return { interval: q.interval, from, to: q.to, timezone: tz, ts: rows.map((r) => r.bucket as number), series };
  }

  private async rawReadings(deviceId: number, tz: string, q: ReadingsQueryInput): Promise<ReadingsResponse> {
    const params = q.params ?? PARAMETER_NAMES;
    const rows = await this.repo.raw(deviceId, q.from, q.to, params);
    const present = q.params ?? params.filter((p) => rows.some((r) => r[p] !== null && r[p] !== undefined));
    const counters = present.filter(isCounter);
    const prev = counters.length ? await this.repo.lastCountersBefore(deviceId, q.from, counters) : {};
    const series: Record<string, Series> = {};
    for (const p of present) {
      const unit = parameterInfo(p)?.unit ?? '';
      const values = rows.map((r) => n(r[p]));
      if (isCounter(p)) {
        let last = prev[p] ?? null;
        const delta = values.map((v) => {
          if (v === null) return null;
          const d = counterDelta(last, v);
          last = v;
          return roundEnergy(d);
        });
        series[p] = { kind: 'counter', unit, delta, value: values };
      } else {
        series[p] = { kind: 'raw', unit, values };
      }
    }
    return { interval: 'raw', from: q.from, to: q.to, timezone: tz, ts: rows.map((r) => r.ts as number), series };
  }

  /** The counters energy figures come from: the 3-phase total when the device sends it, else eai1…eai3. */
  private async energySource(deviceId: number): Promise<string[]> {
    const present = await this.repo.presentIn('rollup_1h', deviceId, 0, Number.MAX_SAFE_INTEGER);
    if (present.includes('energy3phases_import')) return ['energy3phases_import'];
    return ['eai1', 'eai2', 'eai3'].filter((p) => present.includes(p));
  }

  /** Energy of each row (summed over the source counters) given rows in order from the very first. */
  private rowEnergy(rows: readonly Row[], sources: readonly string[]): number[] {
    const out = new Array<number>(rows.length).fill(0);
    for (const p of sources) {
      spansEnergy(null, summaries(rows, p)).forEach((e, i) => {
        out[i] = (out[i] ?? 0) + e;
      });
    }
    return out;
  }

  /** Measured active-energy import of a device over all its data (kWh). */
  async totalEnergy(deviceId: number): Promise<number> {
    const sources = await this.energySource(deviceId);
    if (sources.length === 0) return 0;
    const rows = await this.repo.level('rollup_1h', deviceId, 0, Number.MAX_SAFE_INTEGER, sources);
    return roundEnergy(this.rowEnergy(rows, sources).reduce((a, b) => a + b, 0));
  }

  async energy(deviceId: number, tz: string, device: EnergyDeviceInfo, now: number): Promise<EnergyResponse> {
    await this.ensureDays(deviceId, tz);
    const sources = await this.energySource(deviceId);
    const rows = sources.length ? await this.repo.level('rollup_day', deviceId, 0, Number.MAX_SAFE_INTEGER, sources, tz) : [];
    const perDay = this.rowEnergy(rows, sources);
    const sum = (from: number, to: number) =>
      roundEnergy(
        rows.reduce((acc, r, i) => ((r.bucket as number) >= from && (r.bucket as number) < to ? acc + (perDay[i] ?? 0) : acc), 0),
      );
    const span = (from: number, to: number) => ({ from, to, energyKwh: sum(from, to) });
    const day = startOfLocalDay(now, tz);
    const billing = billingPeriod(now, tz, device.billingStartDate, device.billingPeriodMonths);
    const measured = roundEnergy(perDay.reduce((a, b) => a + b, 0));
    return {
      timezone: tz,
      source: sources.length ? sources.join('+') : 'none',
      meterValueKwh: device.meterValueKwh,
      measuredTotalKwh: measured,
      today: span(day, now + 1),
      month: span(startOfLocalMonth(now, tz), now + 1),
      year: span(startOfLocalYear(now, tz), now + 1),
      total: roundEnergy(measured + device.meterValueKwh),
      billingPeriod: span(billing.start, billing.end),
    };
  }
}
