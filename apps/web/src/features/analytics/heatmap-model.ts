import type { HeatmapResponse } from '@phasewatch/shared';

/**
 * Viridis: a colour scale read alike by people with the common colour-vision deficiencies and in grey
 * (its lightness rises monotonically), from dark violet (low) to yellow (high). Nine stops, interpolated.
 */
const VIRIDIS: [number, number, number][] = [
  [68, 1, 84],
  [71, 44, 122],
  [59, 81, 139],
  [44, 113, 142],
  [33, 144, 141],
  [39, 173, 129],
  [92, 200, 99],
  [170, 220, 50],
  [253, 231, 37],
];

/** The colour of a share 0…1 of the scale. */
export function viridis(t: number): string {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const a = VIRIDIS[i] as [number, number, number];
  const b = VIRIDIS[i + 1] as [number, number, number];
  const c = (k: 0 | 1 | 2) => Math.round(a[k] + (b[k] - a[k]) * f);
  return `rgb(${c(0)}, ${c(1)}, ${c(2)})`;
}

/** The legend's gradient (CSS). */
export const VIRIDIS_GRADIENT = `linear-gradient(to right, ${VIRIDIS.map(([r, g, b]) => `rgb(${r}, ${g}, ${b})`).join(', ')})`;

/** Lowest and highest value of the heatmap (null when it holds none); energy scales start at zero. */
export function valueRange(h: Pick<HeatmapResponse, 'values' | 'aggregate'>): { min: number; max: number } | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const row of h.values)
    for (const v of row)
      if (v !== null) {
        if (v < min) min = v;
        if (v > max) max = v;
      }
  if (!Number.isFinite(min)) return null;
  if (h.aggregate === 'sum' && min > 0) min = 0;
  return { min, max };
}

/** Where a cell sits on its row: its column and its share of that column (the repeated hour splits one). */
export interface CellPlace {
  col: number;
  /** 0-based position among the cells sharing the column, and how many share it. */
  part: number;
  parts: number;
}

/**
 * The place of each cell of a row. A daily row's cells sit at their local hour: the spring day leaves
 * its skipped hour empty and the autumn day's repeated hour shares one column in two halves. Other rows
 * fill their columns from the left (a month's days, a year's months, a weekday's hours).
 */
export function rowPlaces(h: Pick<HeatmapResponse, 'kind' | 'values' | 'hours'>, r: number): CellPlace[] {
  const values = h.values[r] ?? [];
  const hours = h.kind === 'daily' ? h.hours?.[r] : undefined;
  if (!hours) return values.map((_, c) => ({ col: c, part: 0, parts: 1 }));
  const counts = new Map<number, number>();
  for (const hr of hours) counts.set(hr, (counts.get(hr) ?? 0) + 1);
  const seen = new Map<number, number>();
  return hours.map((hr) => {
    const part = seen.get(hr) ?? 0;
    seen.set(hr, part + 1);
    return { col: hr, part, parts: counts.get(hr) ?? 1 };
  });
}

/** The span [start, end) of a cell, or null for weekly cells (which span many weeks). */
export function cellSpan(h: Pick<HeatmapResponse, 'starts' | 'rowEnds'>, r: number, c: number): [number, number] | null {
  const row = h.starts?.[r];
  const start = row?.[c];
  if (!row || start === undefined) return null;
  const end = row[c + 1] ?? h.rowEnds?.[r];
  return end === undefined ? null : [start, end];
}
