import { addLocalDays, localDate, MAX_RANGE_MS, zonedTimeToUtc } from '@phasewatch/shared';
import type { ChartRange, ComparePeriod, PhaseView } from '@/features/charts';

export const CHART_INTERVALS = ['15m', '30m', '1h', '24h'] as const;
export type ChartInterval = (typeof CHART_INTERVALS)[number];
const COMPARE: readonly ComparePeriod[] = ['none', 'day', 'week', 'year'];

/**
 * How the charts' span is chosen: `recent`, the last 24 hours (the default); `day`, the simple chart of
 * spec section 9 (a start date plus 24 hours); `days`, whole local days from `from` to `to`.
 */
export type RangeMode = 'recent' | 'day' | 'days';

/** What the page's controls hold; kept in the URL so a reload or a shared link shows the same. */
export interface RangeSelection {
  mode: RangeMode;
  date: string;
  from: string;
  to: string;
  /** Null: chosen from the span (15 min up to 3 days, 1 h up to 62 days, else 24 h). */
  interval: ChartInterval | null;
  view: PhaseView;
  compare: ComparePeriod;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY = 86_400_000;
const HOUR = 3_600_000;

function dayStart(date: string, tz: string): number {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number);
  return zonedTimeToUtc(tz, y, m, d);
}

/** The selection a URL's search params describe (defaults: the last 24 hours, summary view). */
export function readSelection(search: URLSearchParams, now: number, tz: string): RangeSelection {
  const today = localDate(now, tz);
  const valid = (s: string | null) => (s && DATE.test(s) && Number.isFinite(dayStart(s, tz)) ? s : null);
  const from = valid(search.get('from'));
  const to = valid(search.get('to'));
  const date = valid(search.get('date'));
  const interval = search.get('interval');
  const view = search.get('view');
  const compare = search.get('compare') as ComparePeriod | null;
  return {
    mode: from && to ? 'days' : date ? 'day' : 'recent',
    date: date ?? today,
    from: from ?? localDate(addLocalDays(dayStart(today, tz), -6, tz), tz),
    to: to ?? today,
    interval: (CHART_INTERVALS as readonly string[]).includes(interval ?? '') ? (interval as ChartInterval) : null,
    view: view === '1' || view === '2' || view === '3' ? (Number(view) as 1 | 2 | 3) : 'summary',
    compare: compare && COMPARE.includes(compare) ? compare : 'none',
  };
}

/** The search params of a selection (defaults left out). */
export function writeSelection(sel: RangeSelection): URLSearchParams {
  const q = new URLSearchParams();
  if (sel.mode === 'day') q.set('date', sel.date);
  else if (sel.mode === 'days') {
    q.set('from', sel.from);
    q.set('to', sel.to);
  }
  if (sel.interval) q.set('interval', sel.interval);
  if (sel.view !== 'summary') q.set('view', String(sel.view));
  if (sel.compare !== 'none') q.set('compare', sel.compare);
  return q;
}

/** The interval used when the user has not picked one: enough buckets to read, not too many to draw. */
export function autoInterval(spanMs: number): ChartInterval {
  if (spanMs <= 3 * DAY) return '15m';
  if (spanMs <= 62 * DAY) return '1h';
  return '24h';
}

/** The range the charts ask for, with what the page says about it. */
export interface ResolvedRange extends ChartRange {
  /** The interval cannot cover the range (the server would refuse it). */
  tooLong: boolean;
  /** The end is before the start. */
  reversed: boolean;
  /**
   * The last 24 hours held no reading: the range is the 24 hours up to the device's last reading
   * instead (an offline device opens on its data, not on an empty day).
   */
  shifted: boolean;
}

/**
 * The range the charts ask for. The last 24 hours end at the next full hour, so the readings of the
 * coming minutes land in it (the page moves the window on when the hour is over) and its 15-minute
 * buckets are whole; when the device's last reading (`lastReading`, epoch ms) is older than the window,
 * the window ends after it instead. The simple chart is the start date plus 24 hours; a date range runs
 * from the start of its first local day to the end of its last. `tooLong` when the interval cannot
 * cover it.
 */
export function rangeOf(sel: RangeSelection, tz: string, now = Date.now(), lastReading: number | null = null): ResolvedRange {
  let from: number;
  let to: number;
  let shifted = false;
  if (sel.mode === 'recent') {
    to = Math.floor(now / HOUR) * HOUR + HOUR;
    if (lastReading !== null && lastReading < to - DAY) {
      to = Math.floor(lastReading / HOUR) * HOUR + HOUR;
      shifted = true;
    }
    from = to - DAY;
  } else if (sel.mode === 'day') {
    from = dayStart(sel.date, tz);
    to = from + DAY;
  } else {
    from = dayStart(sel.from, tz);
    to = addLocalDays(dayStart(sel.to, tz), 1, tz);
  }
  const reversed = to <= from;
  const interval = sel.interval ?? autoInterval(to - from);
  return {
    from,
    to: reversed ? from + DAY : to,
    interval,
    tooLong: !reversed && to - from > MAX_RANGE_MS[interval],
    reversed,
    shifted,
  };
}

/** Quick ranges, in the order the range menu offers them. */
export const PRESETS = ['last24h', 'today', 'yesterday', 'last7', 'last30', 'thisYear', 'last365'] as const;
export type Preset = (typeof PRESETS)[number];

/** The selection of a quick range (the interval goes back to automatic). */
export function presetSelection(p: Preset, sel: RangeSelection, now: number, tz: string): RangeSelection {
  const today = localDate(now, tz);
  const start = dayStart(today, tz);
  const back = (n: number) => localDate(addLocalDays(start, -n, tz), tz);
  switch (p) {
    case 'last24h':
      return { ...sel, mode: 'recent', interval: null };
    case 'today':
      return { ...sel, mode: 'day', date: today, interval: null };
    case 'yesterday':
      return { ...sel, mode: 'day', date: back(1), interval: null };
    case 'last7':
      return { ...sel, mode: 'days', from: back(6), to: today, interval: null };
    case 'last30':
      return { ...sel, mode: 'days', from: back(29), to: today, interval: null };
    case 'thisYear':
      return { ...sel, mode: 'days', from: `${today.slice(0, 4)}-01-01`, to: today, interval: null };
    default:
      return { ...sel, mode: 'days', from: back(364), to: today, interval: null };
  }
}

/** The quick range a selection is, if it is one (the range menu shows it as the active choice). */
export function activePreset(sel: RangeSelection, now: number, tz: string): Preset | null {
  for (const p of PRESETS) {
    const q = presetSelection(p, sel, now, tz);
    if (q.mode !== sel.mode) continue;
    if (sel.mode === 'recent' || (sel.mode === 'day' ? q.date === sel.date : q.from === sel.from && q.to === sel.to)) return p;
  }
  return null;
}
