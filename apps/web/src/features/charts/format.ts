import type { ReadingInterval } from '@phasewatch/shared';
import { formatQuantity } from '@/features/devices/live-values';
import { dateTimeFormat, numberFormat } from '@/lib/intl';

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
