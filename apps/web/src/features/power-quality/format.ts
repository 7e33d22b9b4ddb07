import type { PqVerdict } from '@phasewatch/shared';
import { dateTimeFormat, numberFormat } from '@/lib/intl';

export const PHASE_COLORS = ['#1c7ed6', '#2f9e44', '#ae3ec9'] as const;
export const phaseColor = (phase: number): string => PHASE_COLORS[(phase - 1) % 3] as string;

export const VERDICT_COLORS: Record<PqVerdict, string> = { pass: 'green.9', fail: 'red.9', 'not-assessable': 'gray.7' };

/** Volts with one decimal in the language's format. */
export const formatVolts = (v: number | null, lng: string): string =>
  v === null ? '–' : `${numberFormat(lng, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v)} V`;

export const formatPercent = (share: number, lng: string, digits = 1): string =>
  numberFormat(lng, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(share);

/** A local date and time of the report's zone. */
export const formatTime = (ms: number, lng: string, tz: string): string =>
  dateTimeFormat(lng, { timeZone: tz, dateStyle: 'medium', timeStyle: 'short' }).format(ms);

export const formatDay = (ms: number, lng: string, tz: string): string =>
  dateTimeFormat(lng, { timeZone: tz, weekday: 'short', day: 'numeric', month: 'short' }).format(ms);

/** A duration in seconds as `1 min 30 s` / `2 h 5 min`. */
export function formatDuration(s: number, lng: string): string {
  const nf = numberFormat(lng);
  if (s < 60) return `${nf.format(s)} s`;
  if (s < 3600) return s % 60 ? `${nf.format(Math.floor(s / 60))} min ${nf.format(s % 60)} s` : `${nf.format(s / 60)} min`;
  const m = Math.round((s % 3600) / 60);
  return m ? `${nf.format(Math.floor(s / 3600))} h ${nf.format(m)} min` : `${nf.format(Math.floor(s / 3600))} h`;
}

/** `YYYY-MM-DD` of a date `n` days after another (calendar arithmetic in UTC). */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}
