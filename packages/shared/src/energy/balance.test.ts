import { describe, expect, it } from 'vitest';
import { netEnergyStep, startBalance, stepBalance } from './balance.js';

const reading = (imp: [number, number, number], exp: [number, number, number]) => ({
  eai1: imp[0],
  eai2: imp[1],
  eai3: imp[2],
  eae1: exp[0],
  eae2: exp[1],
  eae3: exp[2],
});

describe('net (balanced) three-phase energy', () => {
  it('solar on one phase and a load on another cancel out: the utility bills neither', () => {
    const s = startBalance();
    // Phase 1 feeds 2 kWh of solar into the grid while a 2 kWh load runs on phase 2.
    expect(stepBalance(s, reading([100, 50, 10], [20, 0, 0]))).toEqual({ balance: 0, balance_export: 0 });
    const out = stepBalance(s, reading([100, 52, 10], [22, 0, 0]));
    // The per-phase sums show 2 kWh imported and 2 kWh exported ...
    expect(52 - 50 + (100 - 100) + (10 - 10)).toBe(2);
    expect(22 - 20).toBe(2);
    // ... the balanced counters neither.
    expect(out).toEqual({ balance: 0, balance_export: 0 });
  });

  it('counts the surplus of an interval in its direction only', () => {
    const s = startBalance({ import: 10, export: 5 });
    stepBalance(s, reading([100, 50, 10], [20, 0, 0]));
    // 3 kWh of solar on phase 1, 1 kWh of load on phase 2, 0.5 kWh on phase 3: 1.5 kWh exported net.
    expect(stepBalance(s, reading([100, 51, 10.5], [23, 0, 0]))).toEqual({ balance: 10, balance_export: 6.5 });
    // Next interval: the sun is gone, 2 kWh of load on phase 3.
    expect(stepBalance(s, reading([100, 51, 12.5], [23, 0, 0]))).toEqual({ balance: 12, balance_export: 6.5 });
  });

  it('follows the counter rules: a reset counts from zero, a dip adds nothing and neither does its recovery', () => {
    const s = startBalance();
    stepBalance(s, reading([100, 50, 10], [20, 0, 0]));
    // Phase 2's meter restarted (power loss) and counted 0.4 kWh since: 0.4, not −49.6 and not +50.
    expect(netEnergyStep(s, reading([100, 0.4, 10], [20, 0, 0]))).toBeCloseTo(0.4, 9);
    // Phase 3 reads a little low (noise), then back: nothing either time.
    expect(netEnergyStep(s, reading([100, 0.4, 9.99], [20, 0, 0]))).toBe(0);
    expect(netEnergyStep(s, reading([100, 0.4, 10], [20, 0, 0]))).toBe(0);
  });

  it('nets only readings that carry import and export of a phase', () => {
    const s = startBalance();
    expect(stepBalance(s, { eai1: 5, pave1: 100 })).toEqual({});
    expect(netEnergyStep(s, { vave1: 230 })).toBeNull();
  });
});
