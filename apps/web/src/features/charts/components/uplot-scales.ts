import { NOMINAL_VOLTAGE } from '@phasewatch/shared';
import type uPlot from 'uplot';
import type { ChartSpec } from '../chart-specs';

/** A voltage limit drawn across the chart. */
export interface LimitLine {
  v: number;
  color: string;
  key: string;
}

/** The warning and critical limits (% of 230 V) above and below the nominal voltage, on charts that show them. */
export function limitLinesOf(spec: ChartSpec, limits: { warningLevel: number; criticalLevel: number } | null): LimitLine[] {
  const lines: LimitLine[] = [];
  if (spec.limits && limits) {
    for (const [pct, color, key] of [
      [limits.warningLevel, '#f59f00', 'warning'],
      [limits.criticalLevel, '#e03131', 'critical'],
    ] as const) {
      lines.push({ v: NOMINAL_VOLTAGE * (1 + pct / 100), color, key }, { v: NOMINAL_VOLTAGE * (1 - pct / 100), color, key });
    }
  }
  return lines;
}

/** The x scale's current bounds (unset before the first draw). */
export const xScale = (u: uPlot): { min?: number | undefined; max?: number | undefined } => u.scales.x ?? {};

/**
 * The scales: x is time over the requested span (read when uPlot asks, so a new span needs no rebuild); y
 * fits the values with 8 % air, keeps 0 in view for bars and every limit line on voltage charts.
 */
export function chartScales(span: { readonly current: [number, number] }, bars: boolean, limitLines: readonly LimitLine[]): uPlot.Scales {
  return {
    x: { time: true, range: () => [span.current[0], span.current[1]] },
    y: {
      range: (_u, min, max) => {
        let lo = min;
        let hi = max;
        if (bars) {
          lo = Math.min(0, lo);
          hi = Math.max(0, hi);
        }
        // Voltage charts keep every limit line the caption names in view (warning and critical).
        const lines = limitLines.map((l) => l.v);
        if (lines.length && Number.isFinite(lo)) {
          lo = Math.min(lo, ...lines);
          hi = Math.max(hi, ...lines);
        }
        if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
        if (lo === hi) return [lo - 1, hi + 1];
        const pad = (hi - lo) * 0.08;
        return [bars && lo === 0 ? 0 : lo - pad, hi + pad];
      },
    },
  };
}
