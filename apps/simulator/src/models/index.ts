import { DEVICE_TYPES } from '@phasewatch/shared';
import type { DeviceModel, ModelOptions } from './device-model.js';
import { EnergyMeterModel } from './energy-meter.js';
import { SolarModel } from './solar.js';
import { ThermostatModel } from './thermostat.js';

/** Kinds of simulated device; each maps to one device type code. */
export type SimulatedKind = 'household' | 'workshop' | 'solar' | 'thermostat' | 'single-phase';

/** The type code each kind registers with. */
export const KIND_TYPE_CODES: Record<SimulatedKind, number> = {
  household: DEVICE_TYPES.ENERGY_METER_3P,
  workshop: DEVICE_TYPES.ENERGY_METER_3P_ALT,
  solar: DEVICE_TYPES.SOLAR,
  thermostat: DEVICE_TYPES.THERMOSTAT,
  'single-phase': DEVICE_TYPES.SINGLE_PHASE_METER,
};

/** Model names shown in the device list. */
export const KIND_MODELS: Record<SimulatedKind, string> = {
  household: 'PW-3P-100 (simulated)',
  workshop: 'PW-3P-200 (simulated)',
  solar: 'PW-PV-8K (simulated)',
  thermostat: 'PW-TH-1 (simulated)',
  'single-phase': 'PW-1P-60 (simulated)',
};

/** Creates the model of a kind. */
export function createModel(kind: SimulatedKind, options: ModelOptions): DeviceModel {
  switch (kind) {
    case 'household':
      return new EnergyMeterModel('household', options);
    case 'workshop':
      return new EnergyMeterModel('workshop', options);
    case 'single-phase':
      return new EnergyMeterModel('apartment', options);
    case 'solar':
      return new SolarModel(options);
    case 'thermostat':
      return new ThermostatModel(options);
  }
}
