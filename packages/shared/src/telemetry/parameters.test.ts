import { describe, expect, it } from 'vitest';
import { PARAMETERS, parameterInfo, readingValueProblem } from './parameters.js';

const problem = (name: string, v: number) => readingValueProblem(parameterInfo(name) ?? (undefined as never), v);

describe('parameter value domains', () => {
  it('gives every catalogue parameter a range or a value set', () => {
    for (const p of PARAMETERS) {
      const d = p.domain;
      if ('oneOf' in d) expect(d.oneOf.length, p.name).toBeGreaterThan(0);
      else expect(d.min, p.name).toBeLessThan(d.max);
    }
  });

  it.each([
    ['rel1', 0.5, 'must be one of 0, 1'],
    ['rel1', 2, 'must be one of 0, 1'],
    ['alarm', -5, 'must be between 0 and 4294967295'],
    ['alarm', 1.5, 'must be a whole number'],
    ['rssi', 1e9, 'must be between -150 and 0'],
    ['rssi', 12, 'must be between -150 and 0'],
    ['pfave1', 1.2, 'must be between -1 and 1'],
    ['vave2', -230, 'must be between 0 and 100000'],
    ['iave3', -1, 'must be between 0 and 100000'],
    ['frq1', 5000, 'must be between 0 and 1000'],
    ['tempset', -300, 'must be between -100 and 200'],
    ['eai1', -3, 'must not be negative (a cumulative counter)'],
    ['energy3phases_import', 2e9, 'must be between 0 and 1000000000'],
    ['pave1', Number.POSITIVE_INFINITY, 'must be a finite number'],
  ])('refuses %s = %d: %s', (name, v, reason) => {
    expect(problem(name, v)).toBe(reason);
  });

  it.each([
    ['rel1', 0],
    ['rel1', 1],
    ['alarm', 0],
    ['alarm', 4_294_967_295],
    ['rssi', -60],
    ['rssi', -150],
    ['pfave1', -0.93],
    ['pave1', -4200],
    ['vave1', 231.4],
    ['frq1', 49.98],
    ['vdc1', 812],
    ['idc2', -3.5],
    ['tempmain', -12.5],
    ['eai1', 0],
    ['eai1', 1e9],
  ])('accepts %s = %d', (name, v) => {
    expect(problem(name, v)).toBeNull();
  });
});
