import {
  addLocalDays,
  type ConsumptionParams,
  type ConsumptionResponse,
  type DeviceRole,
  ENERGY_PARAMETER,
  effectiveRoles,
  energyDirection,
  FALLBACK_TIMEZONE,
  type HeatmapKind,
  type HeatmapResponse,
  isStorableId,
  localParts,
  parameterInfo,
  SUM_COVERAGE_MIN,
  startOfLocalDay,
  startOfLocalMonth,
  zonedTimeToUtc,
} from '@phasewatch/shared';
import { keyedError } from '../../http/errors.js';
import type { DeviceRow } from '../../storage/schema.js';
import type { DeviceReads } from '../devices/index.js';
import { type ReadingsColumns, type ReadingsService, releaseColumns } from '../readings/index.js';
import { dateOf, dayEdges, dayStartOf, isoWeekday, localHours, pad2 } from './heatmap.js';

const H1 = 3_600_000;
const QUARTER = 900_000;
const WIDTH = { '15m': QUARTER, '30m': 2 * QUARTER, '1h': H1 } as const;

const deviceNotFound = (field = 'deviceId') => keyedError(404, 'errors.deviceNotFound', { field });

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** What a figure of a device is read from: its energy counters (summed) or one parameter. */
interface Figure {
  params: string[];
  unit: string;
  aggregate: 'sum' | 'average';
}

/** The figure of each bucket of an answer (by its start): energy summed over the counters, or the mean. */
function bucketFigures(answer: ReadingsColumns, fig: Figure): Map<number, number> {
  const out = new Map<number, number>();
  for (const p of fig.params) {
    const s = answer.series[p];
    if (!s) continue;
    const col = s.kind === 'counter' ? s.delta : s.kind === 'instant' ? s.avg : s.values;
    for (let i = 0; i < answer.ts.length; i++) {
      const v = col[i] as number;
      if (Number.isNaN(v)) continue;
      const t = answer.ts[i] as number;
      out.set(t, fig.aggregate === 'sum' ? round6((out.get(t) ?? 0) + v) : v);
    }
  }
  return out;
}

/**
 * The analytics screen's figures (spec section 2), all read from rollups (hourly, local-day or
 * quarter-hour levels) through `ReadingsService.readingsOver`, in the owner's timezone.
 */
export class AnalyticsService {
  constructor(
    private readonly devices: DeviceReads,
    private readonly readings: ReadingsService,
  ) {}

  private async own(userId: number, id: number, field = 'deviceId'): Promise<DeviceRow> {
    const row = isStorableId(id) ? await this.devices.findForUser(userId, id) : undefined;
    if (!row) throw deviceNotFound(field);
    return row;
  }

  /**
   * Which devices the consumption Total adds (issue 33): not a production device (its figure is what the
   * PV produced, not what was consumed), and not a sub-meter whose location's grid meter is in the table
   * too (the grid meter measures it already). Roles are the devices' effective ones at their locations.
   */
  private async countedInTotal(userId: number, devices: readonly DeviceRow[]): Promise<boolean[]> {
    const all = await this.devices.listForUser(userId);
    const roles = new Map<number, DeviceRole>();
    const byLocation = new Map<number | string, DeviceRow[]>();
    for (const d of all) {
      const key = d.location_id ?? `device-${d.id}`;
      byLocation.set(key, [...(byLocation.get(key) ?? []), d]);
    }
    for (const list of byLocation.values())
      for (const [id, role] of effectiveRoles(list.map((d) => ({ id: d.id, typeCode: d.type_code, role: d.role })))) roles.set(id, role);
    const selected = new Set(devices.map((d) => d.id));
    const gridOf = new Map<number, number>();
    for (const d of all) if (d.location_id !== null && roles.get(d.id) === 'grid') gridOf.set(d.location_id, d.id);
    return devices.map((d) => {
      const role = roles.get(d.id);
      if (role === 'production') return false;
      if (role === 'submeter' && d.location_id !== null) {
        const grid = gridOf.get(d.location_id);
        if (grid !== undefined && selected.has(grid)) return false;
      }
      return true;
    });
  }

  private async timezone(userId: number): Promise<string> {
    return (await this.devices.userTimezone(userId))?.timezone ?? FALLBACK_TIMEZONE;
  }

  /** The device's energy counters (import, or export for producers) or the parameter itself. */
  private async figure(device: DeviceRow, parameter: string): Promise<Figure> {
    if (parameter === ENERGY_PARAMETER) {
      return { params: await this.readings.energyCounters(device.id, energyDirection(device.type_code)), unit: 'kWh', aggregate: 'sum' };
    }
    const info = parameterInfo(parameter);
    return { params: [parameter], unit: info?.unit ?? '', aggregate: info?.kind === 'counter' ? 'sum' : 'average' };
  }

  /** Figures per span of `edges` on the cheapest stored level whose buckets hold every edge. */
  /**
   * The share of `[from, min(to, now))` with data: local hours with a figure (local days past 62 days), so a
   * comparison can say a period is mostly empty (history that began yesterday). 1 for a period not begun.
   */
  private async coverage(deviceId: number, tz: string, fig: Figure, from: number, to: number): Promise<number> {
    const end = Math.min(to, Date.now());
    if (end <= from) return 1;
    const long = end - from > 62 * 86_400_000;
    const lastDay = startOfLocalDay(end, tz);
    const edges = long ? dayEdges(startOfLocalDay(from, tz), lastDay === end ? end : addLocalDays(lastDay, 1, tz), tz) : ([] as number[]);
    if (!long) {
      for (let t = Math.floor(from / H1) * H1; t < end; t += H1) edges.push(t);
      edges.push(Math.ceil(end / H1) * H1);
    }
    if (edges.length < 2) return 1;
    const figures = await this.spans(deviceId, tz, edges, fig, long ? 'day' : 'hours');
    let covered = 0;
    for (const e of edges.slice(0, -1)) if (figures.get(e) !== undefined) covered++;
    return Math.round((covered / (edges.length - 1)) * 1000) / 1000;
  }

  private async spans(deviceId: number, tz: string, edges: number[], fig: Figure, level: 'day' | 'hours'): Promise<Map<number, number>> {
    if (fig.params.length === 0 || edges.length < 2) return new Map();
    const source = level === 'day' ? 'day' : edges.every((e) => e % H1 === 0) ? '1h' : '15m';
    const answer = await this.readings.readingsOver(deviceId, tz, edges, source, fig.params);
    const out = bucketFigures(answer, fig);
    releaseColumns(answer);
    return out;
  }

  async heatmap(
    userId: number,
    q: { deviceId: number; parameter: string; kind: HeatmapKind; from: string; to: string },
  ): Promise<HeatmapResponse> {
    const device = await this.own(userId, q.deviceId);
    const tz = await this.timezone(userId);
    const fig = await this.figure(device, q.parameter);
    const start = dayStartOf(q.from, tz);
    const end = addLocalDays(dayStartOf(q.to, tz), 1, tz);
    const base = { kind: q.kind, parameter: q.parameter, unit: fig.unit, aggregate: fig.aggregate, timezone: tz };
    const hourColumns = Array.from({ length: 24 }, (_, h) => pad2(h));

    if (q.kind === 'daily' || q.kind === 'weekly') {
      const days = dayEdges(start, end, tz);
      const perDay = days
        .slice(0, -1)
        .map((d, i) => ({ date: dateOf(d, tz), ...localHours(d, days[i + 1] as number, tz), end: days[i + 1] as number }));
      const edges = [...perDay.flatMap((d) => d.starts), end];
      const figures = await this.spans(device.id, tz, edges, fig, 'hours');
      const cell = (t: number) => figures.get(t) ?? null;
      if (q.kind === 'daily') {
        return {
          ...base,
          rows: perDay.map((d) => d.date),
          columns: hourColumns,
          values: perDay.map((d) => d.starts.map(cell)),
          starts: perDay.map((d) => d.starts),
          rowEnds: perDay.map((d) => d.end),
          hours: perDay.map((d) => d.hours),
        };
      }
      // Weekly: each (day of the week, local hour) averaged over the weeks that have a figure for it.
      const sum = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
      const count = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
      for (const d of perDay) {
        const w = isoWeekday(d.date) - 1;
        d.starts.forEach((t, k) => {
          const v = figures.get(t);
          if (v === undefined) return;
          const h = d.hours[k] as number;
          (sum[w] as number[])[h] = ((sum[w] as number[])[h] as number) + v;
          (count[w] as number[])[h] = ((count[w] as number[])[h] as number) + 1;
        });
      }
      return {
        ...base,
        rows: ['1', '2', '3', '4', '5', '6', '7'],
        columns: hourColumns,
        values: sum.map((row, w) =>
          row.map((s, h) => ((count[w] as number[])[h] ? round6(s / ((count[w] as number[])[h] as number)) : null)),
        ),
        starts: null,
        rowEnds: null,
        hours: null,
      };
    }

    if (q.kind === 'monthly') {
      const figures = await this.spans(device.id, tz, dayEdges(start, end, tz), fig, 'day');
      const rows: string[] = [];
      const values: (number | null)[][] = [];
      const starts: number[][] = [];
      const rowEnds: number[] = [];
      for (let m = startOfLocalMonth(start, tz); m < end; ) {
        const p = localParts(m, tz);
        const next = zonedTimeToUtc(tz, p.year, p.month + 1, 1);
        const days = dayEdges(m, next, tz).slice(0, -1);
        rows.push(`${p.year}-${pad2(p.month)}`);
        starts.push(days);
        values.push(days.map((d) => (d >= start && d < end ? (figures.get(d) ?? null) : null)));
        rowEnds.push(next);
        m = next;
      }
      return { ...base, rows, columns: Array.from({ length: 31 }, (_, i) => pad2(i + 1)), values, starts, rowEnds, hours: null };
    }

    // Yearly: months of each year; a month the range cuts holds its part inside the range.
    const first = localParts(start, tz).year;
    const last = localParts(end - 1, tz).year;
    const monthStarts = (y: number) => Array.from({ length: 12 }, (_, i) => zonedTimeToUtc(tz, y, i + 1, 1));
    const edges = [start];
    for (let y = first; y <= last; y++) for (const m of monthStarts(y)) if (m > start && m < end) edges.push(m);
    edges.push(end);
    const figures = await this.spans(device.id, tz, edges, fig, 'day');
    const rows: string[] = [];
    const values: (number | null)[][] = [];
    const starts: number[][] = [];
    const rowEnds: number[] = [];
    for (let y = first; y <= last; y++) {
      const ms = monthStarts(y);
      rows.push(String(y));
      starts.push(ms);
      rowEnds.push(zonedTimeToUtc(tz, y + 1, 1, 1));
      values.push(
        ms.map((m, i) => {
          const mEnd = ms[i + 1] ?? zonedTimeToUtc(tz, y + 1, 1, 1);
          if (mEnd <= start || m >= end) return null;
          return figures.get(Math.max(m, start)) ?? null;
        }),
      );
    }
    return { ...base, rows, columns: Array.from({ length: 12 }, (_, i) => pad2(i + 1)), values, starts, rowEnds, hours: null };
  }

  /** Energy per device and bucket in [from, to), with totals, sorted and paged. */
  async consumption(userId: number, q: ConsumptionParams): Promise<ConsumptionResponse> {
    const devices: DeviceRow[] = [];
    for (const id of q.deviceIds) devices.push(await this.own(userId, id, 'deviceIds'));
    const tz = await this.timezone(userId);
    const counted = await this.countedInTotal(userId, devices);
    const columns: Map<number, number>[] = [];
    let from = q.from;
    for (const d of devices) {
      const fig = await this.figure(d, ENERGY_PARAMETER);
      if (fig.params.length === 0) {
        columns.push(new Map());
        continue;
      }
      if (q.interval === 'month') {
        from = startOfLocalMonth(q.from, tz);
        const edges = [from];
        while ((edges[edges.length - 1] as number) < q.to) {
          const p = localParts(edges[edges.length - 1] as number, tz);
          edges.push(zonedTimeToUtc(tz, p.year, p.month + 1, 1));
        }
        columns.push(await this.spans(d.id, tz, edges, fig, 'day'));
        continue;
      }
      const answer = await this.readings.readings(d.id, tz, { from: q.from, to: q.to, interval: q.interval, params: fig.params });
      from = answer.from;
      columns.push(bucketFigures(answer, fig));
      releaseColumns(answer);
    }
    const endOf = (t: number) => {
      if (q.interval === 'month') {
        const p = localParts(t, tz);
        return zonedTimeToUtc(tz, p.year, p.month + 1, 1);
      }
      if (q.interval === '24h') return addLocalDays(startOfLocalDay(t, tz), 1, tz);
      return t + WIDTH[q.interval];
    };
    const starts = [...new Set(columns.flatMap((c) => [...c.keys()]))].sort((a, b) => a - b);
    const sumOf = (vs: (number | null)[]) => (vs.some((v) => v !== null) ? round6(vs.reduce<number>((a, v) => a + (v ?? 0), 0)) : null);
    const rows = starts.map((start) => {
      const values = columns.map((c) => c.get(start) ?? null);
      return { start, end: endOf(start), values, total: sumOf(values.filter((_, i) => counted[i])) };
    });
    const deviceTotals = columns.map((c) => (c.size ? round6([...c.values()].reduce((a, v) => a + v, 0)) : null));
    const key =
      q.sort === 'total'
        ? (r: (typeof rows)[number]) => r.total
        : q.sort.startsWith('device:')
          ? (
              (k) => (r: (typeof rows)[number]) =>
                k < 0 ? null : (r.values[k] ?? null)
            )(devices.findIndex((d) => `device:${d.id}` === q.sort))
          : (r: (typeof rows)[number]) => r.start;
    const sign = q.dir === 'asc' ? 1 : -1;
    rows.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (x === y) return a.start - b.start;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x - y) * sign;
    });
    const pages = Math.max(1, Math.ceil(rows.length / q.pageSize));
    const page = Math.min(q.page, pages);
    return {
      interval: q.interval,
      timezone: tz,
      unit: 'kWh',
      from,
      to: q.to,
      devices: devices.map((d, i) => ({ id: d.id, name: d.name, total: deviceTotals[i] ?? null, inTotal: counted[i] ?? true })),
      total: sumOf(deviceTotals.filter((_, i) => counted[i])),
      rows: rows.slice((page - 1) * q.pageSize, page * q.pageSize),
      page,
      pageSize: q.pageSize,
      totalRows: rows.length,
    };
  }

  /**
   * Figures side by side with their difference from the first. A range is read on the level its ends
   * allow: local days when both are local midnights, else hours, else quarter-hours (ends rounded out to them).
   */
  async sums(userId: number, req: { parameter: string; items: { deviceId: number; from: number; to: number }[] }) {
    const tz = await this.timezone(userId);
    const out = [];
    let unit = '';
    let aggregate: 'sum' | 'average' = 'sum';
    for (const [i, item] of req.items.entries()) {
      const device = await this.own(userId, item.deviceId, `items.${i}.deviceId`);
      const fig = await this.figure(device, req.parameter);
      unit = fig.unit;
      aggregate = fig.aggregate;
      const daily = startOfLocalDay(item.from, tz) === item.from && startOfLocalDay(item.to, tz) === item.to;
      const w = item.from % H1 === 0 && item.to % H1 === 0 ? H1 : QUARTER;
      const edges = daily ? [item.from, item.to] : [Math.floor(item.from / w) * w, Math.ceil(item.to / w) * w];
      const figures = await this.spans(device.id, tz, edges, fig, daily ? 'day' : 'hours');
      out.push({
        deviceId: device.id,
        deviceName: device.name,
        from: item.from,
        to: item.to,
        value: figures.get(edges[0] as number) ?? null,
        coverage: await this.coverage(device.id, tz, fig, item.from, item.to),
      });
    }
    const base = out[0]?.value ?? null;
    const baseCovered = (out[0]?.coverage ?? 0) >= SUM_COVERAGE_MIN;
    return {
      parameter: req.parameter,
      unit,
      aggregate,
      items: out.map((o, i) => {
        const difference = i === 0 || o.value === null || base === null ? null : round6(o.value - base);
        const covered = baseCovered && o.coverage >= SUM_COVERAGE_MIN;
        const percent =
          difference === null || base === 0 || base === null || !covered ? null : Math.round((difference / Math.abs(base)) * 1e4) / 100;
        return { ...o, difference: i === 0 ? null : difference, percent };
      }),
    };
  }
}
