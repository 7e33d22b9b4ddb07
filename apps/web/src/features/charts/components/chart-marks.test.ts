import { describe, expect, it } from 'vitest';
import { labelsInside } from './uplot-axes';
import { partialBucket } from './uplot-draw';

const width = (s: string) => s.length * 7;

describe('axis labels at the edges', () => {
  it('leaves out a label its tick would cut off, keeps the others', () => {
    // A day from 00:00 to 24:00 on a 600 px canvas: the last tick sits on the right edge.
    const labels = ['12:00 AM', '06:00 AM', '12:00 PM', '06:00 PM', '12:00 AM'];
    const xs = [60, 195, 330, 465, 600];
    expect(labelsInside(labels, xs, 600, width)).toEqual(['12:00 AM', '06:00 AM', '12:00 PM', '06:00 PM', null]);
    expect(labelsInside(['Nov 26'], [10], 600, width)).toEqual([null]);
    expect(labelsInside(['Nov 26'], [30], 600, width)).toEqual(['Nov 26']);
  });
});

describe('the bucket still running', () => {
  const DAY = 86_400_000;
  it('is the last bucket when it holds now', () => {
    const xs = [0, DAY, 2 * DAY];
    expect(partialBucket(xs, DAY, 2 * DAY + 5)).toBe(2);
    expect(partialBucket(xs, DAY, 3 * DAY)).toBeNull();
    expect(partialBucket(xs, DAY, DAY + 5)).toBeNull();
    expect(partialBucket([], DAY, 0)).toBeNull();
  });
});
