import { describe, expect, it } from 'vitest';
import { isolatedPoints, maxBridgeMs, withTimeGaps } from './chart-gaps';

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

describe('points a line cannot show', () => {
  it('are the values with no neighbour to join: a single reading, one bucket between gaps', () => {
    const bridge = maxBridgeMs('15m', M15);
    expect(isolatedPoints([0], [413], 0, 0, bridge)).toEqual([0]);
    const xs = [0, M15, 2 * M15, 6 * M15, 9 * M15, 10 * M15];
    expect(isolatedPoints(xs, [1, null, 3, 4, 5, 6], 0, 5, bridge)).toEqual([0, 2, 3]);
    expect(isolatedPoints(xs, [1, 2, 3, 4, 5, 6], 0, 5, bridge)).toEqual([3]);
    expect(isolatedPoints(xs, [null, null, null, null, null, null], 0, 5, bridge)).toEqual([]);
  });
});
