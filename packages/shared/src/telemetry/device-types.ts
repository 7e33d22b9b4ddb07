/** Device type codes (spec section 2): the code decides the detail route. */
export const DEVICE_TYPES = {
  ENERGY_METER_3P: 13,
  ENERGY_METER_3P_ALT: 16,
  SOLAR: 10,
  THERMOSTAT: 17,
  /** Not in the spec's table; our code for single-phase meters. */
  SINGLE_PHASE_METER: 20,
} as const;

export type DeviceKind = 'energy' | 'solar' | 'thermostat' | 'singlePhase' | 'generic';

export type EnergyDirection = 'import' | 'export';

/** The detail view family of a device type code. */
export function deviceKind(typeCode: number): DeviceKind {
  switch (typeCode) {
    case DEVICE_TYPES.ENERGY_METER_3P:
    case DEVICE_TYPES.ENERGY_METER_3P_ALT:
      return 'energy';
    case DEVICE_TYPES.SOLAR:
      return 'solar';
    case DEVICE_TYPES.THERMOSTAT:
      return 'thermostat';
    case DEVICE_TYPES.SINGLE_PHASE_METER:
      return 'singlePhase';
    default:
      return 'generic';
  }
}

/** The web route of a device's detail view. */
export function deviceDetailPath(typeCode: number, id: number | string): string {
  switch (deviceKind(typeCode)) {
    case 'energy':
      return `/device-energy-details/${id}`;
    case 'solar':
      return `/solar-device-details/${id}`;
    case 'thermostat':
      return `/thermo-device-details/${id}`;
    case 'singlePhase':
      return `/single-phase-device-details/${id}`;
    default:
      return `/device-details/${id}`;
  }
}

/** Display name of a type code, used when a device is registered without one. */
export function deviceTypeName(typeCode: number): string {
  switch (deviceKind(typeCode)) {
    case 'energy':
      return 'Three-phase energy meter';
    case 'solar':
      return 'Solar device';
    case 'thermostat':
      return 'Thermostat';
    case 'singlePhase':
      return 'Single-phase energy meter';
    default:
      return 'Device';
  }
}
