import type uPlot from 'uplot';
import { dateTimeFormat } from '@/lib/intl';
import { valueTickLabels } from '../format';

/** The axes' and grid's colours in the theme. */
export const axisColors = (dark: boolean) => ({
  axis: dark ? '#c1c2c5' : '#495057',
  grid: dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.07)',
});

/** Formatters of axis ticks by tick spacing, in the user's zone and language. */
function tickFormatters(locale: string, timeZone: string) {
  const mk = (o: Intl.DateTimeFormatOptions) => dateTimeFormat(locale, { timeZone, ...o });
  return {
    time: mk({ hour: '2-digit', minute: '2-digit' }),
    day: mk({ day: 'numeric', month: 'short' }),
    month: mk({ month: 'short', year: 'numeric' }),
  };
}

let measurer: CanvasRenderingContext2D | null | undefined;
/** Width in CSS pixels of an axis label in uPlot's axis font (12 px system-ui). */
function labelWidth(text: string): number {
  if (measurer === undefined) {
    measurer = document.createElement('canvas').getContext('2d');
    if (measurer) measurer.font = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
  }
  return measurer ? measurer.measureText(text).width : text.length * 7;
}

/**
 * Axis labels centred on their ticks, those that would not fit inside the canvas (0…`width` CSS px) left
 * out: a tick at the plot's right edge cut its label off ("12:00 A").
 */
export function labelsInside(
  labels: readonly string[],
  xs: readonly number[],
  width: number,
  measure: (s: string) => number,
): (string | null)[] {
  return labels.map((label, i) => {
    const x = xs[i] ?? 0;
    const half = measure(label) / 2;
    return x - half < 0 || x + half > width ? null : label;
  });
}

export interface AxesInput {
  locale: string;
  timezone: string;
  /** The chart's unit, in the value labels. */
  unit: string;
  dark: boolean;
  /** Where the value axis leaves the labels it drew (the browser tests read them). */
  yLabels: { current: string[] };
}

/** The time axis (labels by tick spacing, none cut off at the edges) and the value axis (wide enough, distinct labels). */
export function chartAxes({ locale, timezone, unit, dark, yLabels }: AxesInput): uPlot.Axis[] {
  const colors = axisColors(dark);
  const ticks = tickFormatters(locale, timezone);
  return [
    {
      stroke: colors.axis,
      grid: { stroke: colors.grid, width: 1 },
      ticks: { stroke: colors.grid, width: 1 },
      // Room for "09:00 PM" or "26 Nov" between ticks.
      space: 72,
      // The labels' line and a little air (uPlot's 50 px left a blank band under every chart).
      size: 30,
      values: (u, splits, _ax, _space, incr) => {
        const f = incr < 86_400_000 ? ticks.time : incr < 28 * 86_400_000 ? ticks.day : ticks.month;
        const left = (u.bbox?.left ?? 0) / devicePixelRatio;
        return labelsInside(
          splits.map((v) => f.format(v)),
          splits.map((v) => left + u.valToPos(v, 'x')),
          u.width,
          labelWidth,
        );
      },
    },
    {
      stroke: colors.axis,
      grid: { stroke: colors.grid, width: 1 },
      ticks: { stroke: colors.grid, width: 1 },
      // Wide enough for the longest label ("50.02 Hz", "0.125 kvarh").
      size: (_u, values) => 18 + 7.5 * Math.max(4, ...(values ?? []).map((v) => String(v).length)),
      // Distinct labels however narrow the range (one reading: its value ± 1).
      values: (_u, splits, _ax, _space, incr) => {
        yLabels.current = valueTickLabels(splits, incr, unit, locale);
        return yLabels.current;
      },
    },
  ];
}
