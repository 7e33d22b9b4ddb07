import { ActionIcon, Group, UnstyledButton } from '@mantine/core';
import { NOMINAL_VOLTAGE, type ReadingInterval } from '@phasewatch/shared';
import { IconArrowLeft, IconArrowRight, IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dateTimeFormat } from '@/lib/intl';
import { type ChartData, INTERVAL_MS, splitEstimated } from '../chart-data';
import { isolatedPoints, maxBridgeMs, withTimeGaps } from '../chart-gaps';
import type { ChartSpec } from '../chart-specs';
import { valueTickLabels } from '../format';
import { zonedDate } from '../zoned-date';
import classes from './uplot-chart.module.css';

type Values = (number | null)[];

export interface UplotChartProps {
  spec: ChartSpec;
  data: ChartData;
  /** The same span one period earlier, aligned to `data.ts`, one array per column (drawn faintly behind). */
  previous: Values[] | null;
  /** Legend label of each column. */
  labels: string[];
  /** The requested range [from, to) in epoch ms: the x axis shows all of it until the user zooms. */
  span: [number, number];
  interval: ReadingInterval;
  timezone: string;
  locale: string;
  dark: boolean;
  /** Voltage limit values (% of 230 V), drawn as lines on voltage charts. */
  limits: { warningLevel: number; criticalLevel: number } | null;
  height: number;
  formatValue(v: number, unit: string): string;
  formatBucket(ts: number): string;
}

/** What each uPlot series (after the x values) draws. */
interface Slot {
  role: 'prev' | 'main' | 'est';
  col: number;
}

const alpha = (hex: string, a: number) =>
  `${hex}${Math.round(a * 255)
    .toString(16)
    .padStart(2, '0')}`;

/** Diagonal hatching in a colour: estimated energy (interpolated across a gap). */
function hatch(color: string, background = 'transparent'): CanvasPattern | string {
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

/** The x scale's current bounds (unset before the first draw). */
const xScale = (u: uPlot): { min?: number | undefined; max?: number | undefined } => u.scales.x ?? {};

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

/**
 * The index of the bucket still running at `now` (its energy so far, not its whole), when it is the
 * last one drawn: a year of daily bars ends with today's, which would look like a sudden drop.
 */
export function partialBucket(xs: readonly number[], bucketMs: number, now: number): number | null {
  const i = xs.length - 1;
  const t = xs[i];
  return t !== undefined && t <= now && now < t + bucketMs ? i : null;
}

/**
 * A time-series chart drawn by uPlot on a canvas: lines of instantaneous values (means with a faint
 * min–max band in phase views) or bars of energy per interval, estimated buckets hatched, the relay as
 * a band, limit lines on voltage, the previous period faintly behind. Drag to zoom, Ctrl+wheel to zoom,
 * Shift+drag to pan, or the buttons; the legend turns series on and off. This module is its own chunk.
 */
export default function UplotChart(props: UplotChartProps) {
  const { t } = useTranslation();
  const { spec, data, previous, labels, span, interval, timezone, locale, dark, limits, height, formatValue, formatBucket } = props;
  const box = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const yLabels = useRef<string[]>([]);
  const tip = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const slots = useRef<Slot[]>([]);
  const spanRef = useRef(span);
  spanRef.current = span;
  const zoomed = useRef(false);
  const [hidden, setHidden] = useState<Record<number, boolean>>({});
  const [drawn, setDrawn] = useState(0);
  const fmt = useRef({ formatValue, formatBucket, labels });
  fmt.current = { formatValue, formatBucket, labels };
  const bucketMs = interval === 'raw' ? 60_000 : INTERVAL_MS[interval];

  // The chart's structure: rebuilt when the series, the theme or the language change; data alone is set in place.
  const structure = `${spec.id}|${data.columns.map((c) => `${c.spec.param}:${c.spec.stat ?? ''}`).join(',')}|${previous ? 'p' : ''}|${data.estimated.length > 0}|${!!data.state}|${dark}|${locale}|${timezone}|${interval}|${limits?.warningLevel}-${limits?.criticalLevel}`;

  const aligned = (): uPlot.AlignedData => {
    const out: Values[] = [];
    const slotList: Slot[] = [];
    const bars = spec.style === 'bars';
    if (previous) {
      previous.forEach((p, col) => {
        if (data.columns[col]?.spec.stat) return;
        out.push(p);
        slotList.push({ role: 'prev', col });
      });
    }
    const est: { col: number; values: Values }[] = [];
    data.columns.forEach((c, col) => {
      if (bars) {
        const split = splitEstimated(c.values, data.estimated);
        out.push(split.measured);
        if (split.estimated) est.push({ col, values: split.estimated });
      } else out.push(c.values);
      slotList.push({ role: 'main', col });
    });
    for (const e of est) {
      out.push(e.values);
      slotList.push({ role: 'est', col: e.col });
    }
    slots.current = slotList;
    return [data.ts, ...out] as uPlot.AlignedData;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt on `structure`; data updates go through setData below.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    performance.mark(`pw-chart-start:${spec.id}`);
    const d = aligned();
    const axisColor = dark ? '#c1c2c5' : '#495057';
    const gridColor = dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.07)';
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
    for (const s of slots.current) {
      const c = data.columns[s.col];
      if (!c) continue;
      const color = c.spec.color;
      const base: uPlot.Series = { label: fmt.current.labels[s.col] ?? c.spec.param, scale: 'y', points: { show: false } };
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
    const idx = (col: number, role: Slot['role'] = 'main') => slots.current.findIndex((s) => s.role === role && s.col === col) + 1;
    data.columns.forEach((c, col) => {
      if (c.spec.stat !== 'max') return;
      const minCol = data.columns.findIndex((o) => o.spec.param === c.spec.param && o.spec.stat === 'min');
      if (minCol >= 0) bands.push({ series: [idx(col), idx(minCol)], fill: alpha(c.spec.color, 0.12) });
    });

    const ticks = tickFormatters(locale, timezone);
    const unit = spec.unit;
    const limitLines: { v: number; color: string; key: string }[] = [];
    if (spec.limits && limits) {
      for (const [pct, color, key] of [
        [limits.warningLevel, '#f59f00', 'warning'],
        [limits.criticalLevel, '#e03131', 'critical'],
      ] as const) {
        limitLines.push({ v: NOMINAL_VOLTAGE * (1 + pct / 100), color, key }, { v: NOMINAL_VOLTAGE * (1 - pct / 100), color, key });
      }
    }
    const estHatch = hatch(dark ? 'rgba(255,255,255,0.18)' : 'rgba(0,0,0,0.12)');

    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      ms: 1,
      tzDate: zonedDate(timezone),
      legend: { show: false },
      // Room on the right for the last time label.
      padding: [12, 20, 0, 0],
      cursor: {
        drag: { x: true, y: false, setScale: true },
        points: { show: !bars },
        focus: { prox: 16 },
      },
      focus: { alpha: 0.4 },
      scales: {
        x: { time: true, range: () => [spanRef.current[0], spanRef.current[1]] },
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
      },
      axes: [
        {
          stroke: axisColor,
          grid: { stroke: gridColor, width: 1 },
          ticks: { stroke: gridColor, width: 1 },
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
          stroke: axisColor,
          grid: { stroke: gridColor, width: 1 },
          ticks: { stroke: gridColor, width: 1 },
          // Wide enough for the longest label ("50.02 Hz", "0.125 kvarh").
          size: (_u, values) => 18 + 7.5 * Math.max(4, ...(values ?? []).map((v) => String(v).length)),
          // Distinct labels however narrow the range (one reading: its value ± 1).
          values: (_u, splits, _ax, _space, incr) => {
            yLabels.current = valueTickLabels(splits, incr, unit, locale);
            return yLabels.current;
          },
        },
      ],
      series,
      bands,
      hooks: {
        drawClear: [
          (u) => {
            const ctx = u.ctx;
            const { top, height: h } = u.bbox;
            const xs = u.data[0] as number[];
            const bucketPx = (i: number) => {
              const tt = xs[i] as number;
              const l = u.valToPos(tt, 'x', true);
              return [l, u.valToPos(tt + bucketMs, 'x', true) - l] as const;
            };
            ctx.save();
            if (data.state) {
              const st = data.state;
              for (let i = 0; i < st.length; i++) {
                const v = st[i];
                if (!v) continue;
                const [l, w] = bucketPx(i);
                ctx.fillStyle = `rgba(250, 176, 5, ${0.12 + 0.28 * Math.min(1, v)})`;
                ctx.fillRect(l, top, Math.max(1, w), h);
              }
            }
            ctx.fillStyle = estHatch;
            for (const i of data.estimated) {
              const [l, w] = bucketPx(i);
              ctx.fillRect(l, top, Math.max(2, w), h);
            }
            ctx.restore();
          },
        ],
        draw: [
          (u) => {
            const part = bars ? partialBucket(u.data[0] as number[], bucketMs, Date.now()) : null;
            if (part !== null) {
              // The bucket still running: its bar faded behind a dashed line and "so far".
              const ctx = u.ctx;
              const { top, height: h } = u.bbox;
              const t0 = (u.data[0] as number[])[part] as number;
              const l = u.valToPos(t0, 'x', true);
              const r = u.valToPos(t0 + bucketMs, 'x', true);
              ctx.save();
              ctx.fillStyle = dark ? 'rgba(36,36,36,0.55)' : 'rgba(255,255,255,0.55)';
              ctx.fillRect(l, top, Math.max(1, r - l), h);
              ctx.strokeStyle = axisColor;
              ctx.setLineDash([3 * devicePixelRatio, 3 * devicePixelRatio]);
              ctx.lineWidth = devicePixelRatio;
              ctx.beginPath();
              ctx.moveTo(l, top);
              ctx.lineTo(l, top + h);
              ctx.stroke();
              ctx.fillStyle = axisColor;
              ctx.font = `${11 * devicePixelRatio}px system-ui, sans-serif`;
              ctx.textBaseline = 'top';
              const text = t('ux.chart.soFar');
              const w = ctx.measureText(text).width;
              const pad = 4 * devicePixelRatio;
              ctx.textAlign = l - w - pad > u.bbox.left ? 'right' : 'left';
              ctx.fillText(text, ctx.textAlign === 'right' ? l - pad : l + pad, top + pad);
              ctx.restore();
            }
            if (limitLines.length) {
              const ctx = u.ctx;
              const { left, top, width: w, height: h } = u.bbox;
              ctx.save();
              ctx.setLineDash([6, 4]);
              ctx.lineWidth = Math.max(1, devicePixelRatio);
              for (const l of limitLines) {
                const y = u.valToPos(l.v, 'y', true);
                if (y < top || y > top + h) continue;
                ctx.strokeStyle = l.color;
                ctx.beginPath();
                ctx.moveTo(left, y);
                ctx.lineTo(left + w, y);
                ctx.stroke();
              }
              ctx.restore();
            }
            // What the axis shows, for the browser tests (the labels are drawn on the canvas).
            const r = root.current;
            if (r) {
              r.dataset.yRange = `${u.scales.y?.min ?? ''},${u.scales.y?.max ?? ''}`;
              r.dataset.yLabels = yLabels.current.join('|');
            }
            performance.mark(`pw-chart-drawn:${spec.id}`);
            performance.measure(`pw-chart:${spec.id}`, `pw-chart-start:${spec.id}`, `pw-chart-drawn:${spec.id}`);
            setDrawn((n) => n + 1);
          },
        ],
        setScale: [
          (u, key) => {
            if (key !== 'x') return;
            const { min, max } = xScale(u);
            zoomed.current = min !== undefined && max !== undefined && (min > spanRef.current[0] + 1 || max < spanRef.current[1] - 1);
          },
        ],
        setCursor: [
          (u) => {
            const el2 = tip.current;
            if (!el2) return;
            const i = u.cursor.idx;
            const { left, top } = u.cursor;
            if (i === null || i === undefined || left === undefined || left < 0) {
              el2.style.display = 'none';
              return;
            }
            const ts = (u.data[0] as number[])[i];
            if (ts === undefined) return;
            el2.replaceChildren();
            const head = document.createElement('div');
            head.className = classes.tipTime ?? '';
            head.textContent = fmt.current.formatBucket(ts);
            el2.append(head);
            slots.current.forEach((s, k) => {
              const c = data.columns[s.col];
              if (!c || s.role === 'est' || !u.series[k + 1]?.show) return;
              let v = (u.data[k + 1] as Values)[i];
              if (s.role === 'main' && (v === null || v === undefined) && spec.style === 'bars') {
                // An estimated bucket: the value sits in the hatched series.
                const e = slots.current.findIndex((o) => o.role === 'est' && o.col === s.col);
                if (e >= 0) v = (u.data[e + 1] as Values)[i];
              }
              if (v === null || v === undefined) return;
              const row = document.createElement('div');
              row.className = classes.tipRow ?? '';
              const sw = document.createElement('span');
              sw.className = classes.swatch ?? '';
              sw.style.background = s.role === 'prev' ? alpha(c.spec.color, 0.4) : c.spec.color;
              const label = document.createElement('span');
              const name = fmt.current.labels[s.col] ?? c.spec.param;
              label.textContent = s.role === 'prev' ? `${name} (${t('charts.previous')})` : name;
              const val = document.createElement('b');
              val.textContent = fmt.current.formatValue(v, c.unit);
              row.append(sw, label, val);
              el2.append(row);
            });
            if (spec.style === 'bars' && partialBucket(u.data[0] as number[], bucketMs, Date.now()) === i) {
              const note = document.createElement('div');
              note.className = classes.tipNote ?? '';
              note.textContent = t('ux.chart.soFarTip');
              el2.append(note);
            }
            if (data.estimated.includes(i)) {
              const note = document.createElement('div');
              note.className = classes.tipNote ?? '';
              note.textContent = t('charts.estimated');
              el2.append(note);
            }
            if (data.state) {
              const v = data.state[i];
              if (v !== null && v !== undefined) {
                const note = document.createElement('div');
                note.className = classes.tipNote ?? '';
                note.textContent = t('charts.relayOn', { share: Math.round(v * 100) });
                el2.append(note);
              }
            }
            el2.style.display = 'block';
            const bw = u.over.clientWidth;
            const x = left + u.over.offsetLeft;
            el2.style.left = `${left > bw / 2 ? x - el2.offsetWidth - 12 : x + 12}px`;
            el2.style.top = `${Math.max(0, (top ?? 0) + u.over.offsetTop - 20)}px`;
          },
        ],
      },
    };
    const u = new uPlot(opts, d, el);
    plot.current = u;
    for (const [k, off] of Object.entries(hidden)) if (off) toggleColumn(Number(k), false);

    // Ctrl+wheel zooms around the pointer; Shift+drag pans (plain wheel keeps scrolling the page).
    const over = u.over;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      const { min, max } = xScale(u);
      if (min === undefined || max === undefined) return;
      const at = u.posToVal(e.offsetX, 'x');
      const f = e.deltaY < 0 ? 0.75 : 1 / 0.75;
      setX(at - (at - min) * f, at + (max - at) * f);
    };
    let panFrom: { x: number; min: number; max: number } | null = null;
    const onDown = (e: MouseEvent) => {
      if (!e.shiftKey) return;
      const { min, max } = xScale(u);
      if (min === undefined || max === undefined) return;
      e.stopPropagation();
      e.preventDefault();
      panFrom = { x: e.clientX, min, max };
    };
    const onMove = (e: MouseEvent) => {
      if (!panFrom) return;
      const dx = ((e.clientX - panFrom.x) / u.over.clientWidth) * (panFrom.max - panFrom.min);
      setX(panFrom.min - dx, panFrom.max - dx);
    };
    const onUp = () => {
      panFrom = null;
    };
    over.addEventListener('wheel', onWheel, { passive: false });
    over.addEventListener('mousedown', onDown, true);
    window.addEventListener('mousemove', onMove);
    window.addEventListener('mouseup', onUp);
    const onLeave = () => {
      if (tip.current) tip.current.style.display = 'none';
    };
    over.addEventListener('mouseleave', onLeave);

    const ro = new ResizeObserver(() => {
      const w = el.clientWidth;
      if (w > 0 && Math.abs(w - u.width) > 1) u.setSize({ width: w, height });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      window.removeEventListener('mousemove', onMove);
      window.removeEventListener('mouseup', onUp);
      u.destroy();
      plot.current = null;
    };
  }, [structure, height]);

  // New data with the same structure (live readings, a refetch): drawn in place, the zoom kept.
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `aligned` reads the latest props.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const u = plot.current;
    if (!u) return;
    const keep = zoomed.current ? { min: xScale(u).min, max: xScale(u).max } : null;
    performance.mark(`pw-chart-start:${spec.id}`);
    u.setData(aligned());
    if (keep?.min !== undefined && keep.max !== undefined) u.setScale('x', { min: keep.min, max: keep.max });
  }, [data, previous, span[0], span[1]]);

  function setX(min: number, max: number) {
    const u = plot.current;
    if (!u) return;
    const [s0, s1] = spanRef.current;
    const w = Math.min(max - min, s1 - s0);
    let lo = Math.max(s0, min);
    let hi = lo + w;
    if (hi > s1) {
      hi = s1;
      lo = hi - w;
    }
    u.setScale('x', { min: lo, max: hi });
  }

  function zoom(f: number) {
    const u = plot.current;
    const { min, max } = u ? xScale(u) : {};
    if (min === undefined || max === undefined) return;
    const mid = (min + max) / 2;
    const half = Math.max(bucketMs * 2, ((max - min) * f) / 2);
    setX(mid - half, mid + half);
  }

  function pan(dir: number) {
    const u = plot.current;
    const { min, max } = u ? xScale(u) : {};
    if (min === undefined || max === undefined) return;
    const d = (max - min) * 0.25 * dir;
    setX(min + d, max + d);
  }

  function toggleColumn(col: number, show: boolean) {
    const u = plot.current;
    if (!u) return;
    const param = data.columns[col]?.spec.param;
    slots.current.forEach((s, k) => {
      const c = data.columns[s.col];
      if (s.col === col || (c?.spec.stat && c.spec.param === param)) u.setSeries(k + 1, { show });
    });
  }

  const legend = data.columns.map((c, col) => ({ c, col })).filter(({ c }) => !c.spec.stat);
  const hasEst = data.estimated.length > 0;

  const partial = spec.style === 'bars' && partialBucket(data.ts, bucketMs, Date.now()) !== null;
  const notes = [
    previous && <span key="prev">{t('charts.previousShown')}</span>,
    hasEst && (
      <span key="est">
        <span className={`${classes.swatch} ${classes.hatched}`} />
        {t('charts.estimated')}
      </span>
    ),
    spec.limits && limits && <span key="limits">{t('charts.limitLines', limits)}</span>,
    data.state && (
      <span key="relay">
        <span className={`${classes.swatch} ${classes.relay}`} />
        {t('charts.relayBand')}
      </span>
    ),
    partial && <span key="partial">{t('ux.chart.soFarNote')}</span>,
  ].filter(Boolean);

  return (
    <div className={classes.root} ref={root} data-chart-drawn={drawn} data-partial={partial || undefined}>
      <div className={classes.toolbar}>
        <Group gap={6} wrap="wrap" role="group" aria-label={t('charts.series')} className={classes.legend}>
          {legend.map(({ c, col }) => {
            const off = !!hidden[col];
            return (
              <UnstyledButton
                key={col}
                className={classes.legendItem}
                aria-pressed={!off}
                data-series={c.spec.param}
                data-off={off || undefined}
                onClick={() => {
                  setHidden((h) => ({ ...h, [col]: !off }));
                  toggleColumn(col, off);
                }}
              >
                <span className={classes.swatch} style={{ background: off ? 'transparent' : c.spec.color, borderColor: c.spec.color }} />
                {labels[col] ?? c.spec.param}
              </UnstyledButton>
            );
          })}
        </Group>
        <Group gap={2} wrap="nowrap" data-zoom-buttons>
          {(
            [
              ['zoomIn', IconZoomIn, () => zoom(0.5)],
              ['zoomOut', IconZoomOut, () => zoom(2)],
              ['panLeft', IconArrowLeft, () => pan(-1)],
              ['panRight', IconArrowRight, () => pan(1)],
              ['resetZoom', IconZoomReset, () => setX(spanRef.current[0], spanRef.current[1])],
            ] as const
          ).map(([key, Icon, action]) => (
            // A native tooltip (title): Mantine's Tooltip costs a positioning instance per button, 20 on a page.
            <ActionIcon
              key={key}
              variant="subtle"
              color="gray"
              size="sm"
              aria-label={t(`charts.${key}`)}
              title={t(`charts.${key}`)}
              onClick={action}
              data-action={key}
            >
              <Icon size={16} />
            </ActionIcon>
          ))}
        </Group>
      </div>
      <div className={classes.plot} ref={box} style={{ height }}>
        <div ref={tip} className={classes.tip} role="status" aria-live="off" />
      </div>
      {notes.length > 0 && (
        <div className={classes.notes} data-chart-notes>
          {notes}
        </div>
      )}
    </div>
  );
}
