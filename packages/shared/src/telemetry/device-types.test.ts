import { describe, expect, it } from 'vitest';
import { DEVICE_TYPES, deviceDetailPath, deviceKind } from './device-types.js';

describe('detail route of a type code (spec section 2)', () => {
  it('sends 13 and 16 to the energy detail, 10 to solar, 17 to the thermostat', () => {
    expect(deviceDetailPath(13, 5)).toBe('/device-energy-details/5');
    expect(deviceDetailPath(16, 5)).toBe('/device-energy-details/5');
    expect(deviceDetailPath(10, 5)).toBe('/solar-device-details/5');
    expect(deviceDetailPath(17, 5)).toBe('/thermo-device-details/5');
  });

  it('keeps our single-phase page for code 20 (docs/ARCHITECTURE.md says why)', () => {
    expect(DEVICE_TYPES.SINGLE_PHASE_METER).toBe(20);
    expect(deviceDetailPath(20, 5)).toBe('/single-phase-device-details/5');
  });

  it('sends every other type code to the default detail', () => {
    const special = new Set<number>([13, 16, 10, 17, 20]);
    for (let code = 0; code <= 9999; code++) {
      if (special.has(code)) continue;
      expect(deviceKind(code), String(code)).toBe('generic');
      expect(deviceDetailPath(code, 7), String(code)).toBe('/device-details/7');
    }
  });
});
