/**
 * The measurement parameter catalogue of spec section 3, plus `rssi` (signal). One place for names,
 * units and how a parameter aggregates: instantaneous values keep avg/min/max per bucket, cumulative
 * energy counters (kWh, as the meter sends them) become deltas per bucket.
 */
export type ParameterKind = 'instant' | 'counter' | 'state';

/**
 * What values a parameter can take: an inclusive range (optionally whole numbers only), or a set of
 * values. Generous on purpose (industrial meters, medium-voltage transformers, 1,500 V solar strings):
 * the point is refusing what no device can measure (a relay at 0.5, a negative alarm code, an RSSI of
 * 10^9 dBm), which would otherwise be stored and averaged into charts.
 */
export type ValueDomain = { min: number; max: number; integer?: true } | { oneOf: readonly number[] };

export interface ParameterInfo {
  name: string;
  unit: 'W' | 'V' | 'A' | 'Hz' | '°C' | 'kWh' | 'kvarh' | '' | 'dBm';
  kind: ParameterKind;
  /** Phase 1–3, or null for totals and single values. */
  phase: 1 | 2 | 3 | null;
  /** Quantity group used by charts and the comparison picker. */
  group: 'power' | 'voltage' | 'current' | 'energy' | 'reactiveEnergy' | 'powerFactor' | 'frequency' | 'dc' | 'thermostat' | 'status';
  /** The values a reading of it may carry; ingest refuses others with the field and this as the reason. */
  domain: ValueDomain;
}

const PHASES = [1, 2, 3] as const;

function perPhase(prefixes: readonly string[], info: Omit<ParameterInfo, 'name' | 'phase'>): ParameterInfo[] {
  return prefixes.flatMap((p) => PHASES.map((phase) => ({ ...info, name: `${p}${phase}`, phase })));
}

/**
 * Largest magnitude a reading may carry. Meters count up to 10^9 kWh at most and no instantaneous quantity
 * here comes near 10^9 (W, V, A, Hz, °C); beyond it a value is a device fault, and accepting it would turn
 * energy sums into Infinity.
 */
export const MAX_READING_MAGNITUDE = 1e9;

/** Active power (W), signed: negative is power fed into the grid. 100 MW either way. */
const POWER: ValueDomain = { min: -1e8, max: 1e8 };
/** RMS voltage (V) up to medium-voltage transformers. */
const VOLTAGE: ValueDomain = { min: 0, max: 1e5 };
/** RMS current (A). */
const CURRENT: ValueDomain = { min: 0, max: 1e5 };
/** Cumulative counters never go below zero. */
const COUNTER: ValueDomain = { min: 0, max: MAX_READING_MAGNITUDE };
const POWER_FACTOR: ValueDomain = { min: -1, max: 1 };
/** DC side of inverters: signed, up to 10 kV / 10 kA. */
const DC: ValueDomain = { min: -1e4, max: 1e4 };
const TEMPERATURE: ValueDomain = { min: -100, max: 200 };

export const PARAMETERS: readonly ParameterInfo[] = [
  ...perPhase(['pave', 'pmax', 'pmin'], { unit: 'W', kind: 'instant', group: 'power', domain: POWER }),
  ...perPhase(['vave', 'vmax', 'vmin'], { unit: 'V', kind: 'instant', group: 'voltage', domain: VOLTAGE }),
  ...perPhase(['iave', 'imax', 'imin'], { unit: 'A', kind: 'instant', group: 'current', domain: CURRENT }),
  ...perPhase(['eai', 'eae'], { unit: 'kWh', kind: 'counter', group: 'energy', domain: COUNTER }),
  ...perPhase(['eri', 'ere'], { unit: 'kvarh', kind: 'counter', group: 'reactiveEnergy', domain: COUNTER }),
  ...perPhase(['pfave', 'pfmax', 'pfmin'], { unit: '', kind: 'instant', group: 'powerFactor', domain: POWER_FACTOR }),
  // Grid frequency; 0 when a meter has no voltage to measure it on, 400 Hz on aircraft and ship grids.
  { name: 'frq1', unit: 'Hz', kind: 'instant', phase: null, group: 'frequency', domain: { min: 0, max: 1000 } },
  { name: 'vdc1', unit: 'V', kind: 'instant', phase: null, group: 'dc', domain: DC },
  { name: 'vdc2', unit: 'V', kind: 'instant', phase: null, group: 'dc', domain: DC },
  { name: 'vdc3', unit: 'V', kind: 'instant', phase: null, group: 'dc', domain: DC },
  { name: 'idc1', unit: 'A', kind: 'instant', phase: null, group: 'dc', domain: DC },
  { name: 'idc2', unit: 'A', kind: 'instant', phase: null, group: 'dc', domain: DC },
  // A device's alarm code or bit mask: a 32-bit unsigned whole number.
  { name: 'alarm', unit: '', kind: 'state', phase: null, group: 'status', domain: { min: 0, max: 4_294_967_295, integer: true } },
  // Net (balanced) three-phase energy, the counters a utility's meter bills: import here, export in
  // `balance_export` (formula in energy/balance.ts).
  { name: 'balance', unit: 'kWh', kind: 'counter', phase: null, group: 'energy', domain: COUNTER },
  { name: 'tempmain', unit: '°C', kind: 'instant', phase: null, group: 'thermostat', domain: TEMPERATURE },
  { name: 'tempset', unit: '°C', kind: 'instant', phase: null, group: 'thermostat', domain: TEMPERATURE },
  // The output relay: off or on.
  { name: 'rel1', unit: '', kind: 'state', phase: null, group: 'thermostat', domain: { oneOf: [0, 1] } },
  { name: 'energy3phases_import', unit: 'kWh', kind: 'counter', phase: null, group: 'energy', domain: COUNTER },
  { name: 'energy3phases_export', unit: 'kWh', kind: 'counter', phase: null, group: 'energy', domain: COUNTER },
  { name: 'renergy3phases_import', unit: 'kvarh', kind: 'counter', phase: null, group: 'reactiveEnergy', domain: COUNTER },
  { name: 'renergy3phases_export', unit: 'kvarh', kind: 'counter', phase: null, group: 'reactiveEnergy', domain: COUNTER },
  { name: 'power3phases', unit: 'W', kind: 'instant', phase: null, group: 'power', domain: { min: -3e8, max: 3e8 } },
  // WiFi signal strength.
  { name: 'rssi', unit: 'dBm', kind: 'instant', phase: null, group: 'status', domain: { min: -150, max: 0 } },
  // Last on purpose: stored layouts address parameters by their index in this list.
  { name: 'balance_export', unit: 'kWh', kind: 'counter', phase: null, group: 'energy', domain: COUNTER },
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

/** Why a value is out of range for its parameter, or null when it is acceptable. */
export function readingValueProblem(info: ParameterInfo, v: number): string | null {
  if (!Number.isFinite(v)) return 'must be a finite number';
  const d = info.domain;
  if ('oneOf' in d) return d.oneOf.includes(v) ? null : `must be one of ${d.oneOf.join(', ')}`;
  if (v < d.min || v > d.max) {
    if (info.kind === 'counter' && v < 0) return 'must not be negative (a cumulative counter)';
    return `must be between ${d.min} and ${d.max}`;
  }
  if (d.integer && !Number.isInteger(v)) return 'must be a whole number';
  return null;
}
