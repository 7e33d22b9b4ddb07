import { COUNTER_PARAMETERS, PARAMETER_NAMES } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import { generate, type Row, val } from '../testing/generate.js';
import { DAY_MS, dayOfYear, LocalClock, MINUTE_MS, sunElevationSin } from './environment.js';
import { createModel, KIND_TYPE_CODES, type SimulatedKind } from './index.js';
import { THERMOSTAT_HYSTERESIS } from './thermostat.js';

const KINDS: SimulatedKind[] = ['household', 'workshop', 'solar', 'thermostat', 'single-phase'];
const JAN = Date.UTC(2026, 0, 5);
const JUNE = Date.UTC(2026, 5, 10);
const DEC = Date.UTC(2025, 11, 10);

function counters(rows: Row[]): string[] {
  const first = rows[0];
  return first ? Object.keys(first.v).filter((k) => COUNTER_PARAMETERS.includes(k)) : [];
}

describe('device models', () => {
  it.each(KINDS)('%s sends only catalogue parameters, finite numbers, and has its type code', (kind) => {
    const model = createModel(kind, { seed: 7 });
    expect(model.typeCode).toBe(KIND_TYPE_CODES[kind]);
    const rows = generate(model, JAN, JAN + DAY_MS);
    expect(model.params.filter((name) => !PARAMETER_NAMES.includes(name))).toEqual([]);
    expect(rows.filter((r) => Object.keys(r.v).length !== model.params.length || !Object.values(r.v).every(Number.isFinite))).toEqual([]);
  });

  it.each(KINDS)('%s counters only grow, except at deliberate resets where they restart near zero', (kind) => {
    const model = createModel(kind, { seed: 11, resetsPerYear: 60 });
    const rows = generate(model, JAN, JAN + 30 * DAY_MS);
    const names = counters(rows);
    expect(names.length).toBeGreaterThan(0);
    let resets = 0;
    const violations: string[] = [];
    for (let i = 1; i < rows.length; i++) {
      const prev = rows[i - 1] as Row;
      const row = rows[i] as Row;
      if (row.reset) resets++;
      for (const n of names) {
        // At a reset the new meter holds at most the minute's energy; elsewhere nothing ever goes down.
        const ok = row.reset ? val(row, n) < 1 : val(row, n) >= val(prev, n);
        if (!ok) violations.push(`${n} at ${row.iso}: ${val(prev, n)} → ${val(row, n)}`);
      }
    }
    expect(violations).toEqual([]);
    // 60 a year over 30 days: the seed gives a few, so the branch above is exercised.
    expect(resets).toBeGreaterThan(0);
  });

  it.each([
    ['household', 'eai', 'pave', [1, 2, 3]],
    ['workshop', 'eai', 'pave', [1, 2, 3]],
    ['single-phase', 'eai', 'pave', [1]],
    ['solar', 'eae', 'pave', [1, 2, 3]],
    ['thermostat', 'eai', 'pave', [1]],
  ] as const)('%s energy counter %s matches the integrated power', (kind, counter, power, phases) => {
    const model = createModel(kind, { seed: 3, resetsPerYear: 0, gapsPerYear: 0 });
    const rows = generate(model, JUNE - 20 * DAY_MS, JUNE - 13 * DAY_MS);
    for (const p of phases) {
      let integrated = 0;
      for (let i = 1; i < rows.length; i++) integrated += (val(rows[i] as Row, `${power}${p}`) * (MINUTE_MS / 3_600_000)) / 1000;
      const first = rows[0] as Row;
      const last = rows[rows.length - 1] as Row;
      const delta = val(last, `${counter}${p}`) - val(first, `${counter}${p}`);
      expect(integrated).toBeGreaterThan(0.5);
      expect(Math.abs(delta - integrated) / integrated).toBeLessThan(0.005);
    }
    if (phases.length === 3) {
      const total = counter === 'eai' ? 'energy3phases_import' : 'energy3phases_export';
      const last = rows[rows.length - 1] as Row;
      expect(val(last, total)).toBeCloseTo(val(last, `${counter}1`) + val(last, `${counter}2`) + val(last, `${counter}3`), 2);
    }
  });

  it('solar produces nothing at night and far more in June than in December', () => {
    const energy = (from: number) => {
      const model = createModel('solar', { seed: 5 });
      const rows = generate(model, from, from + 14 * DAY_MS);
      let night = 0;
      const lit: string[] = [];
      for (const r of rows) {
        const sin = sunElevationSin(r.ts, 52.23, 21.01, dayOfYear(r.ts));
        if (sin < -0.05) {
          night++;
          for (const n of ['pave1', 'pave2', 'pave3', 'power3phases', 'vdc1', 'vdc2', 'idc1', 'idc2'])
            if (val(r, n) !== 0) lit.push(`${n} ${r.iso}`);
        }
      }
      expect(lit).toEqual([]);
      expect(night).toBeGreaterThan(14 * 300);
      const first = rows[0] as Row;
      const last = rows[rows.length - 1] as Row;
      return val(last, 'energy3phases_export') - val(first, 'energy3phases_export');
    };
    const june = energy(JUNE);
    const december = energy(DEC);
    expect(december).toBeGreaterThan(0);
    expect(june).toBeGreaterThan(3 * december);
  });

  it('solar has cloudy and sunny days, and DC values while producing', () => {
    const rows = generate(createModel('solar', { seed: 5 }), JUNE, JUNE + 30 * DAY_MS);
    const daily = new Map<number, number>();
    for (const r of rows) daily.set(Math.floor(r.ts / DAY_MS), (daily.get(Math.floor(r.ts / DAY_MS)) ?? 0) + val(r, 'power3phases'));
    const sums = [...daily.values()].sort((a, b) => a - b);
    // The cloudiest June day yields well under half of the sunniest.
    expect((sums[0] ?? 0) / (sums[sums.length - 1] ?? 1)).toBeLessThan(0.5);
    const producing = rows.filter((r) => val(r, 'power3phases') > 500);
    expect(producing.length).toBeGreaterThan(1000);
    expect(producing.filter((r) => !(val(r, 'vdc1') > 250 && val(r, 'idc1') > 0 && val(r, 'idc2') > 0))).toEqual([]);
  });

  it('thermostat relay keeps the room within the hysteresis band and cycles without chatter', () => {
    const model = createModel('thermostat', { seed: 9 });
    const rows = generate(model, JAN, JAN + 10 * DAY_MS).slice(24 * 60);
    const tol = 0.051; // tempmain is sent with one decimal
    let switchesOn = 0;
    let runStart = -1;
    let shortest = Number.POSITIVE_INFINITY;
    const violations: string[] = [];
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i] as Row;
      const t = val(r, 'tempmain');
      const set = val(r, 'tempset');
      const relay = val(r, 'rel1');
      const prevRelay = i > 0 ? val(rows[i - 1] as Row, 'rel1') : relay;
      if (relay !== 0 && relay !== 1) violations.push(`rel1 ${relay}`);
      if (relay === 1 && t > set + THERMOSTAT_HYSTERESIS + tol) violations.push(`on at ${t} (set ${set}) ${r.iso}`);
      if (relay === 0 && t < set - THERMOSTAT_HYSTERESIS - tol) violations.push(`off at ${t} (set ${set}) ${r.iso}`);
      // A heater on for the whole minute draws its full power; off for the whole minute, only the electronics.
      if (relay === 1 && prevRelay === 1 && val(r, 'pave1') < 1000) violations.push(`on without power ${r.iso}`);
      if (relay === 0 && prevRelay === 0 && val(r, 'pave1') > 10) violations.push(`off with power ${r.iso}`);
      if (prevRelay === 0 && relay === 1) {
        switchesOn++;
        runStart = i;
      }
      // A run cut short by the schedule lowering tempset is not chatter; runs under one setpoint are what count.
      const sameSet = runStart >= 0 && val(rows[runStart] as Row, 'tempset') === set;
      if (prevRelay === 1 && relay === 0 && sameSet) shortest = Math.min(shortest, i - runStart);
    }
    expect(violations).toEqual([]);
    // Winter: the heater cycles many times a day, each run lasting minutes, not one reading.
    expect(switchesOn).toBeGreaterThan(9 * 8);
    expect(shortest).toBeGreaterThanOrEqual(5);
  });

  it.each(KINDS)('%s voltage, frequency and power factor stay plausible; sags happen', (kind) => {
    const rows = generate(createModel(kind, { seed: 21 }), JAN, JAN + 30 * DAY_MS);
    let lowest = Number.POSITIVE_INFINITY;
    const violations: string[] = [];
    for (const r of rows) {
      for (const p of [1, 2, 3]) {
        const v = r.v[`vave${p}`];
        if (v === undefined) continue;
        lowest = Math.min(lowest, v);
        const vmin = r.v[`vmin${p}`] ?? v;
        const vmax = r.v[`vmax${p}`] ?? v;
        if (!(vmin >= 180 && vmin <= v && v <= vmax && vmax <= 260)) violations.push(`V${p} ${vmin}/${v}/${vmax} ${r.iso}`);
        const pf = r.v[`pfave${p}`];
        if (pf !== undefined && !(pf > 0.3 && pf <= 1)) violations.push(`pf${p} ${pf} ${r.iso}`);
      }
      const f = r.v.frq1;
      if (f !== undefined && !(f > 49.9 && f < 50.1)) violations.push(`frq ${f} ${r.iso}`);
    }
    expect(violations).toEqual([]);
    expect(lowest).toBeLessThan(215);
  });

  it('household load peaks in the local morning and evening, and is imbalanced across phases', () => {
    const rows = generate(createModel('household', { seed: 4 }), JAN, JAN + 28 * DAY_MS);
    const clock = new LocalClock('Europe/Warsaw');
    const byHour = new Array<number>(24).fill(0);
    const phaseSum = [0, 0, 0];
    for (const r of rows) {
      const hour = Math.floor(clock.at(r.ts).hour);
      byHour[hour] = (byHour[hour] ?? 0) + val(r, 'power3phases');
      for (const p of [0, 1, 2]) phaseSum[p] = (phaseSum[p] ?? 0) + val(r, `pave${p + 1}`);
    }
    const night = byHour[3] ?? 0;
    expect(byHour[7] ?? 0).toBeGreaterThan(2 * night);
    expect(byHour[19] ?? 0).toBeGreaterThan(3 * night);
    expect(phaseSum[0] ?? 0).toBeGreaterThan(1.2 * (phaseSum[2] ?? 0));
  });

  it('workshop works on weekdays and rests on Sundays', () => {
    // 2026-01-05 is a Monday, 2026-01-11 a Sunday.
    const rows = generate(createModel('workshop', { seed: 4 }), JAN, JAN + 7 * DAY_MS);
    const mean = (day: number, h: number) => {
      const sel = rows.filter((r) => r.ts >= JAN + day * DAY_MS + h * 3_600_000 && r.ts < JAN + day * DAY_MS + (h + 1) * 3_600_000);
      return sel.reduce((s, r) => s + val(r, 'power3phases'), 0) / sel.length;
    };
    // 10:00 local is 09:00 UTC in winter.
    expect(mean(0, 9)).toBeGreaterThan(3 * mean(6, 9));
    expect(mean(2, 9)).toBeGreaterThan(3 * mean(2, 1));
  });

  it.each(KINDS)('%s is deterministic for a seed and resumes exactly from a snapshot', (kind) => {
    const a = generate(createModel(kind, { seed: 99 }), JAN, JAN + 2 * DAY_MS);
    const b = generate(createModel(kind, { seed: 99 }), JAN, JAN + 2 * DAY_MS);
    expect(b).toEqual(a);
    const other = generate(createModel(kind, { seed: 100 }), JAN, JAN + 2 * DAY_MS);
    expect(other).not.toEqual(a);

    const first = createModel(kind, { seed: 99 });
    const head = generate(first, JAN, JAN + DAY_MS);
    const snapshot = JSON.parse(JSON.stringify(first.snapshot())) as ReturnType<typeof first.snapshot>;
    const resumed = createModel(kind, { seed: 99 });
    resumed.restore(snapshot);
    const tail = generate(resumed, JAN + DAY_MS + MINUTE_MS, JAN + 2 * DAY_MS);
    expect([...head, ...tail].map((r) => r.v)).toEqual(a.map((r) => r.v));
  });

  it('timestamps are UTC, one minute apart, across both DST changes, and load follows local time', () => {
    const clock = new LocalClock('Europe/Warsaw');
    // Spring forward: 02:00 local does not exist on 2026-03-29; fall back: 02:00–03:00 happens twice on 2026-10-25.
    expect(clock.at(Date.UTC(2026, 2, 29, 0, 59)).hour).toBeCloseTo(1 + 59 / 60, 6);
    expect(clock.at(Date.UTC(2026, 2, 29, 1, 0)).hour).toBe(3);
    expect(clock.at(Date.UTC(2026, 9, 25, 0, 59)).hour).toBeCloseTo(2 + 59 / 60, 6);
    expect(clock.at(Date.UTC(2026, 9, 25, 1, 0)).hour).toBe(2);
    for (const day of [Date.UTC(2026, 2, 28), Date.UTC(2026, 9, 24)]) {
      const rows = generate(createModel('household', { seed: 1 }), day, day + 3 * DAY_MS);
      expect(rows).toHaveLength(3 * 1440 + 1);
      const bad = rows.filter(
        (r, i) =>
          !/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/.test(r.iso) ||
          Date.parse(r.iso) !== r.ts ||
          (i > 0 && r.ts - (rows[i - 1] as Row).ts !== MINUTE_MS),
      );
      expect(bad).toEqual([]);
    }
    // The thermostat's schedule switches at 06:00 local: 05:00 UTC in winter, 04:00 UTC in summer.
    const winter = generate(createModel('thermostat', { seed: 1 }), Date.UTC(2026, 0, 6, 4, 50), Date.UTC(2026, 0, 6, 5, 10));
    const summer = generate(createModel('thermostat', { seed: 1 }), Date.UTC(2026, 6, 7, 3, 50), Date.UTC(2026, 6, 7, 4, 10));
    expect(val(winter[0] as Row, 'tempset')).toBe(18);
    expect(val(winter[winter.length - 1] as Row, 'tempset')).toBe(21);
    expect(val(summer[0] as Row, 'tempset')).toBe(18);
    expect(val(summer[summer.length - 1] as Row, 'tempset')).toBe(21);
  });

  it('gaps and resets are deliberate, rare by default and frequent when asked', () => {
    const year = Date.UTC(2025, 0, 1);
    const count = (gapsPerYear: number) => {
      const m = createModel('single-phase', { seed: 2, gapsPerYear });
      let gaps = 0;
      for (let ts = year; ts < year + 365 * DAY_MS; ts += MINUTE_MS) if (m.isGap(ts)) gaps++;
      return gaps;
    };
    const rare = count(6);
    expect(rare).toBeGreaterThan(0);
    expect(rare).toBeLessThan(365 * 1440 * 0.01);
    expect(count(100)).toBeGreaterThan(rare * 5);
    expect(count(0)).toBe(0);
  });
});
