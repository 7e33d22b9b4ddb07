import { DEVICE_TYPES, deviceFigures, type ReadingsResponse } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import {
  alignPrevious,
  baseLoad,
  bucketStart,
  buildChartData,
  compareOffset,
  emptyLiveState,
  estimatedBuckets,
  mergeLive,
  quantile,
  splitEstimated,
  withPrevious,
} from './chart-data';
import { chartParams, chartsFor, genericCharts } from './chart-specs';

const Q = 15 * 60_000;
const T0 = Date.UTC(2026, 10, 26, 10);

function answer(series: ReadingsResponse['series'], n = 3): ReadingsResponse {
  return {
    interval: '15m',
    from: T0,
    to: T0 + 96 * Q,
    timezone: 'Europe/Warsaw',
    ts: Array.from({ length: n }, (_, i) => T0 + i * Q),
    series,
  };
}

describe('chart specs', () => {
  const energy = deviceFigures(DEVICE_TYPES.ENERGY_METER_3P);
  it('draws every phase in the summary and one phase with its min/max band in a phase view', () => {
    const summary = chartsFor(energy, 'summary');
    expect(summary.map((c) => c.id)).toEqual([
      'power',
      'voltage',
      'current',
      'powerFactor',
      'frequency',
      'activeEnergy',
      'reactiveEnergy',
      'balance',
    ]);
    expect(chartParams(summary[1] as never)).toEqual(['vave1', 'vave2', 'vave3']);
    const l2 = chartsFor(energy, 2);
    expect(l2.map((c) => c.id)).toEqual(['power', 'voltage', 'current', 'powerFactor', 'activeEnergy', 'reactiveEnergy']);
    // The band is the bucket's min and max of the same parameter: one parameter asked for.
    expect(chartParams(l2[0] as never)).toEqual(['pave2']);
    expect(l2[0]?.series.map((s) => s.stat ?? 'avg')).toEqual(['avg', 'min', 'max']);
    expect(chartParams(l2[4] as never)).toEqual(['eai2', 'eae2']);
  });

  it('gives the thermostat its temperatures with the relay as a band, and solar its production', () => {
    const thermo = chartsFor(deviceFigures(DEVICE_TYPES.THERMOSTAT), 'summary');
    expect(thermo[0]?.stateBand).toBe('rel1');
    expect(chartParams(thermo[0] as never)).toEqual(['tempmain', 'tempset', 'rel1']);
    const solar = chartsFor(deviceFigures(DEVICE_TYPES.SOLAR), 'summary');
    expect(solar.map((c) => c.id)).toEqual(['production', 'solarEnergy', 'dc', 'voltage', 'frequency']);
  });

  it('charts whatever a generic device sends, grouped by quantity and unit', () => {
    const charts = genericCharts(['vave1', 'pave1', 'pmax1', 'eai1', 'eri1', 'tempmain', 'vdc1', 'idc1']);
    expect(charts.map((c) => `${c.id}:${c.style}:${chartParams(c).join('+')}`)).toEqual([
      'power:line:pave1',
      'voltage:line:vave1',
      'activeEnergy:bars:eai1',
      'reactiveEnergy:bars:eri1',
      'dc-V:line:vdc1',
      'dc-A:line:idc1',
      'temperature:line:tempmain',
    ]);
    expect(chartsFor(deviceFigures(1), 'summary', ['frq1']).map((c) => c.id)).toEqual(['frequency']);
  });
});

describe('buildChartData', () => {
  it('takes the means, mins and maxes and the energy deltas without copying, and leaves out series never sent', () => {
    const avg = [230, 231, null];
    const res = answer({
      vave1: { kind: 'instant', unit: 'V', avg, min: [229, 230, null], max: [231, 232, null] },
      vave2: { kind: 'instant', unit: 'V', avg: [null, null, null], min: [null, null, null], max: [null, null, null] },
    });
    const spec = chartsFor(deviceFigures(13), 1)[1];
    if (!spec) throw new Error('no voltage chart');
    const d = buildChartData(res, spec);
    expect(d.columns.map((c) => c.spec.stat ?? 'avg')).toEqual(['avg', 'min', 'max']);
    expect(d.columns[0]?.values).toBe(avg);
    expect(d.columns[2]?.values).toEqual([231, 232, null]);
    const summary = chartsFor(deviceFigures(13), 'summary')[1];
    if (!summary) throw new Error('no voltage chart');
    // vave2 is all nulls and vave3 absent: only L1 is drawn.
    expect(buildChartData(res, summary).columns.map((c) => c.spec.param)).toEqual(['vave1']);
  });

  it('marks the buckets any counter lists as estimated', () => {
    const res = answer({
      eai1: { kind: 'counter', unit: 'kWh', delta: [0.1, 0.5, 0.1], estimated: [1] },
      eae1: { kind: 'counter', unit: 'kWh', delta: [0, 0, 0.2], estimated: [2, 1, 7] },
      pave1: { kind: 'instant', unit: 'W', avg: [1, null, 2], min: [1, null, 2], max: [1, null, 2] },
    });
    expect(estimatedBuckets(res)).toEqual([1, 2]);
    expect(estimatedBuckets(answer({ eai1: { kind: 'counter', unit: 'kWh', delta: [1, 1, 1] } }))).toEqual([]);
    const { measured, estimated } = splitEstimated([0.1, 0.5, 0.1], [1]);
    expect(measured).toEqual([0.1, null, 0.1]);
    expect(estimated).toEqual([null, 0.5, null]);
    const same = [1, 2];
    expect(splitEstimated(same, []).measured).toBe(same);
  });

  it('keeps the relay as the state band of the thermostat', () => {
    const spec = chartsFor(deviceFigures(17), 'summary')[0];
    if (!spec) throw new Error('no chart');
    const res = answer({
      tempmain: { kind: 'instant', unit: '°C', avg: [20, 21, 22], min: [20, 21, 22], max: [20, 21, 22] },
      rel1: { kind: 'instant', unit: '', avg: [0, 0.5, 1], min: [0, 0, 1], max: [0, 1, 1] },
    });
    const d = buildChartData(res, spec);
    expect(d.state).toEqual([0, 0.5, 1]);
    expect(d.columns.map((c) => c.spec.param)).toEqual(['tempmain']);
  });
});

describe('mergeLive', () => {
  const base = () =>
    answer(
      {
        pave1: { kind: 'instant', unit: 'W', avg: [100, 200], min: [90, 150], max: [110, 250] },
        eai1: { kind: 'counter', unit: 'kWh', delta: [0.1, 0.2] },
      },
      2,
    );

  it('updates the newest bucket and appends a new one, counting energy between pushed counters', () => {
    let { res, state } = mergeLive(base(), { ts: T0 + Q + 60_000, values: { pave1: 400, eai1: 10 } }, emptyLiveState());
    expect(res.ts).toHaveLength(2);
    const p = () => res.series.pave1 as { avg: (number | null)[]; min: (number | null)[]; max: (number | null)[] };
    expect(p().avg[1]).toBe(300); // the loaded mean weighs as one reading
    expect(p().max[1]).toBe(400);
    expect((res.series.eai1 as { delta: (number | null)[] }).delta[1]).toBe(0.2); // first push: start only
    ({ res, state } = mergeLive(res, { ts: T0 + Q + 120_000, values: { pave1: 100, eai1: 10.5 } }, state));
    expect(p().avg[1]).toBeCloseTo(700 / 3);
    expect(p().min[1]).toBe(100);
    expect((res.series.eai1 as { delta: (number | null)[] }).delta[1]).toBeCloseTo(0.7);
    ({ res, state } = mergeLive(res, { ts: T0 + 2 * Q + 5000, values: { pave1: 50, eai1: 11 } }, state));
    expect(res.ts).toEqual([T0, T0 + Q, T0 + 2 * Q]);
    expect(p().avg[2]).toBe(50);
    expect((res.series.eai1 as { delta: (number | null)[] }).delta[2]).toBeCloseTo(0.5);
  });

  it('counts pushed counters by the shared rules: a small drop is noise, a large one a reset', () => {
    let cur = { res: base(), state: emptyLiveState() };
    const push = (ts: number, eai1: number) => {
      cur = mergeLive(cur.res, { ts, values: { eai1 } }, cur.state);
    };
    const delta = () => (cur.res.series.eai1 as { delta: (number | null)[] }).delta[1] as number;
    push(T0 + Q + 1000, 10);
    push(T0 + Q + 2000, 9.95); // jitter: nothing
    expect(delta()).toBeCloseTo(0.2);
    push(T0 + Q + 3000, 10.2); // counted from the highest value seen (10), not from 9.95
    expect(delta()).toBeCloseTo(0.4);
    push(T0 + Q + 4000, 0.3); // a reset counts from zero
    expect(delta()).toBeCloseTo(0.7);
  });

  it('leaves the answer alone for readings outside the range or before the newest bucket', () => {
    const b = base();
    expect(mergeLive(b, { ts: T0 - 1, values: { pave1: 1 } }, emptyLiveState()).res).toBe(b);
    expect(mergeLive(b, { ts: T0 + 5, values: { pave1: 1 } }, emptyLiveState()).res).toBe(b);
    expect(mergeLive(b, { ts: b.to, values: { pave1: 1 } }, emptyLiveState()).res).toBe(b);
  });

  it('does not mutate the loaded answer', () => {
    const b = base();
    mergeLive(b, { ts: T0 + Q + 1, values: { pave1: 1000 } }, emptyLiveState());
    expect((b.series.pave1 as { avg: number[] }).avg).toEqual([100, 200]);
  });
});

describe('buckets, comparison and base load', () => {
  it('finds bucket starts in UTC and in local days', () => {
    expect(bucketStart(T0 + 17 * 60_000, '15m', 'UTC')).toBe(T0 + Q);
    expect(bucketStart(T0 + 47 * 60_000, '30m', 'UTC')).toBe(T0 + 30 * 60_000);
    expect(bucketStart(T0 + 47 * 60_000, '1h', 'UTC')).toBe(T0);
    // 10:00 UTC on 26 Nov is 11:00 in Warsaw: the local day started at 23:00 UTC the day before.
    expect(bucketStart(T0, '24h', 'Europe/Warsaw')).toBe(Date.UTC(2026, 10, 25, 23));
  });

  it('aligns the previous span to the current buckets', () => {
    const day = compareOffset('day', T0);
    expect(day).toBe(86_400_000);
    expect(compareOffset('week', T0)).toBe(7 * 86_400_000);
    expect(compareOffset('year', Date.UTC(2026, 2, 1))).toBe(365 * 86_400_000);
    expect(compareOffset('year', Date.UTC(2024, 2, 1))).toBe(366 * 86_400_000);
    const ts = [T0, T0 + Q, T0 + 2 * Q];
    expect(alignPrevious(ts, [T0 - day, T0 - day + 2 * Q], [5, 7], day)).toEqual([5, null, 7]);
  });

  it('widens the time axis to the whole previous span', () => {
    const day = 86_400_000;
    const mk = (ts: number[], values: (number | null)[]) => ({
      ts,
      columns: [{ spec: { param: 'eai1', color: '' }, unit: 'kWh', values }],
      estimated: [],
      state: null,
    });
    const today = mk([T0, T0 + Q], [1, 2]);
    const yesterday = mk([T0 - day, T0 - day + Q, T0 - day + 2 * Q, T0 - day + 3 * Q], [5, 6, 7, 8]);
    const { data, previous } = withPrevious(today, yesterday, day);
    expect(data.ts).toEqual([T0, T0 + Q, T0 + 2 * Q, T0 + 3 * Q]);
    expect(data.columns[0]?.values).toEqual([1, 2, null, null]);
    expect(previous).toEqual([[5, 6, 7, 8]]);
  });

  it('takes a low percentile of 15-minute power as the base load', () => {
    expect(quantile([3, 1, null, 2], 0)).toBe(1);
    expect(quantile([3, 1, null, 2], 0.5)).toBe(2);
    expect(quantile([1, 2], 0.25)).toBe(1.25);
    expect(quantile([null], 0.5)).toBeNull();
    const week = Array.from({ length: 672 }, (_, i) => (i % 96 < 24 ? 120 : 800 + (i % 7)));
    const b = baseLoad(week);
    expect(b?.watts).toBe(120);
    expect(b?.kwhPerYear).toBeCloseTo(1051.2);
    expect(baseLoad([])).toBeNull();
    expect(baseLoad([-5, -3])?.watts).toBe(0);
  });
});
