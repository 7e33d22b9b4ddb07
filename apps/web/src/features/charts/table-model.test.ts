import { describe, expect, it } from 'vitest';
import type { ChartData } from './chart-data';
import { pageOf, sortRows, tableRows } from './table-model';

const data: ChartData = {
  ts: [1000, 2000, 3000, 4000],
  columns: [
    { spec: { param: 'eai1', color: '' }, unit: 'kWh', values: [0.5, null, 0.25, 0.5] },
    { spec: { param: 'eae1', color: '' }, unit: 'kWh', values: [0, 1, 2, 3] },
  ],
  estimated: [2],
  state: null,
};

describe('table model', () => {
  it('has one row per bucket with the chart values and the estimated mark', () => {
    const rows = tableRows(data);
    expect(rows.map((r) => r.values)).toEqual([
      [0.5, 0],
      [null, 1],
      [0.25, 2],
      [0.5, 3],
    ]);
    expect(rows.map((r) => r.estimated)).toEqual([false, false, true, false]);
  });

  it('sorts by time or by a column, empty values last, ties in time order', () => {
    const rows = tableRows(data);
    expect(sortRows(rows, 'ts', 'desc').map((r) => r.ts)).toEqual([4000, 3000, 2000, 1000]);
    expect(sortRows(rows, 0, 'asc').map((r) => r.ts)).toEqual([3000, 1000, 4000, 2000]);
    expect(sortRows(rows, 0, 'desc').map((r) => r.ts)).toEqual([1000, 4000, 3000, 2000]);
    expect(sortRows(rows, 1, 'desc').map((r) => r.ts)).toEqual([4000, 3000, 2000, 1000]);
  });

  it('pages rows and keeps the page within bounds', () => {
    const xs = Array.from({ length: 53 }, (_, i) => i);
    expect(pageOf(xs, 1, 25)).toEqual({ rows: xs.slice(0, 25), page: 1, pages: 3 });
    expect(pageOf(xs, 3, 25).rows).toEqual([50, 51, 52]);
    expect(pageOf(xs, 9, 25).page).toBe(3);
    expect(pageOf(xs, 0, 25).page).toBe(1);
    expect(pageOf([], 1, 25)).toEqual({ rows: [], page: 1, pages: 1 });
  });
});
