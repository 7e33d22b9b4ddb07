import type uPlot from 'uplot';
import type { ChartData } from '../chart-data';
import type { LimitLine } from './uplot-scales';
import { hatch } from './uplot-series';

/**
 * The index of the bucket still running at `now` (its energy so far, not its whole), when it is the
 * last one drawn: a year of daily bars ends with today's, which would look like a sudden drop.
 */
export function partialBucket(xs: readonly number[], bucketMs: number, now: number): number | null {
  const i = xs.length - 1;
  const t = xs[i];
  return t !== undefined && t <= now && now < t + bucketMs ? i : null;
}

/** Left edge and width in canvas pixels of bucket `i`. */
function bucketPx(u: uPlot, bucketMs: number, i: number): readonly [number, number] {
  const tt = (u.data[0] as number[])[i] as number;
  const l = u.valToPos(tt, 'x', true);
  return [l, u.valToPos(tt + bucketMs, 'x', true) - l] as const;
}

/** Behind the series (uPlot's drawClear): the relay's on-share as an amber band, estimated buckets hatched. */
export function backgroundHook(data: ChartData, bucketMs: number, dark: boolean): (u: uPlot) => void {
  const estHatch = hatch(dark ? 'rgba(255,255,255,0.18)' : 'rgba(0,0,0,0.12)');
  return (u) => {
    const ctx = u.ctx;
    const { top, height: h } = u.bbox;
    ctx.save();
    if (data.state) {
      const st = data.state;
      for (let i = 0; i < st.length; i++) {
        const v = st[i];
        if (!v) continue;
        const [l, w] = bucketPx(u, bucketMs, i);
        ctx.fillStyle = `rgba(250, 176, 5, ${0.12 + 0.28 * Math.min(1, v)})`;
        ctx.fillRect(l, top, Math.max(1, w), h);
      }
    }
    ctx.fillStyle = estHatch;
    for (const i of data.estimated) {
      const [l, w] = bucketPx(u, bucketMs, i);
      ctx.fillRect(l, top, Math.max(2, w), h);
    }
    ctx.restore();
  };
}

/** The bucket still running: its bar faded behind a dashed line and "so far". */
function drawPartialBucket(u: uPlot, part: number, bucketMs: number, dark: boolean, axisColor: string, text: string) {
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
  const w = ctx.measureText(text).width;
  const pad = 4 * devicePixelRatio;
  ctx.textAlign = l - w - pad > u.bbox.left ? 'right' : 'left';
  ctx.fillText(text, ctx.textAlign === 'right' ? l - pad : l + pad, top + pad);
  ctx.restore();
}

/** Dashed voltage limit lines across the plot (those within the y range). */
function drawLimitLines(u: uPlot, limitLines: readonly LimitLine[]) {
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

export interface MarksInput {
  specId: string;
  bars: boolean;
  bucketMs: number;
  dark: boolean;
  axisColor: string;
  limitLines: readonly LimitLine[];
  /** "so far", over the bucket still running. */
  soFar: () => string;
  /** The chart's root: its data attributes tell the browser tests what the value axis shows. */
  root: { readonly current: HTMLElement | null };
  yLabels: { readonly current: string[] };
  /** Called after every draw (the chart's draw count, its timing marks). */
  onDrawn: () => void;
}

/** Over the series (uPlot's draw): the running bucket, the limit lines, the axis for the tests, the timing. */
export function marksHook({
  specId,
  bars,
  bucketMs,
  dark,
  axisColor,
  limitLines,
  soFar,
  root,
  yLabels,
  onDrawn,
}: MarksInput): (u: uPlot) => void {
  return (u) => {
    const part = bars ? partialBucket(u.data[0] as number[], bucketMs, Date.now()) : null;
    if (part !== null) drawPartialBucket(u, part, bucketMs, dark, axisColor, soFar());
    if (limitLines.length) drawLimitLines(u, limitLines);
    // What the axis shows, for the browser tests (the labels are drawn on the canvas).
    const r = root.current;
    if (r) {
      r.dataset.yRange = `${u.scales.y?.min ?? ''},${u.scales.y?.max ?? ''}`;
      r.dataset.yLabels = yLabels.current.join('|');
    }
    performance.mark(`pw-chart-drawn:${specId}`);
    performance.measure(`pw-chart:${specId}`, `pw-chart-start:${specId}`, `pw-chart-drawn:${specId}`);
    onDrawn();
  };
}
