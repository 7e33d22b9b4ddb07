import { type ComparisonSeries, ENERGY_PARAMETER, energyDirection, parameterInfo, type ReadingsResponse } from '@phasewatch/shared';

/**
 * Okabe–Ito: eight colours told apart with every common colour-vision deficiency (the last one, black,
 * is grey so it shows on the dark theme too).
 */
export const SERIES_COLORS = ['#E69F00', '#56B4E9', '#009E73', '#D55E00', '#0072B2', '#CC79A7', '#F0E442', '#999999'];

/** The parameters a series asks the readings API for: a parameter, or the device's energy counters. */
export function seriesParams(s: ComparisonSeries, typeCode: number): string[] {
  if (s.parameter !== ENERGY_PARAMETER) return [s.parameter];
  const dir = energyDirection(typeCode);
  return [`energy3phases_${dir}`, ...[1, 2, 3].map((n) => `${dir === 'import' ? 'eai' : 'eae'}${n}`)];
}

/** The unit a series is drawn in. */
export function seriesUnit(s: Pick<ComparisonSeries, 'parameter'>): string {
  return s.parameter === ENERGY_PARAMETER ? 'kWh' : (parameterInfo(s.parameter)?.unit ?? '');
}

type Values = (number | null)[];

/**
 * A series' values from its readings answer: the mean of an instantaneous parameter, the energy of a
 * counter; the device's energy is its 3-phase total when it sends one, else the sum of its phases (the
 * server's rule for energy figures).
 */
export function seriesValues(s: ComparisonSeries, typeCode: number, res: Pick<ReadingsResponse, 'ts' | 'series'>): Values {
  const col = (p: string): Values | null => {
    const x = res.series[p];
    if (!x) return null;
    return x.kind === 'counter' ? x.delta : x.kind === 'instant' ? x.avg : x.values;
  };
  if (s.parameter !== ENERGY_PARAMETER) return col(s.parameter) ?? res.ts.map(() => null);
  const [total, ...phases] = seriesParams(s, typeCode);
  const whole = col(total as string);
  if (whole?.some((v) => v !== null)) return whole;
  const parts = phases.map(col).filter((c): c is Values => !!c);
  return res.ts.map((_, i) => {
    let sum: number | null = null;
    for (const p of parts) {
      const v = p[i];
      if (v !== null && v !== undefined) sum = (sum ?? 0) + v;
    }
    return sum === null ? null : Math.round(sum * 1e6) / 1e6;
  });
}

/** Several series on one time axis: the union of their bucket starts, each series aligned to it (null where it has none). */
export function alignSeries(columns: { ts: readonly number[]; values: Values }[]): { ts: number[]; values: Values[] } {
  const all = [...new Set(columns.flatMap((c) => c.ts))].sort((a, b) => a - b);
  const index = new Map(all.map((t, i) => [t, i]));
  return {
    ts: all,
    values: columns.map((c) => {
      const out: Values = new Array(all.length).fill(null);
      c.ts.forEach((t, i) => {
        out[index.get(t) as number] = c.values[i] ?? null;
      });
      return out;
    }),
  };
}
