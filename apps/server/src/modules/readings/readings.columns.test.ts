import { describe, expect, it } from 'vitest';
import { filledColumn, giveColumn, pooledColumnBytes, takeColumn } from './readings.columns.js';

describe('read column pool', () => {
  it('hands a given-back column out again, filled as asked', () => {
    const a = filledColumn(35_040, 1);
    giveColumn(a);
    const b = filledColumn(35_040, Number.NaN);
    expect(b).toBe(a);
    expect(Number.isNaN(b[0] as number) && Number.isNaN(b[35_039] as number)).toBe(true);
    giveColumn(b);
  });

  it('never hands one column to two readers: a second give, or a column it did not hand out, is ignored', () => {
    const a = takeColumn(10_000);
    giveColumn(a);
    giveColumn(a);
    giveColumn(new Float64Array(10_000));
    const x = takeColumn(10_000);
    const y = takeColumn(10_000);
    expect(x).toBe(a);
    expect(y).not.toBe(a);
    giveColumn(x);
    giveColumn(y);
  });

  it('keeps short columns out of the pool and its size bounded', () => {
    const before = pooledColumnBytes();
    giveColumn(takeColumn(100));
    expect(pooledColumnBytes()).toBe(before);
    const cols = Array.from({ length: 300 }, () => takeColumn(35_040));
    for (const c of cols) giveColumn(c);
    expect(pooledColumnBytes()).toBeLessThanOrEqual(64 * 1024 * 1024);
    expect(pooledColumnBytes()).toBeGreaterThan(0);
  });
});
