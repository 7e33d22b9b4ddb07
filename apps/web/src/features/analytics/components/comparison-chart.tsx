import { useLayoutEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { zonedDate } from '@/features/charts';
import { dateTimeFormat } from '@/lib/intl';

export interface ComparisonChartProps {
  ts: number[];
  series: { label: string; unit: string; color: string; values: (number | null)[] }[];
  span: [number, number];
  timezone: string;
  locale: string;
  dark: boolean;
  height?: number;
  /** The legend's name of the time axis. */
  timeLabel: string;
  formatValue(v: number, unit: string): string;
}

/**
 * A saved comparison on one chart: every series on a shared time axis, one value axis per unit (left
 * for the first unit, right for the second, then alternating), lines in colour-blind-safe colours with
 * a legend, hover values. Its own chunk (uPlot is shared with the device pages' chart chunk).
 */
export default function ComparisonChart({
  ts,
  series,
  span,
  timezone,
  locale,
  dark,
  height = 320,
  timeLabel,
  formatValue,
}: ComparisonChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const units = [...new Set(series.map((s) => s.unit))];
    const axisColor = dark ? '#c1c2c5' : '#495057';
    const grid = dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.07)';
    const tick = {
      time: dateTimeFormat(locale, { timeZone: timezone, hour: '2-digit', minute: '2-digit' }),
      day: dateTimeFormat(locale, { timeZone: timezone, day: 'numeric', month: 'short' }),
      month: dateTimeFormat(locale, { timeZone: timezone, month: 'short', year: 'numeric' }),
    };
    const opts: uPlot.Options = {
      width: Math.max(240, el.clientWidth),
      height,
      ms: 1,
      tzDate: zonedDate(timezone),
      padding: [12, 24, 0, 0],
      legend: { show: true, live: true },
      cursor: { drag: { x: true, y: false, setScale: true } },
      scales: {
        x: { time: true, range: () => [span[0], span[1]] },
        ...Object.fromEntries(units.map((u) => [`u:${u}`, { auto: true }])),
      },
      axes: [
        {
          stroke: axisColor,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid, width: 1 },
          space: 72,
          values: (_u, splits, _a, _s, incr) =>
            splits.map((v) => (incr < 86_400_000 ? tick.time : incr < 28 * 86_400_000 ? tick.day : tick.month).format(v)),
        },
        ...units.map(
          (u, i): uPlot.Axis => ({
            scale: `u:${u}`,
            side: i % 2 === 0 ? 3 : 1,
            stroke: axisColor,
            grid: { show: i === 0, stroke: grid, width: 1 },
            ticks: { stroke: grid, width: 1 },
            label: u ? `[${u}]` : undefined,
            size: (_u, values) => 24 + 7 * Math.max(3, ...(values ?? []).map((v) => String(v).length)),
            values: (_u, splits) => splits.map((v) => formatValue(v, '').replace(/\s.*$/, '')),
          }),
        ),
      ],
      series: [
        { label: timeLabel, value: (_u, v) => (v === null || v === undefined ? '—' : `${tick.day.format(v)} ${tick.time.format(v)}`) },
        ...series.map(
          (s): uPlot.Series => ({
            label: s.label,
            scale: `u:${s.unit}`,
            stroke: s.color,
            width: 1.6,
            points: { show: false },
            spanGaps: false,
            value: (_u, v) => (v === null || v === undefined ? '—' : formatValue(v, s.unit)),
          }),
        ),
      ],
    };
    const u = new uPlot(opts, [ts, ...series.map((s) => s.values)] as uPlot.AlignedData, el);
    const ro = new ResizeObserver(() => {
      const w = el.clientWidth;
      if (w > 0 && Math.abs(w - u.width) > 1) u.setSize({ width: w, height });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
    };
  }, [ts, series, span, timezone, locale, dark, height, timeLabel, formatValue]);
  return <div ref={box} data-comparison-chart={series.length} style={{ width: '100%' }} />;
}
