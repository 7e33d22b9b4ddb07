import { describe, expect, it } from 'vitest';
import { latestOf, newestReading } from './get-latest-reading';

describe('latestOf', () => {
  it('takes the newest value of each column and the newest time', () => {
    expect(
      latestOf({
        ts: [1000, 2000, 3000],
        series: {
          power3phases: { kind: 'raw', unit: 'W', values: [1, 2, null] },
          vave1: { kind: 'raw', unit: 'V', values: [230, 231, 232] },
          energy3phases_import: { kind: 'counter', unit: 'kWh', delta: [0, 1, 1], value: [10, 11, 12] },
          tempmain: { kind: 'instant', unit: '°C', avg: [20, null, null], min: [], max: [] },
        },
      }),
    ).toEqual({ ts: 3000, values: { power3phases: 2, vave1: 232, energy3phases_import: 12, tempmain: 20 } });
  });

  it('answers null for an empty answer', () => {
    expect(latestOf({ ts: [], series: {} })).toBeNull();
    expect(latestOf({ ts: [1], series: { pave1: { kind: 'raw', unit: 'W', values: [null] } } })).toBeNull();
  });
});

describe('newestReading', () => {
  const a = { ts: 1, values: { pave1: 1 } };
  const b = { ts: 2, values: { pave1: 2 } };
  it('prefers the newer of the loaded and the pushed reading', () => {
    expect(newestReading(b, a)).toBe(b);
    expect(newestReading(a, b)).toBe(b);
    expect(newestReading(null, a)).toBe(a);
    expect(newestReading(a, undefined)).toBe(a);
    expect(newestReading(null, null)).toBeNull();
  });
});
