import { describe, expect, it } from 'vitest';
import { cardParameters, headlineValue, mainParameters } from './live-values';

describe('headlineValue', () => {
  it('takes power3phases for a three-phase meter, else the sum of the phase powers', () => {
    expect(headlineValue('energy', { power3phases: 1500, pave1: 1 })).toEqual({ param: 'power3phases', value: 1500, unit: 'W' });
    expect(headlineValue('energy', { pave1: 100, pave2: 200, pave3: 300.5 })).toEqual({
      param: 'pave1+pave2+pave3',
      value: 600.5,
      unit: 'W',
    });
    expect(headlineValue('solar', { pave1: 100, pave3: 50 })).toMatchObject({ param: 'pave1+pave3', value: 150 });
  });

  it('takes pave1 for a single-phase meter and tempmain for a thermostat', () => {
    expect(headlineValue('singlePhase', { pave1: 230, pave2: 5 })).toMatchObject({ param: 'pave1', value: 230, unit: 'W' });
    expect(headlineValue('thermostat', { tempmain: 21.5, pave1: 3 })).toEqual({ param: 'tempmain', value: 21.5, unit: '°C' });
    expect(headlineValue('thermostat', { pave1: 3 })).toBeNull();
    expect(headlineValue('generic', { tempmain: 19 })).toMatchObject({ param: 'tempmain' });
  });

  it('answers null without a usable value', () => {
    expect(headlineValue('energy', null)).toBeNull();
    expect(headlineValue('energy', { vave1: 230 })).toBeNull();
    expect(headlineValue('energy', { power3phases: Number.NaN })).toBeNull();
  });
});

describe('cardParameters', () => {
  it("shows the kind's main parameters the reading has, in order", () => {
    expect(cardParameters('singlePhase', { frq1: 50, pave1: 1, vave1: 230, eai1: 9 })).toEqual(['pave1', 'vave1', 'frq1']);
    expect(mainParameters('thermostat')).toEqual(['tempmain', 'tempset', 'rel1']);
  });
  it('falls back to catalogue parameters the reading has, leaving unknown names out', () => {
    expect(cardParameters('thermostat', { eai1: 2, bogus: 1, rssi: -60 })).toEqual(['eai1', 'rssi']);
  });
});
