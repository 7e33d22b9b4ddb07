import { Box, Group, Text, useComputedColorScheme } from '@mantine/core';
import type { HeatmapResponse } from '@phasewatch/shared';
import { type KeyboardEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatChartValue } from '@/features/charts';
import { dateTimeFormat } from '@/lib/intl';
import { cellSpan, rowPlaces, VIRIDIS_GRADIENT, valueRange, viridis } from '../heatmap-model';

export interface HeatmapChartProps {
  data: HeatmapResponse;
  locale: string;
  timezone: string;
  /** A cell was clicked (or chosen with Enter): row and cell index. */
  onOpen(row: number, cell: number): void;
}

const LABEL_W = 92;
const HEAD_H = 22;

/**
 * A heatmap on a canvas: rows (dates, weekdays, months, years) by columns (hours, days, months), each
 * cell coloured on the viridis scale with a legend in the unit. Hovering a cell shows its value and span,
 * clicking opens the span on the device's chart; with the keyboard, arrows move a focus cell, Enter
 * opens it, and the cell is read out.
 */
export function HeatmapChart({ data, locale, timezone, onOpen }: HeatmapChartProps) {
  const { t } = useTranslation();
  const dark = useComputedColorScheme('light') === 'dark';
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const [hover, setHover] = useState<{ r: number; c: number; x: number; y: number } | null>(null);
  const [focus, setFocus] = useState<{ r: number; c: number } | null>(null);
  const range = useMemo(() => valueRange(data), [data]);
  const places = useMemo(() => data.rows.map((_, r) => rowPlaces(data, r)), [data]);
  const rowH = Math.max(6, Math.min(28, Math.floor(520 / Math.max(1, data.rows.length))));
  const height = HEAD_H + rowH * data.rows.length;
  const colW = width > LABEL_W ? (width - LABEL_W) / data.columns.length : 0;

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const fmt = useMemo(() => {
    const day = dateTimeFormat(locale, { timeZone: timezone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
    const time = dateTimeFormat(locale, { timeZone: timezone, hour: '2-digit', minute: '2-digit' });
    // On the days the clocks change the offset tells the repeated (or skipped) hour apart.
    const timeOffset = dateTimeFormat(locale, { timeZone: timezone, hour: '2-digit', minute: '2-digit', timeZoneName: 'shortOffset' });
    const month = dateTimeFormat(locale, { timeZone: timezone, month: 'long', year: 'numeric' });
    const monthShort = dateTimeFormat(locale, { timeZone: 'UTC', month: 'short' });
    const dayShort = dateTimeFormat(locale, { timeZone: 'UTC', day: 'numeric', month: 'short' });
    const weekday = dateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short' });
    const weekdayLong = dateTimeFormat(locale, { timeZone: 'UTC', weekday: 'long' });
    // 2024-01-01 was a Monday: ISO weekday n is that date plus n − 1 days.
    const wd = (n: number, long = false) => (long ? weekdayLong : weekday).format(Date.UTC(2024, 0, n));
    return { day, time, timeOffset, month, monthShort, dayShort, wd };
  }, [locale, timezone]);

  const rowLabel = (r: number, long = false): string => {
    const label = data.rows[r] ?? '';
    if (data.kind === 'weekly') return fmt.wd(Number(label), long);
    if (data.kind === 'daily')
      return long ? fmt.day.format(data.starts?.[r]?.[0] ?? 0) : fmt.dayShort.format(Date.parse(`${label}T12:00:00Z`));
    if (data.kind === 'monthly')
      return long
        ? fmt.month.format(data.starts?.[r]?.[0] ?? 0)
        : `${fmt.monthShort.format(Date.parse(`${label}-15T12:00:00Z`))} ${label.slice(0, 4)}`;
    return label;
  };
  const colLabel = (c: number): string => {
    if (data.kind === 'yearly') return fmt.monthShort.format(Date.UTC(2024, c, 15));
    return data.columns[c] ?? '';
  };

  /** What a cell says: its span and its value with the unit. */
  const describe = (r: number, c: number): string => {
    const v = data.values[r]?.[c] ?? null;
    const value = v === null ? t('analytics.heatmap.noData') : formatChartValue(v, data.unit, locale);
    const span = cellSpan(data, r, c);
    let when: string;
    if (data.kind === 'weekly') {
      const h = Number(data.columns[c]);
      when = t('analytics.heatmap.weeklyCell', {
        day: fmt.wd(Number(data.rows[r]), true),
        from: `${String(h).padStart(2, '0')}:00`,
        to: `${String((h + 1) % 24).padStart(2, '0')}:00`,
      });
    } else if (data.kind === 'daily' && span)
      when = `${fmt.day.format(span[0])}, ${fmt.time.format(span[0])} – ${fmt.time.format(span[1])}`;
    else if (data.kind === 'monthly' && span) when = fmt.day.format(span[0]);
    else if (span) when = fmt.month.format(span[0]);
    else when = '';
    return `${when}: ${value}${data.kind === 'weekly' && v !== null ? ` (${t(`analytics.heatmap.${data.aggregate === 'sum' ? 'weeklyAverage' : 'weeklyMean'}`)})` : ''}`;
  };

  // Draw.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the labels' functions follow `data` and `fmt`, which are listed
  useEffect(() => {
    const el = canvas.current;
    if (!el || colW <= 0) return;
    const dpr = window.devicePixelRatio || 1;
    el.width = Math.round(width * dpr);
    el.height = Math.round(height * dpr);
    const ctx = el.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const text = dark ? '#c1c2c5' : '#495057';
    const empty = dark ? '#2c2e33' : '#f1f3f5';
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = text;
    ctx.textBaseline = 'middle';
    // Column labels, thinned out to fit.
    const every = Math.max(1, Math.ceil(28 / colW));
    ctx.textAlign = 'center';
    for (let c = 0; c < data.columns.length; c += every) ctx.fillText(colLabel(c), LABEL_W + (c + 0.5) * colW, HEAD_H / 2);
    // Row labels, thinned out when rows are low.
    const rowEvery = Math.max(1, Math.ceil(13 / rowH));
    ctx.textAlign = 'right';
    for (let r = 0; r < data.rows.length; r += rowEvery) ctx.fillText(rowLabel(r), LABEL_W - 6, HEAD_H + (r + 0.5) * rowH);
    const span = range ? range.max - range.min : 0;
    const gap = rowH >= 10 && colW >= 8 ? 1 : 0;
    for (let r = 0; r < data.rows.length; r++) {
      const y = HEAD_H + r * rowH;
      const row = data.values[r] ?? [];
      const rp = places[r] ?? [];
      // Columns with no cell at all on this row (the skipped hour of spring): left as the background.
      for (let c = 0; c < row.length; c++) {
        const p = rp[c];
        if (!p) continue;
        const w = colW / p.parts;
        const x = LABEL_W + p.col * colW + p.part * w;
        const v = row[c];
        ctx.fillStyle = v === null || v === undefined || !range ? empty : viridis(span > 0 ? (v - range.min) / span : 1);
        ctx.fillRect(x, y, Math.max(1, w - gap), Math.max(1, rowH - gap));
      }
    }
    if (focus) {
      const p = places[focus.r]?.[focus.c];
      if (p) {
        const w = colW / p.parts;
        ctx.strokeStyle = dark ? '#ffffff' : '#000000';
        ctx.lineWidth = 2;
        ctx.strokeRect(LABEL_W + p.col * colW + p.part * w + 1, HEAD_H + focus.r * rowH + 1, Math.max(2, w - 2), Math.max(2, rowH - 2));
      }
    }
  }, [data, width, height, colW, rowH, range, places, dark, focus, fmt]);

  /** The cell under a point of the canvas, if any. */
  const cellAt = (px: number, py: number): { r: number; c: number } | null => {
    if (px < LABEL_W || py < HEAD_H || colW <= 0) return null;
    const r = Math.floor((py - HEAD_H) / rowH);
    const col = Math.floor((px - LABEL_W) / colW);
    const rp = places[r];
    if (!rp) return null;
    for (let c = 0; c < rp.length; c++) {
      const p = rp[c] as (typeof rp)[number];
      if (p.col !== col) continue;
      const within = (px - LABEL_W - col * colW) / (colW / p.parts);
      if (Math.floor(within) === p.part) return { r, c };
    }
    return null;
  };

  const onKey = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const cur = focus ?? { r: 0, c: 0 };
    const rowLen = (r: number) => data.values[r]?.length ?? 0;
    let next = cur;
    if (e.key === 'ArrowRight') next = { r: cur.r, c: Math.min(rowLen(cur.r) - 1, cur.c + 1) };
    else if (e.key === 'ArrowLeft') next = { r: cur.r, c: Math.max(0, cur.c - 1) };
    else if (e.key === 'ArrowDown') next = { r: Math.min(data.rows.length - 1, cur.r + 1), c: Math.min(rowLen(cur.r + 1) - 1, cur.c) };
    else if (e.key === 'ArrowUp') next = { r: Math.max(0, cur.r - 1), c: Math.min(rowLen(cur.r - 1) - 1, cur.c) };
    else if (e.key === 'Enter' || e.key === ' ') {
      if (focus) onOpen(focus.r, focus.c);
      e.preventDefault();
      return;
    } else return;
    e.preventDefault();
    setFocus({ r: Math.max(0, next.r), c: Math.max(0, next.c) });
  };

  const tip = hover ? describe(hover.r, hover.c) : null;
  const fmtValue = (v: number) => formatChartValue(v, data.unit, locale);
  return (
    <Box data-heatmap={data.kind} data-rows={data.rows.length}>
      <div ref={box} style={{ position: 'relative', width: '100%' }}>
        <canvas
          ref={canvas}
          style={{ width: '100%', height, display: 'block', cursor: hover ? 'pointer' : 'default', outline: 'none' }}
          tabIndex={0}
          aria-label={t('analytics.heatmap.keyboard')}
          onKeyDown={onKey}
          onFocus={() => setFocus((f) => f ?? { r: 0, c: 0 })}
          onMouseMove={(e) => {
            const rect = e.currentTarget.getBoundingClientRect();
            const x = e.clientX - rect.left;
            const y = e.clientY - rect.top;
            const cell = cellAt(x, y);
            setHover(cell ? { ...cell, x, y } : null);
          }}
          onMouseLeave={() => setHover(null)}
          onClick={(e) => {
            const rect = e.currentTarget.getBoundingClientRect();
            const cell = cellAt(e.clientX - rect.left, e.clientY - rect.top);
            if (cell) onOpen(cell.r, cell.c);
          }}
        />
        {hover && tip && (
          <div
            role="tooltip"
            data-heatmap-tip
            style={{
              position: 'absolute',
              left: Math.min(Math.max(0, hover.x + 12), Math.max(0, width - 240)),
              top: Math.max(0, hover.y - 40),
              maxWidth: 260,
              pointerEvents: 'none',
              background: dark ? '#25262b' : '#fff',
              border: '1px solid var(--mantine-color-default-border)',
              borderRadius: 6,
              padding: '4px 8px',
              fontSize: 12,
              boxShadow: '0 2px 8px rgba(0,0,0,.15)',
              zIndex: 5,
            }}
          >
            {tip}
          </div>
        )}
      </div>
      <div
        aria-live="polite"
        style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
        data-heatmap-focus
      >
        {focus ? describe(focus.r, focus.c) : ''}
      </div>
      <Group gap="xs" mt="xs" wrap="wrap" data-heatmap-legend>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {range ? fmtValue(range.min) : '—'}
        </Text>
        <div
          style={{ flex: '1 1 120px', minWidth: 100, maxWidth: 320, height: 10, borderRadius: 3, background: VIRIDIS_GRADIENT }}
          aria-hidden
        />
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {range ? fmtValue(range.max) : '—'}
        </Text>
        <Text size="xs" c="dimmed">
          {t(`analytics.heatmap.legend.${data.aggregate}`, { unit: data.unit || '—' })}
        </Text>
      </Group>
    </Box>
  );
}
