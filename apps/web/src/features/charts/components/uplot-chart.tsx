import type { ReadingInterval } from '@phasewatch/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type ChartData, INTERVAL_MS } from '../chart-data';
import type { ChartSpec } from '../chart-specs';
import { zonedDate } from '../zoned-date';
import { axisColors, chartAxes } from './uplot-axes';
import classes from './uplot-chart.module.css';
import { backgroundHook, marksHook, partialBucket } from './uplot-draw';
import { attachZoomAndPan, followWidth } from './uplot-interactions';
import { chartScales, limitLinesOf, xScale } from './uplot-scales';
import { alignData, chartSeries, type Slot, type Values } from './uplot-series';
import { ChartToolbar } from './uplot-toolbar';
import { tooltipHook } from './uplot-tooltip';

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

  /** uPlot's data from the latest props; the slots (what each series draws) kept beside it. */
  const aligned = (): uPlot.AlignedData => {
    const a = alignData(spec, data, previous);
    slots.current = a.slots;
    return a.aligned;
  };

  // The plot, built from its named parts: series, scales, axes, what is drawn behind and over the series, the
  // tooltip; then zoom and pan, and the width that follows the box. Built after the page has been painted (an
  // effect, not a layout effect): its box keeps its height meanwhile, and a page's header and figures show
  // without waiting for its charts (a phone's first paint waited ~0.15 s of CPU per page for them).
  // biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt on `structure`; data updates go through setData below.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    performance.mark(`pw-chart-start:${spec.id}`);
    const d = aligned();
    const bars = spec.style === 'bars';
    const { series, bands } = chartSeries({ spec, data, slots: slots.current, labels: fmt.current.labels, interval, bucketMs });
    const limitLines = limitLinesOf(spec, limits);
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
      scales: chartScales(spanRef, bars, limitLines),
      axes: chartAxes({ locale, timezone, unit: spec.unit, dark, yLabels }),
      series,
      bands,
      hooks: {
        drawClear: [backgroundHook(data, bucketMs, dark)],
        draw: [
          marksHook({
            specId: spec.id,
            bars,
            bucketMs,
            dark,
            axisColor: axisColors(dark).axis,
            limitLines,
            soFar: () => t('ux.chart.soFar'),
            root,
            yLabels,
            onDrawn: () => setDrawn((n) => n + 1),
          }),
        ],
        setScale: [
          (u, key) => {
            if (key !== 'x') return;
            const { min, max } = xScale(u);
            zoomed.current = min !== undefined && max !== undefined && (min > spanRef.current[0] + 1 || max < spanRef.current[1] - 1);
          },
        ],
        setCursor: [tooltipHook({ tip, spec, data, slots, fmt, bucketMs, t })],
      },
    };
    const u = new uPlot(opts, d, el);
    plot.current = u;
    for (const [k, off] of Object.entries(hidden)) if (off) toggleColumn(Number(k), false);
    const stopZoomAndPan = attachZoomAndPan(u, setX, tip);
    const stopFollowing = followWidth(u, el, height);
    return () => {
      stopFollowing();
      stopZoomAndPan();
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
      <ChartToolbar
        data={data}
        labels={labels}
        hidden={hidden}
        onToggle={(col, off) => {
          setHidden((h) => ({ ...h, [col]: !off }));
          toggleColumn(col, off);
        }}
        onZoom={zoom}
        onPan={pan}
        onReset={() => setX(spanRef.current[0], spanRef.current[1])}
      />
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
