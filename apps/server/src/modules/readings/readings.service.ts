import {
  billingPeriod,
  type CounterRun,
  type EnergyDirection,
  type EnergyResponse,
  isReset,
  joinRuns,
  localDayStarts,
  PARAMETER_NAMES,
  parameterInfo,
  type ReadingInterval,
  RUN_FIELDS,
  type RunColumns,
  type RunColumnsLike,
  roundEnergy,
  runEnergy,
  runOf,
  spreadEnergy,
  startOfLocalDay,
  startOfLocalMonth,
  startOfLocalYear,
  stepEnergy,
} from '@phasewatch/shared';
import { filledColumn, giveColumn, takeColumn } from './readings.columns.js';
import type { ReadingsColumns, SeriesColumns } from './readings.json.js';
import { endOfDay } from './readings.local-days.js';
import type { ReadingsRepository } from './readings.repository.js';
import {
  concatLevels,
  emptyLevel,
  floorTo,
  foldLevel,
  H1,
  joinedRun,
  type Level,
  levelFromRaw,
  M15,
  type ParamSet,
  paramSetOf,
  releaseLevel,
} from './readings.rollup.js';

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

/** "Rollups hold nothing": every bucket computed from raw rows (the reference the rollups must equal). */
const RAW_ONLY = Number.NEGATIVE_INFINITY;
/** Reads retried when a compaction moved the watermark while they ran (it moves about once an hour). */
const READ_ATTEMPTS = 4;

/** Decimals of bucket averages: a little finer than meters send, never 17 digits. */
const AVERAGE_DECIMALS: Record<string, number> = { W: 2, V: 2, A: 3, Hz: 3, '°C': 2, dBm: 1, '': 3, kWh: 6, kvarh: 6 };

/** First bucket start of a query: rollup buckets are whole 15 / 30 / 60 minutes (UTC) or local days. */
function alignedFrom(from: number, interval: ReadingInterval, tz: string): number {
  if (interval === '24h') return startOfLocalDay(from, tz);
  if (interval === '1h') return floorTo(from, H1);
  if (interval === '30m') return floorTo(from, 2 * M15);
  if (interval === '15m') return floorTo(from, M15);
  return from;
}

/** Bucket edges of a query: every bucket start from `from` while before `to`, then the end of the last one. */
function gridOf(from: number, to: number, interval: Exclude<ReadingInterval, 'raw'>, tz: string): ArrayLike<number> {
  if (interval === '24h') {
    const days = localDayStarts(from, to, tz);
    return [...days, endOfDay(days[days.length - 1] ?? from, tz)];
  }
  const width = interval === '1h' ? H1 : interval === '30m' ? 2 * M15 : M15;
  const n = Math.max(0, Math.ceil((to - from) / width));
  if (n === 0) return [from + width];
  const edges = new Float64Array(n + 1);
  for (let i = 0; i <= n; i++) edges[i] = from + i * width;
  return edges;
}

/** A level's runs placed on a grid: `at[i]` is the level bucket at grid position i (-1: none). */
function gridRuns(runs: RunColumns, at: ArrayLike<number>): RunColumnsLike {
  // Every grid bucket is level bucket i (a dense range): the level's columns are the grid's.
  if (runs.firstTs.length === at.length && Array.prototype.every.call(at, (k: number, i: number) => k === i)) return runs;
  const out = {} as Record<(typeof RUN_FIELDS)[number], Float64Array>;
  for (const f of RUN_FIELDS) {
    const src = runs[f];
    const col = filledColumn(at.length, f === 'gap' ? 0 : Number.NaN);
    for (let i = 0; i < at.length; i++) {
      const k = at[i] as number;
      if (k >= 0) col[i] = src[k] as number;
    }
    out[f] = col;
  }
  return out;
}

/** Parent of a bucket among `edges` (sorted): the last edge at or before it. Successive calls must not go back. */
function edgeFinder(edges: ArrayLike<number>): (t: number) => number {
  let e = 0;
  return (t) => {
    while (e + 1 < edges.length && t >= (edges[e + 1] as number)) e++;
    return edges[e] as number;
  };
}

/**
 * Columnar readings and energy figures. Buckets come from stored rollups below the device's watermark
 * and from raw rows above it (see readings.repository.ts), joined with the same folds that maintain the
 * rollups, so an answer does not depend on where the watermark stands. Energy follows the rules of
 * packages/shared/src/energy/counter.ts: each bucket holds E(end) − E(start).
 */
export class ReadingsService {
  constructor(
    private readonly repo: ReadingsRepository,
    private readonly opts: {
      /** Told when a read finds a device's local days built in another zone (the compactor rebuilds them in the background). */
      onStaleDays?: (deviceId: number, tz: string) => void;
    } = {},
  ) {}

  private get rules() {
    return this.repo.rules;
  }

  /**
   * The stored level local days are read from below the watermark: the stored days, or, while they are
   * built in another zone than the owner's (a timezone change, rebuilt in the background), the stored
   * quarter-hours, which the callers fold into days like the ones above the watermark. The answer is the
   * same either way; the read never waits for a rebuild, nor does anyone's ingest on the writer.
   */
  private async daySource(deviceId: number, tz: string): Promise<'day' | '15m'> {
    if (!(await this.repo.dayLevelStale(deviceId, tz))) return 'day';
    this.opts.onStaleDays?.(deviceId, tz);
    return '15m';
  }

  /**
   * Runs a read against the watermark it starts with, again if a compaction moved it meanwhile (the
   * stored rows and the raw rows would otherwise overlap or miss an hour).
   */
  private async atWatermark<T>(deviceId: number, read: (w: number) => Promise<T>): Promise<T> {
    let w = await this.repo.watermark(deviceId);
    for (let attempt = 1; ; attempt++) {
      const out = await read(w);
      const now = await this.repo.watermark(deviceId);
      if (now === w || attempt >= READ_ATTEMPTS) return out;
      w = now;
    }
  }

  async readings(deviceId: number, tz: string, q: ReadingsQueryInput): Promise<ReadingsColumns> {
    if (q.interval === 'raw') return this.rawReadings(deviceId, tz, q);
    const days = q.interval === '24h' ? await this.daySource(deviceId, tz) : 'day';
    return this.atWatermark(deviceId, (w) => this.bucketed(deviceId, tz, q, w, days));
  }

  /**
   * The same answer as `readings` for a rollup interval, computed from raw rows alone (folded with the
   * code that maintains the rollups, so every figure is bit-identical when the stored rollups are right).
   * What a store without rollups would have to do on every request: the rollups benchmark times it
   * against `readings`, and a mismatch there means stored rollups drifted.
   */
  async readingsFromRaw(deviceId: number, tz: string, q: ReadingsQueryInput & { params: string[] }): Promise<ReadingsColumns> {
    if (q.interval === 'raw') return this.rawReadings(deviceId, tz, q);
    return this.bucketed(deviceId, tz, q, RAW_ONLY);
  }

  /** Quarter-hours in [lo, hi): stored below `w`, from raw rows above it. */
  private async quarters(deviceId: number, lo: number, hi: number, ps: ParamSet, w: number): Promise<Level> {
    if (lo >= hi) return emptyLevel(ps);
    const stored = w > lo ? await this.repo.levelOf('15m', deviceId, lo, Math.min(hi, w), ps) : emptyLevel(ps);
    if (w >= hi) return stored;
    const names = [...ps.instant, ...ps.counter];
    const raw = await this.repo.raw(deviceId, Math.max(lo, w), hi, names);
    const all = concatLevels(stored, levelFromRaw(raw, ps, M15, this.rules), ps);
    if (all !== stored) releaseLevel(stored);
    return all;
  }

  /** Buckets of `edges` (bucket starts plus the last end) for an interval, stored rollups and raw rows joined. */
  private async levelFor(
    deviceId: number,
    interval: Exclude<ReadingInterval, 'raw'>,
    edges: ArrayLike<number>,
    ps: ParamSet,
    w: number,
    tz: string,
    days: 'day' | '15m' = 'day',
  ): Promise<Level> {
    const from = edges[0] as number;
    const end = edges[edges.length - 1] as number;
    if (interval === '15m') return this.quarters(deviceId, from, end, ps, w);
    if (interval === '30m') return foldLevel(await this.quarters(deviceId, from, end, ps, w), ps, (t) => floorTo(t, 2 * M15), this.rules);
    // Stored hours or days below the watermark, then the quarter-hours above it folded in: a day the
    // watermark cuts is its stored part joined with its later quarter-hours.
    const source = interval === '1h' ? '1h' : days;
    const stored = w > from ? await this.repo.levelOf(source, deviceId, from, Math.min(end, w), ps, tz) : emptyLevel(ps);
    const tail = await this.quarters(deviceId, Math.max(from, w), end, ps, w);
    const all = concatLevels(stored, tail, ps);
    return foldLevel(all, ps, interval === '1h' ? (t) => floorTo(t, H1) : edgeFinder(edges), this.rules);
  }

  /**
   * Per counter, the run of readings just before `from` that energy continues from: the last hour holding
   * a reading of it before the hour of `from`, joined with the quarter-hours from that hour's start to
   * `from`. (The "highest value seen" of the jitter rule looks back this far.)
   */
  private async runsBefore(deviceId: number, from: number, ps: ParamSet, w: number): Promise<Map<string, CounterRun>> {
    const out = new Map<string, CounterRun>();
    if (ps.counter.length === 0) return out;
    const h0 = floorTo(from, H1);
    const counterSet = paramSetOf(ps.counter);
    const lastHour = new Map<string, CounterRun>();
    if (w < h0) {
      const found = await this.repo.lastRaw(deviceId, ps.counter, w === RAW_ONLY ? 0 : w, h0);
      for (const [c, r] of found) {
        const hour = floorTo(r.ts, H1);
        const one = paramSetOf([c]);
        const run = joinedRun(await this.quarters(deviceId, hour, hour + H1, one, w), 0, this.rules);
        if (run) lastHour.set(c, run);
      }
    }
    const missing = ps.counter.filter((c) => !lastHour.has(c));
    if (missing.length > 0 && w !== RAW_ONLY) {
      for (const [c, r] of await this.repo.lastStoredHour(deviceId, missing, Math.min(h0, w))) lastHour.set(c, r);
    }
    const lead = await this.quarters(deviceId, h0, from, counterSet, w);
    counterSet.counter.forEach((c, j) => {
      const run = joinRuns(lastHour.get(c) ?? null, joinedRun(lead, j, this.rules), this.rules);
      if (run) out.set(c, run);
    });
    return out;
  }

  /** Per counter, its first reading at or after `end`. */
  private async readingsAfter(deviceId: number, end: number, counters: readonly string[], w: number) {
    const out = new Map<string, { ts: number; value: number }>();
    if (counters.length === 0) return out;
    let missing = counters;
    if (end < w) {
      for (const [c, r] of await this.repo.firstStoredQuarter(deviceId, counters, end, w)) out.set(c, { ts: r.firstTs, value: r.first });
      missing = counters.filter((c) => !out.has(c));
    }
    if (missing.length > 0) for (const [c, r] of await this.repo.firstRaw(deviceId, missing, Math.max(end, w))) out.set(c, r);
    return out;
  }

  /** Parameters with data in [from, end): stored rollups below `w`, raw rows above. */
  private async present(deviceId: number, source: '15m' | '1h' | 'day', from: number, end: number, w: number): Promise<string[]> {
    const found = new Set<string>();
    if (w > from) for (const p of await this.repo.presentIn(source, deviceId, from, Math.min(end, w))) found.add(p);
    if (w < end) for (const p of await this.repo.presentInRaw(deviceId, Math.max(from, w), end)) found.add(p);
    return PARAMETER_NAMES.filter((p) => found.has(p));
  }

  private async bucketed(
    deviceId: number,
    tz: string,
    q: ReadingsQueryInput,
    w: number,
    days: 'day' | '15m' = 'day',
  ): Promise<ReadingsColumns> {
    const interval = q.interval as Exclude<ReadingInterval, 'raw'>;
    const from = alignedFrom(q.from, interval, tz);
    const edges = gridOf(from, q.to, interval, tz);
    const end = edges[edges.length - 1] as number;
    const source = interval === '24h' ? days : interval === '1h' ? '1h' : '15m';
    // Only what the device sent in the range: asked-for parameters it never sent are left out.
    const present = await this.present(deviceId, source, from, end, w);
    const params = q.params ? q.params.filter((p) => present.includes(p)) : present;
    const ps = paramSetOf(params);
    const level = await this.levelFor(deviceId, interval, edges, ps, w, tz, days);
    const before = await this.runsBefore(deviceId, from, ps, w);
    const after = await this.readingsAfter(deviceId, end, ps.counter, w);
    const out = this.answer(q.interval, from, q.to, tz, edges, level, ps, params, before, after);
    releaseLevel(level);
    return out;
  }

  /** The answer's buckets: those with readings, and those a counter's energy reaches (a gap spread over them). */
  private answer(
    interval: ReadingInterval,
    from: number,
    to: number,
    tz: string,
    edges: ArrayLike<number>,
    level: Level,
    ps: ParamSet,
    params: readonly string[],
    before: Map<string, CounterRun>,
    after: Map<string, { ts: number; value: number }>,
  ): ReadingsColumns {
    const nb = edges.length - 1;
    // Grid position of each level bucket.
    const at = new Int32Array(Math.max(0, nb)).fill(-1);
    let g = 0;
    const buckets = level.bucket;
    for (let k = 0; k < buckets.length; k++) {
      const b = buckets[k] as number;
      while (g < nb && (edges[g] as number) < b) g++;
      if (edges[g] === b) at[g] = k;
    }
    const spreads = ps.counter.map((c, j) => {
      const runs = gridRuns(level.runs[j] as RunColumns, at);
      return { runs, ...spreadEnergy(edges, runs, before.get(c) ?? null, after.get(c) ?? null, this.rules) };
    });
    const keep = new Int32Array(Math.max(0, nb));
    let len = 0;
    for (let i = 0; i < nb; i++) {
      if ((at[i] as number) >= 0 || spreads.some((s) => (s.energy[i] as number) > 0 || s.estimated[i] === 1)) keep[len++] = i;
    }
    const series: Record<string, SeriesColumns> = {};
    for (const p of params) {
      const info = parameterInfo(p);
      const unit = info?.unit ?? '';
      const jc = ps.counter.indexOf(p);
      if (jc >= 0) {
        const s = spreads[jc] as (typeof spreads)[number];
        const estimated: number[] = [];
        const delta = takeColumn(len);
        for (let o = 0; o < len; o++) {
          const i = keep[o] as number;
          const est = s.estimated[i] === 1;
          if (est) estimated.push(o);
          const e = s.energy[i] as number;
          delta[o] = e === 0 && Number.isNaN(s.runs.firstTs[i] as number) && !est ? Number.NaN : roundEnergy(e);
        }
        series[p] = { kind: 'counter', unit, delta, ...(estimated.length ? { estimated } : {}) };
        continue;
      }
      const j = ps.instant.indexOf(p);
      const cnt = level.cnt[j] as number[];
      const sum = level.sum[j] as number[];
      const lo = level.min[j] as number[];
      const hi = level.max[j] as number[];
      const scale = 10 ** (AVERAGE_DECIMALS[unit] ?? 3);
      const avg = takeColumn(len);
      const min = takeColumn(len);
      const max = takeColumn(len);
      for (let o = 0; o < len; o++) {
        const k = at[keep[o] as number] as number;
        const c = k < 0 ? 0 : (cnt[k] as number);
        if (c) {
          avg[o] = Math.round(((sum[k] as number) / c) * scale) / scale;
          min[o] = lo[k] as number;
          max[o] = hi[k] as number;
        } else avg[o] = min[o] = max[o] = Number.NaN;
      }
      series[p] = { kind: 'instant', unit, avg, min, max };
    }
    const ts = takeColumn(len);
    for (let o = 0; o < len; o++) ts[o] = edges[keep[o] as number] as number;
    // The runs placed on the grid (copies unless the level's own) are not read any more.
    for (const s of spreads) for (const f of RUN_FIELDS) giveColumn(s.runs[f]);
    return { interval, from, to, timezone: tz, ts, series };
  }

  private async rawReadings(deviceId: number, tz: string, q: ReadingsQueryInput): Promise<ReadingsColumns> {
    const asked = q.params ?? PARAMETER_NAMES;
    const rows = await this.repo.raw(deviceId, q.from, q.to, asked);
    // Only parameters the device sent in the range.
    const present = asked.filter((_, j) => (rows.cols[j] as Float64Array).some((v) => !Number.isNaN(v)));
    const counters = present.filter((p) => parameterInfo(p)?.kind === 'counter');
    // The state each counter continues from: its readings since the start of the hour of its last reading before `from`.
    const states = new Map<string, CounterRun>();
    for (const [c, r] of await this.repo.lastRaw(deviceId, counters, 0, q.from)) {
      const lead = await this.repo.raw(deviceId, floorTo(r.ts, H1), q.from, [c]);
      const col = lead.cols[0] as Float64Array;
      const ts = lead.ts.filter((_, i) => !Number.isNaN(col[i] as number));
      const run = runOf(
        ts,
        col.filter((v) => !Number.isNaN(v)),
        this.rules,
      );
      if (run) states.set(c, run);
    }
    const series: Record<string, SeriesColumns> = {};
    for (const p of present) {
      const unit = parameterInfo(p)?.unit ?? '';
      const values = rows.cols[asked.indexOf(p)] as Float64Array;
      if (counters.includes(p)) {
        const s = states.get(p);
        let last = s ? s.last : Number.NaN;
        let top = s ? s.top : Number.NaN;
        const delta = values.map((v) => {
          if (Number.isNaN(v)) return Number.NaN;
          let d = 0;
          if (!Number.isNaN(last)) {
            d = stepEnergy(last, top, v, this.rules);
            top = isReset(last, v, this.rules) ? v : Math.max(top, v);
          } else top = v;
          last = v;
          return roundEnergy(d);
        });
        series[p] = { kind: 'counter', unit, delta, value: values };
      } else {
        series[p] = { kind: 'raw', unit, values };
      }
    }
    return { interval: 'raw', from: q.from, to: q.to, timezone: tz, ts: Float64Array.from(rows.ts), series };
  }

  /**
   * The counters energy figures come from: the 3-phase total when the device sends it, else the per-phase
   * counters (eai1…eai3 for import, eae1…eae3 for export).
   */
  private async energySource(deviceId: number, direction: EnergyDirection, w: number): Promise<string[]> {
    const total = `energy3phases_${direction}`;
    const phases = [1, 2, 3].map((n) => `${direction === 'import' ? 'eai' : 'eae'}${n}`);
    const candidates = [total, ...phases];
    const present = new Set(await this.repo.presentIn('1h', deviceId, 0, Number.MAX_SAFE_INTEGER, candidates));
    for (const p of await this.repo.presentInRaw(deviceId, w, Number.MAX_SAFE_INTEGER)) present.add(p);
    return present.has(total) ? [total] : phases.filter((p) => present.has(p));
  }

  /** Measured active energy of a device over all its data (kWh), imported or (producers) exported. */
  async totalEnergy(deviceId: number, direction: EnergyDirection): Promise<number> {
    return this.atWatermark(deviceId, async (w) => {
      const sources = await this.energySource(deviceId, direction, w);
      if (sources.length === 0) return 0;
      const ps = paramSetOf(sources);
      const stored = w > 0 ? await this.repo.levelOf('1h', deviceId, 0, w, ps) : emptyLevel(ps);
      const all = concatLevels(stored, await this.quarters(deviceId, w, Number.MAX_SAFE_INTEGER, ps, w), ps);
      let total = 0;
      ps.counter.forEach((_, j) => {
        const run = joinedRun(all, j, this.rules);
        if (run) total += runEnergy(run);
      });
      return roundEnergy(total);
    });
  }

  /** The counters a device's energy figures come from (see `energySource`); empty when it sent none. */
  energyCounters(deviceId: number, direction: EnergyDirection): Promise<string[]> {
    return this.atWatermark(deviceId, (w) => this.energySource(deviceId, direction, w));
  }

  /**
   * A readings answer over buckets of any edges (`edges`: ascending bucket starts, then the end of the
   * last one), for spans no chart interval has: local hours, months, years (analytics, exports). The
   * buckets are folded from a stored level whose bucket starts include every edge: `15m` for any
   * quarter-hour edges, `1h` for whole UTC hours, `day` for local midnights of `tz`. Instantaneous
   * figures are the exact mean, minimum and maximum of the readings in a bucket; counters its energy.
   */
  async readingsOver(
    deviceId: number,
    tz: string,
    edges: ArrayLike<number>,
    requested: '15m' | '1h' | 'day',
    params: readonly string[],
  ): Promise<ReadingsColumns> {
    // Local days being rebuilt in another zone: their quarter-hours, folded the same way.
    const source = requested === 'day' ? await this.daySource(deviceId, tz) : requested;
    return this.atWatermark(deviceId, async (w) => {
      const from = edges[0] as number;
      const end = edges[edges.length - 1] as number;
      const present = await this.present(deviceId, source, from, end, w);
      const asked = params.filter((p) => present.includes(p));
      const ps = paramSetOf(asked);
      const finder = edgeFinder(edges);
      let level: Level;
      if (source === '15m') level = foldLevel(await this.quarters(deviceId, from, end, ps, w), ps, finder, this.rules);
      else {
        const stored = w > from ? await this.repo.levelOf(source, deviceId, from, Math.min(end, w), ps, tz) : emptyLevel(ps);
        const tail = await this.quarters(deviceId, Math.max(from, w), end, ps, w);
        level = foldLevel(concatLevels(stored, tail, ps), ps, finder, this.rules);
      }
      const before = await this.runsBefore(deviceId, from, ps, w);
      const after = await this.readingsAfter(deviceId, end, ps.counter, w);
      const out = this.answer('1h', from, end, tz, edges, level, ps, asked, before, after);
      releaseLevel(level);
      return out;
    });
  }

  async energy(deviceId: number, tz: string, device: EnergyDeviceInfo, now: number): Promise<EnergyResponse> {
    const daySource = await this.daySource(deviceId, tz);
    return this.atWatermark(deviceId, async (w) => {
      const sources = await this.energySource(deviceId, device.direction, w);
      const ps = paramSetOf(sources);
      const stored = w > 0 ? await this.repo.levelOf(daySource, deviceId, 0, w, ps, tz) : emptyLevel(ps);
      const tail = await this.quarters(deviceId, w, Number.MAX_SAFE_INTEGER, ps, w);
      const firstBucket = stored.bucket[0] ?? tail.bucket[0];
      const lastBucket = tail.bucket[tail.bucket.length - 1] ?? stored.bucket[stored.bucket.length - 1];
      let days: number[] = [];
      let perDay: number[] = [];
      if (firstBucket !== undefined && lastBucket !== undefined) {
        const edges = [...localDayStarts(firstBucket, lastBucket + 1, tz), endOfDay(lastBucket, tz)];
        const level = foldLevel(concatLevels(stored, tail, ps), ps, edgeFinder(edges), this.rules);
        days = edges.slice(0, -1);
        perDay = days.map(() => 0);
        // Days without a reading of a counter still take their share of a gap.
        const index = new Map(level.bucket.map((b, k) => [b, k]));
        const at = days.map((d) => index.get(d) ?? -1);
        ps.counter.forEach((_, j) => {
          const runs = gridRuns(level.runs[j] as RunColumns, at);
          spreadEnergy(edges, runs, null, null, this.rules).energy.forEach((e, i) => {
            perDay[i] = (perDay[i] as number) + e;
          });
        });
      }
      const sum = (from: number, to: number) =>
        roundEnergy(days.reduce((acc, b, i) => (b >= from && b < to ? acc + (perDay[i] ?? 0) : acc), 0));
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
    });
  }
}
