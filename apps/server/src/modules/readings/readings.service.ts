import {
  billingPeriod,
  COUNTER_PARAMETERS,
  counterDelta,
  type EnergyDirection,
  type EnergyResponse,
  localDayStarts,
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
import type { PackedLevel } from './readings.packed.js';
import type { ReadingsRepository } from './readings.repository.js';
import {
  counterSummaries,
  floorTo,
  foldLevel,
  H1,
  type Level,
  levelFromRaw,
  M5,
  M15,
  type ParamSet,
  paramSetOf,
  type RawColumns,
  sliceLevel,
} from './readings.rollup.js';

const isCounter = (p: string) => COUNTER_PARAMETERS.includes(p);
const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export interface ReadingsQueryInput {
  from: number;
  to: number;
  interval: ReadingInterval;
  params?: string[] | undefined;
}

export interface EnergyDeviceInfo {
  /** Import counters for consumers, export counters for producers (solar). */
  direction: EnergyDirection;
  meterValueKwh: number;
  billingStartDate: string;
  billingPeriodMonths: number;
}

/** First bucket start of a query: rollup buckets are whole 15 / 30 / 60 minutes (UTC) or local days. */
function alignedFrom(from: number, interval: ReadingInterval, tz: string): number {
  if (interval === '24h') return startOfLocalDay(from, tz);
  if (interval === '1h') return floorTo(from, H1);
  if (interval === '30m') return floorTo(from, 2 * M15);
  if (interval === '15m') return floorTo(from, M15);
  return from;
}

/** Series of a level's buckets, in the order of `params` (every one of them in `ps`). */
function seriesOf(l: Level, ps: ParamSet, params: readonly string[], prev: Record<string, number | null>): Record<string, Series> {
  const series: Record<string, Series> = {};
  for (const p of params) {
    const unit = parameterInfo(p)?.unit ?? '';
    if (isCounter(p)) {
      const j = ps.counter.indexOf(p);
      const sums = counterSummaries(l, j);
      const energy = spansEnergy(prev[p], sums);
      series[p] = { kind: 'counter', unit, delta: sums.map((x, i) => (x === null ? null : roundEnergy(energy[i] ?? 0))) };
    } else {
      const j = ps.instant.indexOf(p);
      const cnt = l.cnt[j] as number[];
      const sum = l.sum[j] as number[];
      const lo = l.min[j] as number[];
      const hi = l.max[j] as number[];
      // Filled by index, so a series without gaps stays an unboxed double array.
      const len = cnt.length;
      const avg = new Array<number | null>(len);
      const min = new Array<number | null>(len);
      const max = new Array<number | null>(len);
      for (let k = 0; k < len; k++) {
        const c = cnt[k] as number;
        if (c) {
          avg[k] = (sum[k] as number) / c;
          min[k] = lo[k] as number;
          max[k] = hi[k] as number;
        } else avg[k] = min[k] = max[k] = null;
      }
      series[p] = { kind: 'instant', unit, avg, min, max };
    }
  }
  return series;
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
    let source: PackedLevel | 'day';
    const from = alignedFrom(q.from, q.interval, tz);
    if (q.interval === '24h') {
      await this.ensureDays(deviceId, tz);
      source = 'day';
    } else if (q.interval === '1h') source = '1h';
    else source = '15m';
    const params = q.params ?? (await this.repo.presentIn(source, deviceId, from, q.to));
    const ps = paramSetOf(new Set(params));
    let level = await this.repo.levelOf(source, deviceId, from, q.to, ps, tz);
    if (q.interval === '30m') level = foldLevel(level, ps, (t) => floorTo(t, 2 * M15));
    const counters = params.filter(isCounter);
    const prev = counters.length ? await this.repo.lastCountersBefore(deviceId, from, counters) : {};
    return { interval: q.interval, from, to: q.to, timezone: tz, ts: level.bucket, series: seriesOf(level, ps, params, prev) };
  }

  /**
   * The same answer as `readings` for a rollup interval, computed from raw rows alone (folded with the
   * code that maintains the rollups, 5-minute buckets first, so every figure is bit-identical when the
   * stored rollups are right). What a store without rollups would have to do on every request: the
   * rollups benchmark times it against `readings`, and a mismatch there means stored rollups drifted.
   */
  async readingsFromRaw(deviceId: number, tz: string, q: ReadingsQueryInput & { params: string[] }): Promise<ReadingsResponse> {
    if (q.interval === 'raw') return this.rawReadings(deviceId, tz, q);
    const from = alignedFrom(q.from, q.interval, tz);
    // A bucket starting before `to` holds readings up to its own end, as its stored rollup row does.
    let dayEdges: number[] = [];
    let end: number;
    if (q.interval === '24h') {
      dayEdges = localDayStarts(from, q.to, tz);
      end = startOfLocalDay((dayEdges[dayEdges.length - 1] ?? from) + 26 * H1, tz);
      dayEdges.push(end);
    } else {
      const width = q.interval === '1h' ? H1 : q.interval === '30m' ? 2 * M15 : M15;
      end = floorTo(q.to - 1, width) + width;
    }
    const ps = paramSetOf(new Set(q.params));
    const names = [...ps.instant, ...ps.counter];
    const rawRows = await this.repo.raw(deviceId, from, end, names);
    const raw: RawColumns = { ts: rawRows.map((r) => Number(r.ts)), cols: names.map((p) => rawRows.map((r) => n(r[p]) ?? Number.NaN)) };
    const m15 = foldLevel(levelFromRaw(raw, ps, M5), ps, (t) => floorTo(t, M15));
    let level: Level;
    if (q.interval === '24h') {
      let e = 0;
      level = foldLevel(m15, ps, (t) => {
        while (t >= (dayEdges[e + 1] as number)) e++;
        return dayEdges[e] as number;
      });
    } else if (q.interval === '1h') level = foldLevel(m15, ps, (t) => floorTo(t, H1));
    else if (q.interval === '30m') level = foldLevel(m15, ps, (t) => floorTo(t, 2 * M15));
    else level = m15;
    level = sliceLevel(level, from, q.to, ps);
    const counters = q.params.filter(isCounter);
    const prev = counters.length ? await this.repo.lastRawCountersBefore(deviceId, from, counters) : {};
    return { interval: q.interval, from, to: q.to, timezone: tz, ts: level.bucket, series: seriesOf(level, ps, q.params, prev) };
  }

  private async rawReadings(deviceId: number, tz: string, q: ReadingsQueryInput): Promise<ReadingsResponse> {
    const params = q.params ?? PARAMETER_NAMES;
    const rows = await this.repo.raw(deviceId, q.from, q.to, params);
    const present = q.params ?? params.filter((p) => rows.some((r) => r[p] !== null && r[p] !== undefined));
    const counters = present.filter(isCounter);
    const prev = counters.length ? await this.repo.lastRawCountersBefore(deviceId, q.from, counters) : {};
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

  /**
   * The counters energy figures come from: the 3-phase total when the device sends it, else the per-phase
   * counters (eai1…eai3 for import, eae1…eae3 for export).
   */
  private async energySource(deviceId: number, direction: EnergyDirection): Promise<string[]> {
    const total = `energy3phases_${direction}`;
    const phases = [1, 2, 3].map((n) => `${direction === 'import' ? 'eai' : 'eae'}${n}`);
    const present = await this.repo.presentIn('1h', deviceId, 0, Number.MAX_SAFE_INTEGER, [total, ...phases]);
    return present.includes(total) ? [total] : phases.filter((p) => present.includes(p));
  }

  /** Energy of each bucket (summed over the source counters) given buckets in order from the very first. */
  private bucketEnergy(l: Level, ps: ParamSet): number[] {
    const out = new Array<number>(l.bucket.length).fill(0);
    ps.counter.forEach((_, j) => {
      spansEnergy(null, counterSummaries(l, j)).forEach((e, i) => {
        out[i] = (out[i] ?? 0) + e;
      });
    });
    return out;
  }

  /** Measured active energy of a device over all its data (kWh), imported or (producers) exported. */
  async totalEnergy(deviceId: number, direction: EnergyDirection): Promise<number> {
    const sources = await this.energySource(deviceId, direction);
    if (sources.length === 0) return 0;
    const ps = paramSetOf(new Set(sources));
    const level = await this.repo.levelOf('1h', deviceId, 0, Number.MAX_SAFE_INTEGER, ps);
    return roundEnergy(this.bucketEnergy(level, ps).reduce((a, b) => a + b, 0));
  }

  async energy(deviceId: number, tz: string, device: EnergyDeviceInfo, now: number): Promise<EnergyResponse> {
    await this.ensureDays(deviceId, tz);
    const sources = await this.energySource(deviceId, device.direction);
    const ps = paramSetOf(new Set(sources));
    const days = await this.repo.levelOf('day', deviceId, 0, Number.MAX_SAFE_INTEGER, ps, tz);
    const perDay = this.bucketEnergy(days, ps);
    const sum = (from: number, to: number) =>
      roundEnergy(days.bucket.reduce((acc, b, i) => (b >= from && b < to ? acc + (perDay[i] ?? 0) : acc), 0));
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
