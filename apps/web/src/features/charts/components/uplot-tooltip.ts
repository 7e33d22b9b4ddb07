import type { TFunction } from 'i18next';
import type uPlot from 'uplot';
import type { ChartData } from '../chart-data';
import type { ChartSpec } from '../chart-specs';
import classes from './uplot-chart.module.css';
import { partialBucket } from './uplot-draw';
import { alpha, type Slot, type Values } from './uplot-series';

export interface TooltipInput {
  /** The tooltip's element (hidden while the cursor is off the plot). */
  tip: { readonly current: HTMLDivElement | null };
  spec: ChartSpec;
  data: ChartData;
  slots: { readonly current: readonly Slot[] };
  /** The latest formatters and labels of the chart's props. */
  fmt: { readonly current: { formatValue(v: number, unit: string): string; formatBucket(ts: number): string; labels: string[] } };
  bucketMs: number;
  t: TFunction;
}

function note(text: string): HTMLDivElement {
  const el = document.createElement('div');
  el.className = classes.tipNote ?? '';
  el.textContent = text;
  return el;
}

/**
 * The cursor's tooltip (uPlot's setCursor): the bucket's time, each shown series' value with its swatch
 * (an estimated bucket's from its hatched series), and notes for a running bucket, an estimate and the
 * relay's on-share; placed beside the cursor on the side with room.
 */
export function tooltipHook({ tip, spec, data, slots, fmt, bucketMs, t }: TooltipInput): (u: uPlot) => void {
  return (u) => {
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
    if (spec.style === 'bars' && partialBucket(u.data[0] as number[], bucketMs, Date.now()) === i) el2.append(note(t('ux.chart.soFarTip')));
    if (data.estimated.includes(i)) el2.append(note(t('charts.estimated')));
    if (data.state) {
      const v = data.state[i];
      if (v !== null && v !== undefined) el2.append(note(t('charts.relayOn', { share: Math.round(v * 100) })));
    }
    el2.style.display = 'block';
    const bw = u.over.clientWidth;
    const x = left + u.over.offsetLeft;
    el2.style.left = `${left > bw / 2 ? x - el2.offsetWidth - 12 : x + 12}px`;
    el2.style.top = `${Math.max(0, (top ?? 0) + u.over.offsetTop - 20)}px`;
  };
}
