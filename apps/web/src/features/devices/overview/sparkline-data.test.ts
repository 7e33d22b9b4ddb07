import { describe, expect, it } from 'vitest';
import { sparkDots, sparkPath, sparkSeries } from './sparkline-data';

const instant = (avg: (number | null)[]) => ({ kind: 'instant' as const, unit: 'W', avg, min: avg, max: avg });

describe('sparkSeries', () => {
  it('takes total power, else the sum of the phases a bucket has', () => {
    const s = sparkSeries(
      {
        ts: [1, 2, 3, 4],
        series: {
          power3phases: instant([600, null, null, null]),
          pave1: instant([100, 100, 50, null]),
          pave2: instant([200, 200, null, null]),
          pave3: instant([300, null, null, null]),
        },
      },
      'energy',
    );
    expect(s.values).toEqual([600, 300, 50, null]);
    expect([s.min, s.max, s.unit]).toEqual([50, 600, 'W']);
    expect(s.mean).toBeCloseTo(950 / 3);
  });

  it("draws a thermostat's temperature", () => {
    const s = sparkSeries({ ts: [1, 2], series: { tempmain: instant([20.5, 21]) } }, 'thermostat');
    expect(s.values).toEqual([20.5, 21]);
    expect(s.unit).toBe('°C');
  });
});

describe('sparkPath', () => {
  it('breaks the line where there is no data and spans the box', () => {
    expect(sparkPath([0, 10, null, 10], 30, 12)).toBe('M0.0 10.0L10.0 2.0M30.0 2.0');
    expect(sparkPath([null, null], 30, 12)).toBe('');
  });
});

describe('sparkDots', () => {
  it('marks the values no line passes through: one reading in the middle, a value between gaps', () => {
    expect(sparkDots([412], 600, 90)).toBe('M300.0 45.0h0');
    expect(sparkDots([0, 10, null, 10], 30, 12)).toBe('M30.0 2.0h0');
    expect(sparkDots([1, 2, 3], 30, 12)).toBe('');
    expect(sparkDots([null], 30, 12)).toBe('');
  });
});

describe('sparkline on a time axis', () => {
  it('draws 4 minutes of data as 4 minutes of a 24-hour axis, at their time, not across the whole width', () => {
    const to = Date.UTC(2026, 10, 27, 12);
    const from = to - 86_400_000;
    const ts = [to - 4 * 60_000, to - 3 * 60_000, to - 2 * 60_000, to - 60_000];
    const path = sparkPath([100, 120, 110, 130], 240, 60, { ts, from, to });
    const xs = [...path.matchAll(/[ML]([\d.]+) /g)].map((m) => Number(m[1]));
    expect(xs).toHaveLength(4);
    // The last 4 minutes of 1,440 are the last 0.7 px of 240.
    for (const x of xs) expect(x).toBeGreaterThan(239);
    // One reading an hour into the window is a dot at 1/24 of the width.
    const dot = sparkDots([5], 240, 60, { ts: [from + 3_600_000], from, to });
    expect(dot).toBe('M10.0 30.0h0');
    // Without a place, the old even spread (index order) is kept.
    expect(sparkPath([1, 2], 240, 60)).toMatch(/^M0\.0 .*L240\.0 /);
  });
});
