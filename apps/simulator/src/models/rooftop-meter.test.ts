import { describe, expect, it } from 'vitest';
import { generate, type Row, val } from '../testing/generate.js';
import { DAY_MS } from './environment.js';
import { createModel } from './index.js';

const JUNE = Date.UTC(2026, 5, 10);
const KWH = ['1', '2', '3'];
const sum = (r: Row, counter: string) => KWH.reduce((s, p) => s + val(r, `${counter}${p}`), 0);

describe('a grid meter behind rooftop solar (issue 33)', () => {
  it('imports the house load minus the PV and exports the surplus: import − export = load − production', () => {
    const opts = { seed: 7, resetsPerYear: 0, gapsPerYear: 0 };
    const from = JUNE;
    const to = JUNE + 3 * DAY_MS;
    const grid = generate(createModel('household', { ...opts, rooftopSolarSeed: 11 }), from, to);
    const house = generate(createModel('household', opts), from, to);
    const pv = generate(createModel('solar', { ...opts, seed: 11 }), from, to);
    const first = (rows: Row[]) => rows[0] as Row;
    const last = (rows: Row[]) => rows[rows.length - 1] as Row;
    const d = (rows: Row[], c: string) => sum(last(rows), c) - sum(first(rows), c);
    const imported = d(grid, 'eai');
    const exported = d(grid, 'eae');
    const load = d(house, 'eai');
    const produced = d(pv, 'eae');
    // Sunny June days: the meter both imports (nights, evenings) and exports (noon).
    expect(imported).toBeGreaterThan(1);
    expect(exported).toBeGreaterThan(1);
    expect(Math.abs(imported - exported - (load - produced))).toBeLessThan(0.05);
    expect(imported).toBeLessThan(load);
    // At night nothing is exported.
    const nights = grid.filter((r) => new Date(r.ts).getUTCHours() === 0);
    expect(nights.every((r) => val(r, 'pave1') + val(r, 'pave2') + val(r, 'pave3') > 0)).toBe(true);
  });
});
