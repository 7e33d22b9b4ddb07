import { describe, expect, it } from 'vitest';
import { deviceFigures, energyDirection } from './device-figures.js';
import { DEVICE_TYPES } from './device-types.js';

describe('deviceFigures', () => {
  it('gives every type an energy figure with its direction and meaning', () => {
    expect(deviceFigures(DEVICE_TYPES.ENERGY_METER_3P).energy).toEqual({ direction: 'import', meaning: 'consumption' });
    expect(deviceFigures(DEVICE_TYPES.ENERGY_METER_3P_ALT).energy).toEqual({ direction: 'import', meaning: 'consumption' });
    expect(deviceFigures(DEVICE_TYPES.SOLAR).energy).toEqual({ direction: 'export', meaning: 'production' });
    // The thermostat meters its heater: its energy shows on its page as on the dashboard.
    expect(deviceFigures(DEVICE_TYPES.THERMOSTAT).energy).toEqual({ direction: 'import', meaning: 'heating' });
    expect(deviceFigures(DEVICE_TYPES.SINGLE_PHASE_METER).energy.meaning).toBe('consumption');
    expect(deviceFigures(999).energy.meaning).toBe('consumption');
  });

  it('offers phase views only for three-phase meters', () => {
    expect(deviceFigures(13).phaseViews).toEqual([1, 2, 3]);
    expect(deviceFigures(16).phaseViews).toEqual([1, 2, 3]);
    for (const code of [10, 17, 20, 1]) expect(deviceFigures(code).phaseViews).toEqual([]);
  });

  it('charts what each type measures', () => {
    expect(deviceFigures(10).charts).toContain('production');
    expect(deviceFigures(17).charts).toEqual(['temperature', 'power', 'activeEnergy']);
    expect(deviceFigures(13).charts).toContain('balance');
    // The default detail charts whatever the device sends.
    expect(deviceFigures(1).charts).toEqual([]);
  });

  it('keeps energyDirection as the figures say', () => {
    expect(energyDirection(10)).toBe('export');
    expect(energyDirection(17)).toBe('import');
    expect(energyDirection(13)).toBe('import');
  });
});
