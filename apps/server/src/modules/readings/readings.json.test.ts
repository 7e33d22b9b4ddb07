import { readingsResponseSchema } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import { plainReadings, type ReadingsColumns, readingsJson } from './readings.json.js';

const col = (...xs: number[]) => Float64Array.from(xs);

const answer: ReadingsColumns = {
  interval: '15m',
  from: 1_767_222_000_000,
  to: 1_767_308_400_000,
  timezone: 'Europe/Warsaw',
  ts: col(1_767_222_000_000, 1_767_222_900_000, 1_767_223_800_000),
  series: {
    vave1: {
      kind: 'instant',
      unit: 'V',
      avg: col(230.45, Number.NaN, 229.9),
      min: col(228.1, Number.NaN, -0),
      max: col(232, Number.NaN, 1e21),
    },
    eai1: { kind: 'counter', unit: 'kWh', delta: col(0.000001, 1e-7, Number.NaN), estimated: [1] },
    'odd "name"': { kind: 'raw', unit: '°C', values: col(-12.5, 0.1 + 0.2, Number.NaN) },
    eae1: { kind: 'counter', unit: 'kWh', delta: col(0, 0, 0), value: col(1000.125, 1000.5, Number.NaN) },
  },
};

describe('readings answer as JSON', () => {
  it('is the JSON.stringify text of the answer with arrays, NaN written as null', () => {
    const json = readingsJson(answer);
    expect(json).toBe(JSON.stringify(plainReadings(answer)));
    const parsed = JSON.parse(json);
    expect(parsed.series.vave1.avg).toEqual([230.45, null, 229.9]);
    expect(parsed.series.eai1).toEqual({ kind: 'counter', unit: 'kWh', delta: [0.000001, 1e-7, null], estimated: [1] });
    expect(parsed.series['odd "name"'].values).toEqual([-12.5, 0.1 + 0.2, null]);
    // The schema of the API accepts it (JSON has no negative zero: -0 reads back as 0, as from JSON.stringify).
    expect(readingsResponseSchema.parse(parsed)).toEqual(JSON.parse(JSON.stringify(plainReadings(answer))));
  });

  it('writes an empty answer', () => {
    const empty: ReadingsColumns = { interval: '24h', from: 0, to: 1, timezone: 'UTC', ts: col(), series: {} };
    expect(readingsJson(empty)).toBe(JSON.stringify(plainReadings(empty)));
    expect(JSON.parse(readingsJson(empty))).toEqual({ interval: '24h', from: 0, to: 1, timezone: 'UTC', ts: [], series: {} });
  });
});
