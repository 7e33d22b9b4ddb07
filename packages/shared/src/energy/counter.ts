/**
 * Energy from cumulative counters (kWh or kvarh, as the meter sends them).
 *
 * The rules, in the order they apply:
 *
 * 1. **A span's energy is E(b) − E(a).** E(t) is the counter at the instant t: the reading taken exactly
 *    then, otherwise the linear interpolation between the readings either side of t (TimescaleDB's
 *    `interpolated_delta`). Before a device's first reading and after its last one E is flat: nothing is
 *    extrapolated, so the energy of the current hour or day runs up to the newest reading.
 * 2. **Steps.** Energy moves between consecutive readings p → v (p earlier). With ρ the jitter ratio
 *    (`jitterRatio`, default 0.9):
 *    - v < ρ·p is a **reset** (the meter restarted or was swapped): it counted v from zero, so the step is v;
 *    - otherwise energy is counted from the **highest value seen** since the last reset (h): the step is
 *      max(0, v − h), and h becomes max(h, v). A reading a little lower than the one before it (noise,
 *      rounding, a meter that reports two registers out of step) adds nothing, and the climb back up to h
 *      adds nothing either: energy is never counted twice.
 *    Drops are judged against the previous reading, so whether a step is a reset never depends on where a
 *    span starts; only "counted from h" looks further back (see `CounterRun.top`).
 * 3. **Steps accrue linearly** over [tp, tv): a bucket gets the part of each step that overlaps it. A reading
 *    exactly on a bucket boundary therefore ends the step in the bucket before it, and the energy of a gap is
 *    spread over the gap instead of landing in the bucket where the device came back.
 * 4. **Estimated:** a bucket whose energy includes a positive step longer than `gapLimitMs` (default 15
 *    minutes) is flagged: its figure is a linear estimate over a gap, not a measurement.
 *
 * Buckets are summarized as `CounterRun`s, standalone (they do not depend on earlier readings) and joined
 * exactly (`joinRuns`), so stored rollups of any level and a computation from raw readings agree, and a late
 * reading changes only the runs of the buckets it falls in.
 */

/** The configurable parts of the rules. */
export interface CounterRules {
  /** A reading below this share of the previous one is a reset; at or above it, a drop is noise. */
  jitterRatio: number;
  /** A positive step longer than this (ms) makes the buckets it reaches `estimated`. */
  gapLimitMs: number;
}

export const DEFAULT_COUNTER_RULES: CounterRules = { jitterRatio: 0.9, gapLimitMs: 15 * 60_000 };

/**
 * A counter's readings within a span (a bucket, or several joined), summarized standalone: as if the
 * first reading of the span were the first ever. `post` is NaN when no reset happened inside the span.
 */
export interface CounterRun {
  firstTs: number;
  first: number;
  lastTs: number;
  last: number;
  /** Highest reading before the first reset inside the span (≥ first). */
  peak: number;
  /** Energy from the first reset inside the span on (the reset's own value included); NaN: no reset. */
  post: number;
  /** Highest reading since the last reset inside the span (the "counted from" value at the span's end). */
  top: number;
  /** Longest step inside the span that carried energy (ms; 0: none). */
  gap: number;
}

/** The fields of a run, in the order column-wise layouts store them. */
export const RUN_FIELDS = ['firstTs', 'first', 'lastTs', 'last', 'peak', 'post', 'top', 'gap'] as const;

/**
 * Runs of consecutive buckets column-wise, one array per field (`firstTs` NaN: no reading in that
 * bucket): a year of quarter-hours is eight arrays, not 35,040 objects.
 */
export type RunColumns = Record<(typeof RUN_FIELDS)[number], number[]>;

/** Read-only column-wise runs (typed or plain arrays). */
export type RunColumnsLike = Record<(typeof RUN_FIELDS)[number], ArrayLike<number>>;

/** Empty columns of `size` buckets with no reading. */
export function runColumns(size = 0): RunColumns {
  const nan = () => new Array<number>(size).fill(Number.NaN);
  return {
    firstTs: nan(),
    first: nan(),
    lastTs: nan(),
    last: nan(),
    peak: nan(),
    post: nan(),
    top: nan(),
    gap: new Array<number>(size).fill(0),
  };
}

/** Bucket k's run, or null. */
export function runAt(c: RunColumnsLike, k: number): CounterRun | null {
  const firstTs = c.firstTs[k] as number;
  if (Number.isNaN(firstTs)) return null;
  return {
    firstTs,
    first: c.first[k] as number,
    lastTs: c.lastTs[k] as number,
    last: c.last[k] as number,
    peak: c.peak[k] as number,
    post: c.post[k] as number,
    top: c.top[k] as number,
    gap: c.gap[k] as number,
  };
}

/** Sets bucket k's run (null: no reading). */
export function setRunAt(c: RunColumns, k: number, r: CounterRun | null): void {
  if (!r) {
    c.firstTs[k] = c.first[k] = c.lastTs[k] = c.last[k] = c.peak[k] = c.post[k] = c.top[k] = Number.NaN;
    c.gap[k] = 0;
    return;
  }
  c.firstTs[k] = r.firstTs;
  c.first[k] = r.first;
  c.lastTs[k] = r.lastTs;
  c.last[k] = r.last;
  c.peak[k] = r.peak;
  c.post[k] = r.post;
  c.top[k] = r.top;
  c.gap[k] = r.gap;
}

/** Appends a bucket's run (null: no reading). */
export function pushRun(c: RunColumns, r: CounterRun | null): void {
  setRunAt(c, c.firstTs.length, r);
}

/** A run of one reading. */
export function startRun(ts: number, value: number): CounterRun {
  return { firstTs: ts, first: value, lastTs: ts, last: value, peak: value, post: Number.NaN, top: value, gap: 0 };
}

/** True when `next` after `prev` is a reset (rule 2). */
export function isReset(prev: number, next: number, rules: CounterRules): boolean {
  return next < rules.jitterRatio * prev;
}

/** Energy of the step from a state (last reading, highest value seen) to the next reading (rule 2). */
export function stepEnergy(last: number, top: number, next: number, rules: CounterRules): number {
  if (isReset(last, next, rules)) return next;
  return next > top ? next - top : 0;
}

/** Adds a later reading to `run` in place. */
export function extendRun(run: CounterRun, ts: number, value: number, rules: CounterRules): void {
  let e: number;
  if (isReset(run.last, value, rules)) {
    e = value;
    run.post = Number.isNaN(run.post) ? value : run.post + value;
    run.top = value;
  } else {
    e = value > run.top ? value - run.top : 0;
    if (Number.isNaN(run.post)) {
      if (value > run.peak) run.peak = value;
      run.top = run.peak;
    } else {
      run.post += e;
      if (value > run.top) run.top = value;
    }
  }
  if (e > 0 && ts - run.lastTs > run.gap) run.gap = ts - run.lastTs;
  run.lastTs = ts;
  run.last = value;
}

/** Standalone run of readings in time order (null for none). */
export function runOf(ts: ArrayLike<number>, values: ArrayLike<number>, rules: CounterRules): CounterRun | null {
  if (ts.length === 0) return null;
  const run = startRun(ts[0] as number, values[0] as number);
  for (let i = 1; i < ts.length; i++) extendRun(run, ts[i] as number, values[i] as number, rules);
  return run;
}

/** Energy counted inside a run, between its first and last reading. */
export function runEnergy(r: CounterRun): number {
  return r.peak - r.first + (Number.isNaN(r.post) ? 0 : r.post);
}

/**
 * The run of span a followed by span b (a before b): exactly the run of their readings taken together.
 * Either may be null (an empty span).
 */
export function joinRuns(a: CounterRun | null, b: CounterRun | null, rules: CounterRules): CounterRun | null {
  if (!a) return b;
  if (!b) return a;
  const reset = isReset(a.last, b.first, rules);
  const bPost = Number.isNaN(b.post) ? 0 : b.post;
  const step = reset ? b.first : b.first > a.top ? b.first - a.top : 0;
  const gap = Math.max(a.gap, b.gap, step > 0 ? b.firstTs - a.lastTs : 0);
  let peak: number;
  let post: number;
  let top: number;
  if (reset) {
    // The boundary is a reset: b counts standalone, from zero.
    peak = a.peak;
    post = (Number.isNaN(a.post) ? 0 : a.post) + b.peak + bPost;
    top = b.top;
  } else {
    // b's readings before its own first reset are counted from a's highest value.
    const h = a.top;
    const reach = Math.max(b.peak, h);
    if (Number.isNaN(a.post)) {
      peak = reach;
      post = b.post;
    } else {
      peak = a.peak;
      post = a.post + (reach - h) + bPost;
    }
    top = Number.isNaN(b.post) ? reach : b.top;
  }
  return { firstTs: a.firstTs, first: a.first, lastTs: b.lastTs, last: b.last, peak, post, top, gap };
}

/** The counter state a bucket sequence starts from: the last reading before it and the highest value seen. */
export interface CounterState {
  lastTs: number;
  last: number;
  top: number;
}

/** Energy per bucket and the buckets whose figure is an estimate over a gap. */
export interface SpreadEnergy {
  energy: Float64Array;
  /** 1 where the bucket's figure is an estimate. */
  estimated: Uint8Array;
}

/**
 * Energy of consecutive buckets `[edges[k], edges[k+1])` (rules 1–4). `runs` holds bucket k's run at k
 * (`firstTs` NaN: no reading in it); `before` the run of readings just before the first bucket (null: none), `after` the
 * first reading after the last bucket (null: none). Each step between readings is spread over the buckets
 * it crosses; the part before the first edge or after the last belongs to other buckets and is left out.
 */
export function spreadEnergy(
  edges: ArrayLike<number>,
  runs: RunColumnsLike,
  before: CounterRun | null,
  after: { ts: number; value: number } | null,
  rules: CounterRules,
): SpreadEnergy {
  const nb = Math.max(0, edges.length - 1);
  // Typed columns: a year of quarter-hours as JS arrays would be two large heap objects per counter.
  const energy = new Float64Array(nb);
  const estimated = new Uint8Array(nb);
  if (nb === 0) return { energy, estimated };
  const lo = edges[0] as number;
  const hi = edges[nb] as number;

  /** Spreads `e` over [t0, t1) into the buckets it overlaps; `hint` is a bucket at or before t1's. */
  const spread = (e: number, t0: number, t1: number, hint: number) => {
    if (e === 0 || t1 <= lo || t0 >= hi) return;
    const long = t1 - t0 > rules.gapLimitMs;
    let k = hint;
    while (k > 0 && (edges[k] as number) > t0) k--;
    for (; k < nb; k++) {
      const a = edges[k] as number;
      const b = edges[k + 1] as number;
      if (a >= t1) break;
      const overlap = Math.min(b, t1) - Math.max(a, t0);
      if (overlap <= 0) continue;
      energy[k] = (energy[k] as number) + (overlap === t1 - t0 ? e : (e * overlap) / (t1 - t0));
      if (long) estimated[k] = 1;
    }
  };

  // The state carried from bucket to bucket: last reading, its time, the highest value seen.
  let has = before !== null;
  let lastTs = before ? before.lastTs : 0;
  let last = before ? before.last : 0;
  let top = before ? before.top : 0;
  let stateBucket = 0;
  const { firstTs, first: firsts, lastTs: lastTss, last: lasts, peak: peaks, post: posts, top: tops, gap: gaps } = runs;
  for (let k = 0; k < nb; k++) {
    const ft = firstTs[k] as number;
    if (Number.isNaN(ft)) continue;
    const first = firsts[k] as number;
    const peak = peaks[k] as number;
    const rawPost = posts[k] as number;
    const post = Number.isNaN(rawPost) ? 0 : rawPost;
    let internal: number;
    if (has && !isReset(last, first, rules)) {
      const h = top;
      spread(first > h ? first - h : 0, lastTs, ft, k);
      const reach = Math.max(peak, h);
      internal = reach - Math.max(first, h) + post;
      top = Number.isNaN(rawPost) ? reach : (tops[k] as number);
    } else {
      if (has) spread(first, lastTs, ft, k);
      internal = peak - first + post;
      top = tops[k] as number;
    }
    energy[k] = (energy[k] as number) + internal;
    if ((gaps[k] as number) > rules.gapLimitMs && internal > 0) estimated[k] = 1;
    has = true;
    lastTs = lastTss[k] as number;
    last = lasts[k] as number;
    stateBucket = k;
  }
  if (has && after) spread(stepEnergy(last, top, after.value, rules), lastTs, after.ts, stateBucket);
  return { energy, estimated };
}

/** A counter reading at an instant (epoch ms). */
export interface CounterSample {
  ts: number;
  value: number;
}

/**
 * The reference computation of the rules from raw samples alone (time order, unique timestamps): the
 * counter's reset- and noise-adjusted cumulative value at each sample, then E at each edge by
 * interpolation. Independent of the run algebra, so tests can hold one against the other.
 */
export function bucketEnergy(samples: readonly CounterSample[], edges: readonly number[], rules = DEFAULT_COUNTER_RULES): SpreadEnergy {
  const cum: number[] = [];
  let top = 0;
  samples.forEach((s, i) => {
    if (i === 0) {
      cum.push(0);
      top = s.value;
      return;
    }
    const prev = samples[i - 1] as CounterSample;
    const e = stepEnergy(prev.value, top, s.value, rules);
    top = isReset(prev.value, s.value, rules) ? s.value : Math.max(top, s.value);
    cum.push((cum[i - 1] as number) + e);
  });
  /** E(t): adjusted cumulative energy at t, flat outside the samples. */
  const at = (t: number): number => {
    if (samples.length === 0) return 0;
    let i = 0;
    while (i < samples.length && (samples[i] as CounterSample).ts <= t) i++;
    if (i === 0) return 0;
    if (i === samples.length) return cum[i - 1] as number;
    const a = samples[i - 1] as CounterSample;
    const b = samples[i] as CounterSample;
    const ca = cum[i - 1] as number;
    return ca + (((cum[i] as number) - ca) * (t - a.ts)) / (b.ts - a.ts);
  };
  const nb = Math.max(0, edges.length - 1);
  const energy = new Float64Array(nb);
  const estimated = new Uint8Array(nb);
  for (let k = 0; k < nb; k++) {
    const a = edges[k] as number;
    const b = edges[k + 1] as number;
    energy[k] = at(b) - at(a);
    let est = false;
    for (let i = 1; i < samples.length; i++) {
      const p = samples[i - 1] as CounterSample;
      const s = samples[i] as CounterSample;
      if (s.ts - p.ts > rules.gapLimitMs && (cum[i] as number) > (cum[i - 1] as number) && p.ts < b && s.ts > a) est = true;
    }
    estimated[k] = est ? 1 : 0;
  }
  return { energy, estimated };
}

/** Energy figures are rounded to 1 mWh in answers, so sums built in a different order compare equal. */
export function roundEnergy(kwh: number): number {
  return Math.round(kwh * 1e6) / 1e6;
}
