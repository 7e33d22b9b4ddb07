/**
 * The measurement parameter catalogue of spec section 3, plus `rssi` (signal). One place for names,
 * units and how a parameter aggregates: instantaneous values keep avg/min/max per bucket, cumulative
 * energy counters (kWh, as the meter sends them) become deltas per bucket.
 */
export type ParameterKind = 'instant' | 'counter' | 'state';

export interface ParameterInfo {
  name: string;
  unit: 'W' | 'V' | 'A' | 'Hz' | '°C' | 'kWh' | 'kvarh' | '' | 'dBm';
  kind: ParameterKind;
  /** Phase 1–3, or null for totals and single values. */
  phase: 1 | 2 | 3 | null;
  /** Quantity group used by charts and the comparison picker. */
  group: 'power' | 'voltage' | 'current' | 'energy' | 'reactiveEnergy' | 'powerFactor' | 'frequency' | 'dc' | 'thermostat' | 'status';
}

const PHASES = [1, 2, 3] as const;

function perPhase(prefixes: readonly string[], info: Omit<ParameterInfo, 'name' | 'phase'>): ParameterInfo[] {
  return prefixes.flatMap((p) => PHASES.map((phase) => ({ ...info, name: `${p}${phase}`, phase })));
}

export const PARAMETERS: readonly ParameterInfo[] = [
  ...perPhase(['pave', 'pmax', 'pmin'], { unit: 'W', kind: 'instant', group: 'power' }),
  ...perPhase(['vave', 'vmax', 'vmin'], { unit: 'V', kind: 'instant', group: 'voltage' }),
  ...perPhase(['iave', 'imax', 'imin'], { unit: 'A', kind: 'instant', group: 'current' }),
  ...perPhase(['eai', 'eae'], { unit: 'kWh', kind: 'counter', group: 'energy' }),
  ...perPhase(['eri', 'ere'], { unit: 'kvarh', kind: 'counter', group: 'reactiveEnergy' }),
  ...perPhase(['pfave', 'pfmax', 'pfmin'], { unit: '', kind: 'instant', group: 'powerFactor' }),
  { name: 'frq1', unit: 'Hz', kind: 'instant', phase: null, group: 'frequency' },
  { name: 'vdc1', unit: 'V', kind: 'instant', phase: null, group: 'dc' },
  { name: 'vdc2', unit: 'V', kind: 'instant', phase: null, group: 'dc' },
  { name: 'vdc3', unit: 'V', kind: 'instant', phase: null, group: 'dc' },
  { name: 'idc1', unit: 'A', kind: 'instant', phase: null, group: 'dc' },
  { name: 'idc2', unit: 'A', kind: 'instant', phase: null, group: 'dc' },
  { name: 'alarm', unit: '', kind: 'state', phase: null, group: 'status' },
  { name: 'balance', unit: 'W', kind: 'instant', phase: null, group: 'power' },
  { name: 'tempmain', unit: '°C', kind: 'instant', phase: null, group: 'thermostat' },
  { name: 'tempset', unit: '°C', kind: 'instant', phase: null, group: 'thermostat' },
  { name: 'rel1', unit: '', kind: 'state', phase: null, group: 'thermostat' },
  { name: 'energy3phases_import', unit: 'kWh', kind: 'counter', phase: null, group: 'energy' },
  { name: 'energy3phases_export', unit: 'kWh', kind: 'counter', phase: null, group: 'energy' },
  { name: 'renergy3phases_import', unit: 'kvarh', kind: 'counter', phase: null, group: 'reactiveEnergy' },
  { name: 'renergy3phases_export', unit: 'kvarh', kind: 'counter', phase: null, group: 'reactiveEnergy' },
  { name: 'power3phases', unit: 'W', kind: 'instant', phase: null, group: 'power' },
  { name: 'rssi', unit: 'dBm', kind: 'instant', phase: null, group: 'status' },
];

export const PARAMETER_NAMES: readonly string[] = PARAMETERS.map((p) => p.name);
const BY_NAME = new Map(PARAMETERS.map((p) => [p.name, p]));

/** Catalogue entry of a parameter, or undefined for a name outside the catalogue. */
export function parameterInfo(name: string): ParameterInfo | undefined {
  return BY_NAME.get(name);
}

export const COUNTER_PARAMETERS: readonly string[] = PARAMETERS.filter((p) => p.kind === 'counter').map((p) => p.name);
export const INSTANT_PARAMETERS: readonly string[] = PARAMETERS.filter((p) => p.kind !== 'counter').map((p) => p.name);

/** RSSI at or below this (dBm) is a weak WiFi signal. */
export const WEAK_SIGNAL_DBM = -75;

/**
 * Largest magnitude a reading may carry. Meters count up to 10^9 kWh at most and no instantaneous quantity
 * here comes near 10^9 (W, V, A, Hz, °C); beyond it a value is a device fault, and accepting it would turn
 * energy sums into Infinity.
 */
export const MAX_READING_MAGNITUDE = 1e9;

/** Why a value is out of range for its parameter, or null when it is acceptable. */
export function readingValueProblem(info: ParameterInfo, v: number): string | null {
  if (!Number.isFinite(v)) return 'must be a finite number';
  if (info.kind === 'counter' && v < 0) return 'must not be negative (a cumulative counter)';
  if (Math.abs(v) > MAX_READING_MAGNITUDE) return `must be at most ${MAX_READING_MAGNITUDE} in magnitude`;
  return null;
}
