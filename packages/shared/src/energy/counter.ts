/**
 * Energy from cumulative counters (kWh as the meter sends them). The energy of an interval is the
 * counter difference at its edges; a counter that goes down was reset or the meter was swapped, and
 * the reading after it counts from zero, so energy is never negative. Each reading's delta belongs to
 * the bucket holding the reading's timestamp, which makes the sum of buckets equal the energy of
 * their union (a gap's energy lands in the bucket of the first reading after the gap).
 */

/** Energy between two consecutive counter readings; `prev` null (no earlier reading) counts nothing. */
export function counterDelta(prev: number | null | undefined, next: number): number {
  if (prev === null || prev === undefined) return 0;
  return next >= prev ? next - prev : next;
}

/** First and last reading of a span and the energy counted between readings inside it. */
export interface CounterSummary {
  first: number;
  last: number;
  /** Energy between the span's own readings (resets counted from zero); excludes the step into `first`. */
  delta: number;
}

/** Summary of consecutive counter readings (in time order); null for none. */
export function summarizeCounter(values: readonly number[]): CounterSummary | null {
  if (values.length === 0) return null;
  let delta = 0;
  for (let i = 1; i < values.length; i++) delta += counterDelta(values[i - 1], values[i] as number);
  return { first: values[0] as number, last: values[values.length - 1] as number, delta };
}

/** Joins the summaries of two adjacent spans (a before b); either may be null (empty span). */
export function mergeCounterSummaries(a: CounterSummary | null, b: CounterSummary | null): CounterSummary | null {
  if (!a) return b;
  if (!b) return a;
  return { first: a.first, last: b.last, delta: a.delta + b.delta + counterDelta(a.last, b.first) };
}

/** Energy of a span given the last reading before it (null when there is none). */
export function spanEnergy(prevLast: number | null | undefined, s: CounterSummary | null): number {
  if (!s) return 0;
  return s.delta + counterDelta(prevLast, s.first);
}

/** Energy of consecutive spans, each with the step from the previous span's last reading. */
export function spansEnergy(prevLast: number | null | undefined, spans: readonly (CounterSummary | null)[]): number[] {
  let last = prevLast ?? null;
  return spans.map((s) => {
    const e = spanEnergy(last, s);
    if (s) last = s.last;
    return e;
  });
}

/** A counter reading at an instant (epoch ms). */
export interface CounterSample {
  ts: number;
  value: number;
}

/**
 * Energy per bucket `[edges[i], edges[i+1])` from raw samples in time order. Samples before the first
 * edge only set the starting reading; samples at or after the last edge are ignored.
 */
export function bucketEnergy(samples: readonly CounterSample[], edges: readonly number[]): number[] {
  const out = new Array<number>(Math.max(0, edges.length - 1)).fill(0);
  let prev: number | null = null;
  let b = 0;
  for (const s of samples) {
    if (s.ts >= (edges[edges.length - 1] ?? Number.NEGATIVE_INFINITY)) break;
    if (s.ts >= (edges[0] ?? Number.POSITIVE_INFINITY)) {
      while (s.ts >= (edges[b + 1] as number)) b++;
      out[b] = (out[b] as number) + counterDelta(prev, s.value);
    }
    prev = s.value;
  }
  return out;
}

/** Energy figures are rounded to 1 mWh in answers, so sums built in a different order compare equal. */
export function roundEnergy(kwh: number): number {
  return Math.round(kwh * 1e6) / 1e6;
}
