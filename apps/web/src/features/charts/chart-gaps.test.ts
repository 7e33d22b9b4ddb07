import { describe, expect, it } from 'vitest';
import { maxBridgeMs, withTimeGaps } from './chart-gaps';

const M15 = 15 * 60_000;
const px = (x: number) => x / 60_000; // a pixel a minute

describe('line gaps where buckets are missing', () => {
  it('adds a gap between neighbours further apart than one missing bucket, keeps the others joined', () => {
    const xs = [0, M15, 2 * M15, 6 * M15, 7 * M15];
    const ys = [1, 2, 3, 4, 5];
    expect(withTimeGaps(xs, ys, 0, 4, maxBridgeMs('15m', M15), px, [])).toEqual([[30, 90]]);
    // One bucket apart: joined.
    expect(withTimeGaps([0, M15, 2 * M15], [1, 2, 3], 0, 2, maxBridgeMs('15m', M15), px, [])).toEqual([]);
  });

  it('measures from the last point with a value, and merges with uPlot null gaps in order', () => {
    const xs = [0, M15, 2 * M15, 3 * M15, 8 * M15];
    const ys = [1, null, null, 2, 3];
    const nullGaps: [number, number][] = [[0, 45]];
    expect(withTimeGaps(xs, ys, 0, 4, maxBridgeMs('15m', M15), px, nullGaps)).toEqual([[0, 120]]);
    // Points no further apart than that: uPlot's own gaps come back as they were.
    expect(withTimeGaps([0, M15, 2 * M15], [1, 2, 3], 0, 2, maxBridgeMs('15m', M15), px, nullGaps)).toBe(nullGaps);
  });

  it('bridges raw readings up to 15 minutes', () => {
    const xs = [0, 5 * 60_000, 10 * 60_000, 40 * 60_000];
    expect(withTimeGaps(xs, [1, 2, 3, 4], 0, 3, maxBridgeMs('raw', 60_000), px, [])).toEqual([[10, 40]]);
  });
});
