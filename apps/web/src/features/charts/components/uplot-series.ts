import type { ReadingInterval } from '@phasewatch/shared';
import uPlot from 'uplot';
import { type ChartData, splitEstimated } from '../chart-data';
import { isolatedPoints, maxBridgeMs, withTimeGaps } from '../chart-gaps';
import type { ChartSpec } from '../chart-specs';

export type Values = (number | null)[];

/** What each uPlot series (after the x values) draws. */
export interface Slot {
  role: 'prev' | 'main' | 'est';
  col: number;
}

export const alpha = (hex: string, a: number) =>
  `${hex}${Math.round(a * 255)
    .toString(16)
    .padStart(2, '0')}`;

/** Diagonal hatching in a colour: estimated energy (interpolated across a gap). */
export function hatch(color: string, background = 'transparent'): CanvasPattern | string {
  const c = document.createElement('canvas');
  c.width = 8;
  c.height = 8;
  const ctx = c.getContext('2d');
  if (!ctx) return alpha(color, 0.4);
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, 8, 8);
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(-2, 10);
  ctx.lineTo(10, -2);
  ctx.moveTo(-2, 2);
  ctx.lineTo(2, -2);
  ctx.moveTo(6, 10);
  ctx.lineTo(10, 6);
  ctx.stroke();
  return ctx.createPattern(c, 'repeat') ?? alpha(color, 0.4);
}

/**
 * Bars of one series in a group of `slots` side by side within each bucket (`full`: the whole bucket,
 * for the faint previous period behind them). Bucket widths come from the interval, so gaps stay gaps.
 */
function barsPath(slot: number, slots: number, bucketMs: number, full = false): uPlot.Series.PathBuilder {
  return (u, sidx, i0, i1) => {
    const xs = u.data[0] as number[];
    const ys = u.data[sidx] as Values;
    const scaleKey = u.series[sidx]?.scale ?? 'y';
    const y0 = u.valToPos(0, scaleKey, true);
    const path = new Path2D();
    for (let i = i0; i <= i1; i++) {
      const v = ys[i];
      if (v === null || v === undefined) continue;
      const t = xs[i] as number;
      const xl = u.valToPos(t, 'x', true);
      const xr = u.valToPos(t + bucketMs, 'x', true);
      const bw = xr - xl;
      const inner = full ? bw : bw * 0.8;
      const w = full ? inner : inner / slots;
      const x = xl + (bw - inner) / 2 + (full ? 0 : slot * w);
      const y = u.valToPos(v, scaleKey, true);
      path.rect(x, Math.min(y, y0), Math.max(w, 1), Math.max(Math.abs(y0 - y), v === 0 ? 0 : 1));
    }
    return { stroke: path, fill: path };
  };
}

/**
 * uPlot's data of a chart and what each of its series is: the previous period's columns (not the min/max
 * ones) first, then every column (bars split into measured and estimated buckets), then the estimated parts.
 */
export function alignData(spec: ChartSpec, data: ChartData, previous: Values[] | null): { aligned: uPlot.AlignedData; slots: Slot[] } {
  const out: Values[] = [];
  const slots: Slot[] = [];
  const bars = spec.style === 'bars';
  if (previous) {
    previous.forEach((p, col) => {
      if (data.columns[col]?.spec.stat) return;
      out.push(p);
      slots.push({ role: 'prev', col });
    });
  }
  const est: { col: number; values: Values }[] = [];
  data.columns.forEach((c, col) => {
    if (bars) {
      const split = splitEstimated(c.values, data.estimated);
      out.push(split.measured);
      if (split.estimated) est.push({ col, values: split.estimated });
    } else out.push(c.values);
    slots.push({ role: 'main', col });
  });
  for (const e of est) {
    out.push(e.values);
    slots.push({ role: 'est', col: e.col });
  }
  return { aligned: [data.ts, ...out] as uPlot.AlignedData, slots };
}

export interface SeriesInput {
  spec: ChartSpec;
  data: ChartData;
  slots: readonly Slot[];
  /** Legend label of each column. */
  labels: readonly string[];
  interval: ReadingInterval;
  bucketMs: number;
}

/**
 * The series of a chart, one per slot: the previous period faint (dashed lines or pale bars), bars side by
 * side per bucket with their estimated part hatched, min/max lines pale, main lines broken at gaps with
 * lone values drawn as points; and the min–max bands of phase views.
 */
export function chartSeries({ spec, data, slots, labels, interval, bucketMs }: SeriesInput): {
  series: uPlot.Series[];
  bands: uPlot.Band[];
} {
  const bars = spec.style === 'bars';
  const mainCols = data.columns.map((c, i) => ({ c, i })).filter(({ c }) => !c.spec.stat);
  const slotOf = (col: number) => mainCols.findIndex((m) => m.i === col);
  const series: uPlot.Series[] = [{}];
  // Lines break where buckets are missing (answers leave them out) instead of joining across them.
  const bridge = maxBridgeMs(interval, bucketMs);
  const lineGaps: uPlot.Series.GapsRefiner = (u, sidx, i0, i1, nullGaps) =>
    withTimeGaps(u.data[0] as number[], u.data[sidx] as Values, i0, i1, bridge, (x) => u.valToPos(x, 'x', true), nullGaps);
  const isolated: uPlot.Series.Points.Filter = (u, sidx) => {
    const xs = u.data[0] as number[];
    const idx = isolatedPoints(xs, u.data[sidx] as Values, 0, xs.length - 1, bridge);
    return idx.length ? idx : null;
  };
  for (const s of slots) {
    const c = data.columns[s.col];
    if (!c) continue;
    const color = c.spec.color;
    const base: uPlot.Series = { label: labels[s.col] ?? c.spec.param, scale: 'y', points: { show: false } };
    if (s.role === 'prev') {
      series.push({
        ...base,
        stroke: alpha(color, 0.45),
        width: 1,
        dash: bars ? undefined : [4, 4],
        fill: bars ? alpha(color, 0.18) : undefined,
        ...(bars ? { paths: barsPath(0, 1, bucketMs, true) } : {}),
      });
    } else if (s.role === 'est') {
      series.push({ ...base, stroke: color, width: 0, fill: hatch(color), paths: barsPath(slotOf(s.col), mainCols.length, bucketMs) });
    } else if (bars) {
      series.push({
        ...base,
        stroke: color,
        width: 0,
        fill: alpha(color, 0.85),
        paths: barsPath(slotOf(s.col), mainCols.length, bucketMs),
      });
    } else if (c.spec.stat) {
      series.push({ ...base, stroke: alpha(color, 0.35), width: 1, gaps: lineGaps });
    } else {
      series.push({
        ...base,
        stroke: color,
        width: 1.5,
        gaps: lineGaps,
        // A value with no neighbour to join (one reading, a bucket between gaps) is drawn as a point.
        points: { show: false, size: 6, fill: color, filter: isolated },
        ...(c.spec.stepped ? { paths: uPlot.paths.stepped?.({ align: 1 }) } : {}),
      });
    }
  }
  // Min–max bands of phase views: between the max and the min series of the same parameter.
  const bands: uPlot.Band[] = [];
  const idx = (col: number, role: Slot['role'] = 'main') => slots.findIndex((s) => s.role === role && s.col === col) + 1;
  data.columns.forEach((c, col) => {
    if (c.spec.stat !== 'max') return;
    const minCol = data.columns.findIndex((o) => o.spec.param === c.spec.param && o.spec.stat === 'min');
    if (minCol >= 0) bands.push({ series: [idx(col), idx(minCol)], fill: alpha(c.spec.color, 0.12) });
  });
  return { series, bands };
}
