import { type DeviceKind, parameterInfo } from '@phasewatch/shared';

/** The one figure a device list shows per device: a power in W, or a temperature for a thermostat. */
export interface HeadlineValue {
  /** Parameter it comes from (`pave1+pave2+pave3` when summed). */
  param: string;
  value: number;
  unit: string;
}

const PHASE_POWER = ['pave1', 'pave2', 'pave3'] as const;

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function totalPower(values: Record<string, number>): HeadlineValue | null {
  if (num(values.power3phases)) return { param: 'power3phases', value: values.power3phases, unit: 'W' };
  const phases = PHASE_POWER.filter((p) => num(values[p]));
  if (phases.length === 0) return null;
  return { param: phases.join('+'), value: phases.reduce((s, p) => s + (values[p] as number), 0), unit: 'W' };
}

/**
 * The headline figure of a reading for the device's kind: a three-phase meter or solar device shows its
 * total power (`power3phases`, else the sum of the phase powers), a single-phase meter `pave1`, a
 * thermostat its temperature `tempmain`. Null when the reading has none of them.
 */
export function headlineValue(kind: DeviceKind, values: Record<string, number> | undefined | null): HeadlineValue | null {
  if (!values) return null;
  switch (kind) {
    case 'thermostat':
      return num(values.tempmain) ? { param: 'tempmain', value: values.tempmain, unit: '°C' } : null;
    case 'singlePhase':
      return num(values.pave1) ? { param: 'pave1', value: values.pave1, unit: 'W' } : totalPower(values);
    default:
      return totalPower(values) ?? (num(values.tempmain) ? { param: 'tempmain', value: values.tempmain, unit: '°C' } : null);
  }
}

/** The main parameters of each kind for the live-values card, in display order. */
const MAIN_PARAMETERS: Record<DeviceKind, readonly string[]> = {
  energy: ['power3phases', 'pave1', 'pave2', 'pave3', 'vave1', 'vave2', 'vave3', 'iave1', 'iave2', 'iave3', 'frq1'],
  solar: ['power3phases', 'pave1', 'pave2', 'pave3', 'vdc1', 'vdc2', 'idc1', 'idc2', 'vave1', 'vave2', 'vave3', 'frq1'],
  singlePhase: ['pave1', 'vave1', 'iave1', 'pfave1', 'frq1'],
  thermostat: ['tempmain', 'tempset', 'rel1'],
  generic: ['power3phases', 'pave1', 'pave2', 'pave3', 'vave1', 'vave2', 'vave3', 'iave1', 'iave2', 'iave3', 'tempmain', 'frq1'],
};

/** The parameters the card asks the server for (the readings endpoint's `params`). */
export function mainParameters(kind: DeviceKind): readonly string[] {
  return MAIN_PARAMETERS[kind];
}

const MAX_SHOWN = 12;

/**
 * What the card shows of a reading: the kind's main parameters that the reading has; a device that
 * sends none of them shows up to 12 of its catalogue parameters instead. Unknown names are left out.
 */
export function cardParameters(kind: DeviceKind, values: Record<string, number>): string[] {
  const main = MAIN_PARAMETERS[kind].filter((p) => num(values[p]));
  if (main.length > 0) return main;
  return Object.keys(values)
    .filter((p) => parameterInfo(p) && num(values[p]))
    .slice(0, MAX_SHOWN);
}
