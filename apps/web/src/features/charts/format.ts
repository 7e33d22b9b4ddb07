import type { ReadingInterval } from '@phasewatch/shared';
import { dateTimeFormat, numberFormat } from '@/lib/intl';
import { formatQuantity } from '@/lib/quantities';

/** A chart value with its unit: energy per interval keeps up to three decimals (a 15-minute step is small). */
export function formatChartValue(v: number, unit: string, locale: string): string {
  if (unit === 'kWh' || unit === 'kvarh') {
    return `${numberFormat(locale, { maximumFractionDigits: 3 }).format(v)} ${unit}`;
  }
  if (unit === '') return numberFormat(locale, { maximumFractionDigits: 3 }).format(v);
  return formatQuantity(v, unit, locale);
}

/** A bucket's start for people, in the user's zone: a date for daily buckets, date and time otherwise. */
export function bucketFormatter(interval: ReadingInterval, locale: string, timeZone: string): (ts: number) => string {
  const f =
    interval === '24h'
      ? dateTimeFormat(locale, { timeZone, weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' })
      : dateTimeFormat(locale, { timeZone, year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  return (ts) => f.format(ts);
}

/** Fraction digits of an axis step (uPlot's steps are 1, 2, 2.5 and 5 times a power of ten). */
function stepDigits(step: number): number {
  const frac = String(Number(step.toPrecision(6))).split('.')[1];
  return Math.min(6, frac?.length ?? 0);
}

/**
 * Labels of a value axis' ticks: each in the unit's usual digits, unless two would read the same (a
 * narrow range, e.g. one reading: "413 W, 413 W, 412 W"); then every label gets the digits of the
 * step between ticks ("412.5 W", "413.0 W").
 */
export function valueTickLabels(ticks: readonly number[], step: number, unit: string, locale: string): string[] {
  const labels = ticks.map((v) => formatChartValue(v, unit, locale));
  if (new Set(labels).size === labels.length) return labels;
  const d = stepDigits(step);
  const f = numberFormat(locale, { minimumFractionDigits: d, maximumFractionDigits: d });
  return ticks.map((v) => (unit ? `${f.format(v)} ${unit}` : f.format(v)));
}
