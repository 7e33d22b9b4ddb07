import { type DeviceKind, deviceKind, type EnergyDirection } from './device-types.js';

/**
 * What a device's energy figures (today, month, year, total, billing period, the dashboard's total) are:
 * what a meter consumes, what a solar device produces, what a thermostat's heater uses.
 */
export type EnergyMeaning = 'consumption' | 'production' | 'heating';

/** The quantities a detail page charts, in the order it shows them. */
export type ChartGroup =
  | 'power'
  | 'voltage'
  | 'current'
  | 'powerFactor'
  | 'frequency'
  | 'activeEnergy'
  | 'reactiveEnergy'
  | 'balance'
  | 'production'
  | 'selfConsumption'
  | 'dc'
  | 'temperature';

export interface DeviceFigures {
  kind: DeviceKind;
  /** The counters every energy figure of the device comes from, and what they mean to its owner. */
  energy: { direction: EnergyDirection; meaning: EnergyMeaning };
  /** Phase views besides the summary (three-phase meters); empty for devices shown as one view. */
  phaseViews: readonly (1 | 2 | 3)[];
  /** What the detail page charts. `generic` devices chart whatever parameters they send instead. */
  charts: readonly ChartGroup[];
  /** Whether the page offers the voltage limit values and the energy meter value. */
  limits: boolean;
  meterValue: boolean;
  /** Whether the "always on" figure (base load: a low percentile of 15-minute power) means something. */
  baseLoad: boolean;
}

const FIGURES: Record<DeviceKind, DeviceFigures> = {
  energy: {
    kind: 'energy',
    energy: { direction: 'import', meaning: 'consumption' },
    phaseViews: [1, 2, 3],
    charts: ['power', 'voltage', 'current', 'powerFactor', 'frequency', 'activeEnergy', 'reactiveEnergy', 'balance'],
    limits: true,
    meterValue: true,
    baseLoad: true,
  },
  singlePhase: {
    kind: 'singlePhase',
    energy: { direction: 'import', meaning: 'consumption' },
    phaseViews: [],
    charts: ['power', 'voltage', 'current', 'powerFactor', 'frequency', 'activeEnergy', 'reactiveEnergy'],
    limits: true,
    meterValue: true,
    baseLoad: true,
  },
  solar: {
    kind: 'solar',
    energy: { direction: 'export', meaning: 'production' },
    phaseViews: [],
    charts: ['production', 'selfConsumption', 'dc', 'voltage', 'frequency'],
    limits: true,
    meterValue: true,
    // A producer's quietest power is zero at night: no base load to speak of.
    baseLoad: false,
  },
  thermostat: {
    kind: 'thermostat',
    // The thermostat meters the heater it switches (eai1): its energy is shown wherever energy is shown.
    energy: { direction: 'import', meaning: 'heating' },
    phaseViews: [],
    charts: ['temperature', 'power', 'activeEnergy'],
    limits: false,
    meterValue: true,
    baseLoad: true,
  },
  generic: {
    kind: 'generic',
    energy: { direction: 'import', meaning: 'consumption' },
    phaseViews: [],
    charts: [],
    limits: true,
    meterValue: true,
    baseLoad: true,
  },
};

/**
 * The one rule of what a device type shows, used by the detail pages and the dashboard alike: where its
 * energy figures come from and what they mean, its phase views and its charts.
 */
export function deviceFigures(typeCode: number): DeviceFigures {
  return FIGURES[deviceKind(typeCode)];
}

/** The same rule by detail view family (a detail route knows its family before the device has loaded). */
export function kindFigures(kind: DeviceKind): DeviceFigures {
  return FIGURES[kind];
}

/**
 * Which active-energy counters a device's energy figures (total, today, billing period) come from:
 * production devices (solar) report what they export, every other device what it imports.
 */
export function energyDirection(typeCode: number): EnergyDirection {
  return deviceFigures(typeCode).energy.direction;
}
