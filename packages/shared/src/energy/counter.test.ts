import { describe, expect, it } from 'vitest';
import {
  bucketEnergy,
  type CounterRun,
  type CounterSample,
  joinRuns,
  pushRun,
  DEFAULT_COUNTER_RULES as RULES,
  type RunColumns,
  runAt,
  runColumns,
  runEnergy,
  runOf,
  spreadEnergy,
} from './counter.js';
import { addLocalDays, localDayStarts, zonedTimeToUtc } from './zoned-time.js';

const MIN = 60_000;
const H = 3_600_000;
const TZ = 'Europe/Warsaw';

/** Runs of the samples falling in each bucket of `edges`, plus the run before the first edge and the first sample after the last. */
function runsOver(samples: readonly CounterSample[], edges: readonly number[]) {
  const runs: RunColumns = runColumns();
  for (let k = 0; k + 1 < edges.length; k++) {
    const inside = samples.filter((s) => s.ts >= (edges[k] as number) && s.ts < (edges[k + 1] as number));
    pushRun(
      runs,
      runOf(
        inside.map((s) => s.ts),
        inside.map((s) => s.value),
        RULES,
      ),
    );
  }
  const early = samples.filter((s) => s.ts < (edges[0] as number));
  const late = samples.find((s) => s.ts >= (edges[edges.length - 1] as number));
  return {
    runs,
    before: runOf(
      early.map((s) => s.ts),
      early.map((s) => s.value),
      RULES,
    ),
    after: late ? { ts: late.ts, value: late.value } : null,
  };
}

function spread(samples: readonly CounterSample[], edges: readonly number[]) {
  const { runs, before, after } = runsOver(samples, edges);
  return spreadEnergy(edges, runs, before, after, RULES);
}

const sum = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0);

/** A small seeded generator (tests must be repeatable). */
function lcg(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

describe('energy of a span is E(b) − E(a)', () => {
  it('a 15-minute meter reading exactly on the boundaries: each quarter holds its own step, the day its 96 steps', () => {
    const day = zonedTimeToUtc(TZ, 2026, 6, 10);
    // +0.3 kWh every 15 minutes from local midnight to the next local midnight, and on into the next day.
    const samples = Array.from({ length: 100 }, (_, i) => ({ ts: day + i * 15 * MIN, value: 1000 + i * 0.3 }));
    const quarters = Array.from({ length: 97 }, (_, i) => day + i * 15 * MIN);
    const q = spread(samples, quarters);
    for (const e of q.energy) expect(e).toBeCloseTo(0.3, 9);
    expect(q.estimated.every((x) => !x)).toBe(true);
    const d = spread(samples, [day, addLocalDays(day, 1, TZ)]);
    // The counter moved 96 × 0.3 between the two midnights, and the day shows exactly that.
    expect(d.energy[0]).toBeCloseTo(28.8, 9);
  });

  it('local days of 23 and 25 hours in Europe/Warsaw (2026-03-29, 2026-10-25) take the counter difference between their midnights', () => {
    for (const [m, d, hours] of [
      [3, 29, 23],
      [10, 25, 25],
    ] as const) {
      const start = zonedTimeToUtc(TZ, 2026, m, d);
      const end = addLocalDays(start, 1, TZ);
      expect(end - start).toBe(hours * H);
      // Every 15 minutes from two hours before to two hours after, 0.1 kWh each.
      const samples = Array.from({ length: hours * 4 + 17 }, (_, i) => ({ ts: start - 2 * H + i * 15 * MIN, value: 50 + i * 0.1 }));
      const e = spread(samples, [start - H, start, end, end + H]);
      expect(e.energy[1]).toBeCloseTo(hours * 4 * 0.1, 9);
      expect(bucketEnergy(samples, [start, end]).energy[0]).toBeCloseTo(hours * 4 * 0.1, 9);
    }
  });

  it('readings off the boundaries are interpolated', () => {
    const t = Date.parse('2026-06-10T10:00:00Z');
    // 10:05 → 10 kWh, 10:20 → 13 kWh: E(10:15) = 12.
    const samples = [
      { ts: t + 5 * MIN, value: 10 },
      { ts: t + 20 * MIN, value: 13 },
      { ts: t + 35 * MIN, value: 13.3 },
    ];
    const e = spread(samples, [t, t + 15 * MIN, t + 30 * MIN, t + 45 * MIN]);
    expect(e.energy[0]).toBeCloseTo(2, 12);
    expect(e.energy[1]).toBeCloseTo(1 + 0.2, 12);
    // Nothing after the last reading is guessed: E is flat past it.
    expect(e.energy[2]).toBeCloseTo(0.1, 12);
  });

  it('a reset mid-bucket counts from zero; a reset exactly on a boundary ends in the bucket before it', () => {
    const t = Date.parse('2026-06-10T10:00:00Z');
    const mid = [
      { ts: t, value: 500 },
      { ts: t + 5 * MIN, value: 501 },
      { ts: t + 10 * MIN, value: 0.4 },
      { ts: t + 15 * MIN, value: 0.9 },
    ];
    // 1 before the reset, 0.4 counted from zero, and the step to 0.9 that ends on the bucket's end.
    expect(spread(mid, [t, t + 15 * MIN]).energy[0]).toBeCloseTo(1 + 0.4 + 0.5, 12);
    expect(spread(mid, [t, t + 15 * MIN, t + 30 * MIN]).energy[1]).toBe(0);
    const onEdge = [
      { ts: t, value: 500 },
      { ts: t + 10 * MIN, value: 501 },
      { ts: t + 15 * MIN, value: 0.5 },
      { ts: t + 30 * MIN, value: 1.5 },
    ];
    const e = spread(onEdge, [t, t + 15 * MIN, t + 30 * MIN]);
    expect(e.energy[0]).toBeCloseTo(1 + 0.5, 12);
    expect(e.energy[1]).toBeCloseTo(1, 12);
  });

  it('a 6-hour gap is spread over its hours and flagged as estimated', () => {
    const t = Date.parse('2026-06-10T00:00:00Z');
    // Every 5 minutes, 1 kWh an hour, except for nothing between 01:00 and 07:00.
    const samples = Array.from({ length: 97 }, (_, i) => ({ ts: t + i * 5 * MIN, value: 10 + i / 12 })).filter(
      (s) => s.ts <= t + H || s.ts >= t + 7 * H,
    );
    const edges = Array.from({ length: 9 }, (_, h) => t + h * H);
    const e = spread(samples, edges);
    e.energy.forEach((x) => {
      expect(x).toBeCloseTo(1, 12);
    });
    expect(Array.from(e.estimated, Boolean)).toEqual([false, true, true, true, true, true, true, false]);
    expect(bucketEnergy(samples, edges).estimated).toEqual(e.estimated);
    // A gap without energy (the device was off and so was the load) estimates nothing.
    const idle = spread(
      [
        { ts: t, value: 10 },
        { ts: t + 5 * H, value: 10 },
      ],
      edges,
    );
    expect(idle.estimated.some(Boolean)).toBe(false);
  });

  it('jitter of −0.001 kWh is noise: energy is counted from the highest value seen, never twice', () => {
    const t = Date.parse('2026-06-10T00:00:00Z');
    const values = [100, 100.5, 100.499, 100.5, 100.499, 100.501, 101];
    const samples = values.map((value, i) => ({ ts: t + i * MIN, value }));
    const e = spread(samples, [t, t + 10 * MIN]);
    expect(e.energy[0]).toBeCloseTo(1, 12);
    // Split anywhere, the buckets still add up to one kWh, and none is negative.
    for (let cut = 1; cut < 7; cut++) {
      const parts = spread(samples, [t, t + cut * MIN + 30_000, t + 10 * MIN]);
      expect(sum(parts.energy)).toBeCloseTo(1, 12);
      expect(parts.energy.every((x) => x >= 0)).toBe(true);
    }
  });

  it('a drop to near zero is a reset; a drop to 90 % of the previous reading is still noise', () => {
    const t = Date.parse('2026-06-10T00:00:00Z');
    const reset = [100, 101, 0.2, 0.7].map((value, i) => ({ ts: t + i * MIN, value }));
    expect(spread(reset, [t, t + 10 * MIN]).energy[0]).toBeCloseTo(1 + 0.2 + 0.5, 12);
    const noise = [100, 90, 95, 100.5].map((value, i) => ({ ts: t + i * MIN, value }));
    expect(spread(noise, [t, t + 10 * MIN]).energy[0]).toBeCloseTo(0.5, 12);
    const justBelow = [100, 89.9, 90.4].map((value, i) => ({ ts: t + i * MIN, value }));
    expect(spread(justBelow, [t, t + 10 * MIN]).energy[0]).toBeCloseTo(89.9 + 0.5, 12);
  });
});

describe('runs join exactly', () => {
  /** A random counter: steady growth, noise, resets, gaps and idle stretches. */
  function randomSamples(seed: number, n: number): CounterSample[] {
    const rnd = lcg(seed);
    const out: CounterSample[] = [];
    let ts = Date.parse('2026-06-10T00:00:00Z') + Math.floor(rnd() * 600_000);
    let v = rnd() * 1000;
    for (let i = 0; i < n; i++) {
      out.push({ ts, value: Math.round(v * 1000) / 1000 });
      const r = rnd();
      // A reset, noise, an idle step (r < 0.2: the counter stays), or growth.
      if (r < 0.03) v = rnd() * 2;
      else if (r < 0.15) v -= rnd() * 0.002;
      else if (r >= 0.2) v += rnd() * 0.05;
      ts += rnd() < 0.05 ? Math.floor(rnd() * 4 * H) : 30_000 + Math.floor(rnd() * 90_000);
    }
    return out;
  }

  it('joining the runs of any split gives the run of all the readings', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const s = randomSamples(seed, 60);
      const whole = runOf(
        s.map((x) => x.ts),
        s.map((x) => x.value),
        RULES,
      ) as CounterRun;
      const rnd = lcg(seed * 7);
      // Split into random consecutive parts and join left to right.
      let acc: CounterRun | null = null;
      let i = 0;
      while (i < s.length) {
        const len = 1 + Math.floor(rnd() * 10);
        const part = s.slice(i, i + len);
        acc = joinRuns(
          acc,
          runOf(
            part.map((x) => x.ts),
            part.map((x) => x.value),
            RULES,
          ),
          RULES,
        );
        i += len;
      }
      const a = acc as CounterRun;
      for (const k of Object.keys(whole) as (keyof CounterRun)[]) {
        if (Number.isNaN(whole[k])) expect(a[k], `seed ${seed} ${k}`).toBeNaN();
        else expect(a[k], `seed ${seed} ${k}`).toBeCloseTo(whole[k], 9);
      }
      // And right to left (joins are associative).
      const halves = [s.slice(0, 20), s.slice(20, 40), s.slice(40)].map((p) =>
        runOf(
          p.map((x) => x.ts),
          p.map((x) => x.value),
          RULES,
        ),
      );
      const right = joinRuns(halves[0] ?? null, joinRuns(halves[1] ?? null, halves[2] ?? null, RULES), RULES) as CounterRun;
      expect(runEnergy(right)).toBeCloseTo(runEnergy(whole), 9);
      expect([right.first, right.last, right.top, right.gap]).toEqual([whole.first, whole.last, whole.top, whole.gap]);
    }
  });

  it('buckets from runs equal the reference computation from raw samples, for any edges', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const s = randomSamples(seed, 80);
      const rnd = lcg(seed * 13);
      const first = (s[0] as CounterSample).ts;
      const last = (s[s.length - 1] as CounterSample).ts;
      const edges: number[] = [];
      for (let t = first - 20 * MIN + Math.floor(rnd() * 10 * MIN); t < last + 30 * MIN; t += 5 * MIN + Math.floor(rnd() * 40 * MIN)) {
        edges.push(t);
      }
      const got = spread(s, edges);
      const want = bucketEnergy(s, edges);
      got.energy.forEach((e, k) => {
        expect(e, `seed ${seed} bucket ${k}`).toBeCloseTo(want.energy[k] as number, 9);
      });
      expect(got.estimated, `seed ${seed}`).toEqual(want.estimated);
      expect(got.energy.every((e) => e >= 0)).toBe(true);
      // Buckets cut in the middle of the series still add up to the counter's movement between the outer edges.
      expect(sum(got.energy)).toBeCloseTo(sum(want.energy), 9);
    }
  });

  it('days built from quarter-hour runs equal days built from raw samples across DST', () => {
    const start = zonedTimeToUtc(TZ, 2026, 10, 24);
    const end = zonedTimeToUtc(TZ, 2026, 10, 27);
    const days = [...localDayStarts(start, end, TZ), end];
    const s = randomSamples(99, 400).map((x, i) => ({ ts: start - H + i * 11 * MIN, value: x.value }));
    const quarters: number[] = [];
    for (let t = start; t <= end; t += 15 * MIN) quarters.push(t);
    const { runs } = runsOver(s, quarters);
    // Fold quarter runs into their days.
    const dayRuns = runColumns();
    days.slice(0, -1).forEach((d, k) => {
      let acc: CounterRun | null = null;
      quarters.forEach((qs, q) => {
        if (qs >= d && qs < (days[k + 1] as number)) acc = joinRuns(acc, runAt(runs, q), RULES);
      });
      pushRun(dayRuns, acc);
    });
    const { before, after } = runsOver(s, days);
    const got = spreadEnergy(days, dayRuns, before, after, RULES);
    const want = bucketEnergy(s, days);
    got.energy.forEach((e, k) => {
      expect(e).toBeCloseTo(want.energy[k] as number, 9);
    });
  });
});
