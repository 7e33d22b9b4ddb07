import {
  DEFAULT_COUNTER_RULES,
  isReset,
  type LiveMeasurement,
  type ReadingInterval,
  type ReadingsResponse,
  startOfLocalDay,
  stepEnergy,
} from '@phasewatch/shared';
import type { ChartSpec, SeriesSpec } from './chart-specs';

type Values = (number | null)[];

/** One drawn series: its spec and one value per bucket of `ChartData.ts`. */
export interface ChartColumn {
  spec: SeriesSpec;
  unit: string;
  values: Values;
}

/** A chart's data, ready to draw: bucket starts (epoch ms) and the columns the device sent. */
export interface ChartData {
  ts: number[];
  columns: ChartColumn[];
  /** Buckets whose energy is partly or wholly estimated across a gap (indices into `ts`, ascending). */
  estimated: number[];
  /** The state band's values (share of the bucket the relay was on), when the chart has one. */
  state: Values | null;
}

const hasValue = (vs: Values | undefined): vs is Values => !!vs && vs.some((v) => v !== null);

/** The values of one series spec in a readings answer: mean (or min / max) of an instantaneous value, energy of a counter. */
function columnOf(res: Pick<ReadingsResponse, 'series'>, s: SeriesSpec): Values | undefined {
  const series = res.series[s.param];
  if (!series) return undefined;
  if (series.kind === 'counter') return s.stat ? undefined : series.delta;
  if (series.kind === 'raw') return s.stat ? undefined : series.values;
  return s.stat === 'min' ? series.min : s.stat === 'max' ? series.max : series.avg;
}

/**
 * The chart's columns from a readings answer. Series the answer lacks or holds only nulls for (a
 * parameter the device never sent) are left out. Arrays are the answer's own, not copies: a year of
 * 15-minute buckets costs nothing to prepare.
 */
export function buildChartData(res: Pick<ReadingsResponse, 'ts' | 'series'>, spec: ChartSpec): ChartData {
  const columns: ChartColumn[] = [];
  for (const s of spec.series) {
    const values = columnOf(res, s);
    if (hasValue(values)) columns.push({ spec: s, unit: res.series[s.param]?.unit ?? spec.unit, values });
  }
  const band = spec.stateBand ? columnOf(res, { param: spec.stateBand, color: '' }) : undefined;
  return { ts: res.ts, columns, estimated: estimatedBuckets(res), state: hasValue(band) ? band : null };
}

/** Indices of buckets any counter series marks as estimated (the union, ascending, no repeats). */
export function estimatedBuckets(res: Pick<ReadingsResponse, 'ts' | 'series'>): number[] {
  let out: Set<number> | null = null;
  for (const s of Object.values(res.series)) {
    if (s.kind !== 'counter' || !s.estimated?.length) continue;
    out ??= new Set();
    for (const i of s.estimated) if (i >= 0 && i < res.ts.length) out.add(i);
  }
  return out ? [...out].sort((a, b) => a - b) : [];
}

/**
 * A bar series split for drawing: measured buckets and estimated ones (drawn hatched). Without estimated
 * buckets the measured column is the input itself.
 */
export function splitEstimated(values: Values, estimated: readonly number[]): { measured: Values; estimated: Values | null } {
  if (estimated.length === 0) return { measured: values, estimated: null };
  const measured = values.slice();
  const est: Values = new Array(values.length).fill(null);
  for (const i of estimated) {
    est[i] = values[i] ?? null;
    measured[i] = null;
  }
  return { measured, estimated: est };
}

const MIN = 60_000;
export const INTERVAL_MS: Record<Exclude<ReadingInterval, 'raw'>, number> = {
  '15m': 15 * MIN,
  '30m': 30 * MIN,
  '1h': 60 * MIN,
  '24h': 1440 * MIN,
};

/** Start of the bucket holding `ts`: whole 15 / 30 / 60 minutes in UTC, or the user's local day. */
export function bucketStart(ts: number, interval: ReadingInterval, tz: string): number {
  if (interval === 'raw') return ts;
  if (interval === '24h') return startOfLocalDay(ts, tz);
  const w = INTERVAL_MS[interval];
  return Math.floor(ts / w) * w;
}

/** What the live merge remembers between pushed readings: counter values and readings per bucket. */
export interface LiveState {
  /** Per counter: the last pushed reading and the highest since a reset (energy counts from it). */
  counters: Record<string, { last: number; top: number }>;
  /** Readings merged into the newest bucket so far (the loaded mean counts as one). */
  count: number;
  bucket: number | null;
}

export const emptyLiveState = (): LiveState => ({ counters: {}, count: 0, bucket: null });

/**
 * A pushed reading merged into a readings answer, without a refetch: into its bucket when that is the
 * newest one, else as a new bucket at the end. Instantaneous values update the bucket's mean, minimum and
 * maximum (the loaded mean weighs as one reading); a counter adds its step since the previous pushed
 * reading by the shared counter rules (the first push only sets the start). Readings before the newest bucket or outside the range
 * are ignored. Returns a new answer (arrays copied), or the same one when nothing changed.
 */
export function mergeLive(
  res: ReadingsResponse,
  m: Pick<LiveMeasurement, 'ts' | 'values'>,
  state: LiveState,
): { res: ReadingsResponse; state: LiveState } {
  if (m.ts < res.from || m.ts >= res.to) return { res, state };
  const b = bucketStart(m.ts, res.interval, res.timezone);
  const last = res.ts.length - 1;
  const lastTs = res.ts[last];
  if (lastTs !== undefined && b < lastTs) return { res, state };
  const append = lastTs === undefined || b > lastTs;
  const idx = append ? last + 1 : last;
  const count = append ? 0 : state.bucket === b ? state.count : 1;
  const counters = { ...state.counters };
  const series: ReadingsResponse['series'] = {};
  for (const [name, s] of Object.entries(res.series)) {
    const v = m.values[name];
    const has = typeof v === 'number' && Number.isFinite(v);
    if (s.kind === 'counter') {
      const delta = s.delta.slice();
      let step: number | null = null;
      if (has) {
        const prev = counters[name];
        if (prev !== undefined) {
          step = stepEnergy(prev.last, prev.top, v, DEFAULT_COUNTER_RULES);
          counters[name] = { last: v, top: isReset(prev.last, v, DEFAULT_COUNTER_RULES) ? v : Math.max(prev.top, v) };
        } else counters[name] = { last: v, top: v };
      }
      if (append) delta.push(step);
      else if (step !== null) delta[idx] = (delta[idx] ?? 0) + step;
      series[name] = { ...s, delta };
    } else if (s.kind === 'instant') {
      const avg = s.avg.slice();
      const min = s.min.slice();
      const max = s.max.slice();
      if (append) {
        avg.push(has ? v : null);
        min.push(has ? v : null);
        max.push(has ? v : null);
      } else if (has) {
        const a = avg[idx];
        avg[idx] = a === null || a === undefined ? v : (a * count + v) / (count + 1);
        min[idx] = Math.min(min[idx] ?? v, v);
        max[idx] = Math.max(max[idx] ?? v, v);
      }
      series[name] = { ...s, avg, min, max };
    } else {
      const values = s.values.slice();
      if (append) values.push(has ? v : null);
      else if (has) values[idx] = v;
      series[name] = { ...s, values };
    }
  }
  const ts = append ? [...res.ts, b] : res.ts;
  return { res: { ...res, ts, series }, state: { counters, count: count + 1, bucket: b } };
}

/**
 * The same span one period earlier, aligned to the current buckets: each current bucket gets the value
 * of the bucket `offsetMs` before it (null where that has none).
 */
export function alignPrevious(ts: readonly number[], prevTs: readonly number[], prevValues: Values, offsetMs: number): Values {
  const byTs = new Map<number, number>();
  prevTs.forEach((t, i) => {
    byTs.set(t + offsetMs, i);
  });
  return ts.map((t) => {
    const i = byTs.get(t);
    return i === undefined ? null : (prevValues[i] ?? null);
  });
}

/**
 * A chart's data with the same span one period earlier behind it: the buckets of both (the earlier ones
 * moved forward by `offsetMs`) on one time axis, so the previous day still shows where today has no
 * readings yet. Returns the widened data and the previous values per column (null where it has none).
 */
export function withPrevious(data: ChartData, prev: ChartData, offsetMs: number): { data: ChartData; previous: Values[] } {
  const moved = prev.ts.map((t) => t + offsetMs);
  const last = data.ts.at(-1) ?? Number.NEGATIVE_INFINITY;
  const extra = moved.filter((t) => t > last);
  const ts = extra.length ? [...data.ts, ...extra] : data.ts;
  const pad = (vs: Values) => (extra.length ? [...vs, ...new Array<number | null>(extra.length).fill(null)] : vs);
  const widened: ChartData = {
    ...data,
    ts,
    columns: data.columns.map((c) => ({ ...c, values: pad(c.values) })),
    state: data.state ? pad(data.state) : null,
  };
  const previous = data.columns.map((c) => {
    const pc = prev.columns.find((x) => x.spec.param === c.spec.param && x.spec.stat === c.spec.stat);
    return pc ? alignPrevious(ts, prev.ts, pc.values, offsetMs) : ts.map(() => null);
  });
  return { data: widened, previous };
}

export type ComparePeriod = 'none' | 'day' | 'week' | 'year';

/** How far back "the same span a day / week / year earlier" lies, for a span starting at `from`. */
export function compareOffset(period: ComparePeriod, from: number): number {
  switch (period) {
    case 'day':
      return 86_400_000;
    case 'week':
      return 7 * 86_400_000;
    case 'year': {
      const d = new Date(from);
      const back = Date.UTC(d.getUTCFullYear() - 1, d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes());
      return from - back;
    }
    default:
      return 0;
  }
}

/** Value at quantile `q` (0–1) of the non-null values, linear between ranks; null when there are none. */
export function quantile(values: Values, q: number): number | null {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const pos = (xs.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = xs[lo] as number;
  const b = xs[hi] as number;
  return a + (b - a) * (pos - lo);
}

const HOURS_PER_YEAR = 8760;

/**
 * The "always on" load: the 5th percentile of 15-minute mean power (W), what the device draws even at
 * its quietest, and what that costs in a year (kWh). Null without power readings.
 */
export function baseLoad(power: Values, q = 0.05): { watts: number; kwhPerYear: number } | null {
  const w = quantile(power, q);
  if (w === null) return null;
  const watts = Math.max(0, w);
  return { watts, kwhPerYear: (watts * HOURS_PER_YEAR) / 1000 };
}

/** Sum of the per-phase columns bucket by bucket (null where every phase is null). */
export function sumColumns(columns: readonly Values[]): Values {
  const len = Math.max(0, ...columns.map((c) => c.length));
  const out: Values = new Array(len).fill(null);
  for (const c of columns) {
    for (let i = 0; i < len; i++) {
      const v = c[i];
      if (v !== null && v !== undefined) out[i] = (out[i] ?? 0) + v;
    }
  }
  return out;
}
