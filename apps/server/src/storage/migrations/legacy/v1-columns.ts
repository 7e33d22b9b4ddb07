/* FROZEN: the column lists of migration 0003 (the catalogue as it was). Do not change. */
import { COUNTER_PARAMETERS, INSTANT_PARAMETERS, PARAMETER_NAMES } from '@phasewatch/shared';

/** Raw readings: one REAL / double precision column per catalogue parameter, named as the parameter. */
export const RAW_COLUMNS: readonly string[] = PARAMETER_NAMES;

/**
 * Columns of the local-day rollups (`rollup_day`; the UTC levels are packed rows, see readings.packed.ts):
 * `<p>_sum/_min/_max/_n` for instantaneous values, `<p>_first/_last/_delta` for counters.
 */
export const INSTANT_SUFFIXES = ['sum', 'min', 'max', 'n'] as const;
export const COUNTER_SUFFIXES = ['first', 'last', 'delta'] as const;
export const ROLLUP_COLUMNS: readonly string[] = [
  ...INSTANT_PARAMETERS.flatMap((p) => INSTANT_SUFFIXES.map((s) => `${p}_${s}`)),
  ...COUNTER_PARAMETERS.flatMap((p) => COUNTER_SUFFIXES.map((s) => `${p}_${s}`)),
];
