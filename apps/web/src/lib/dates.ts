import { SERVER_DATE_FORMAT } from '@phasewatch/shared';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { storedTimezone } from './auth-store';
import { dateTimeFormat } from './intl';
import { effectiveTimezone } from './timezone';

dayjs.extend(customParseFormat);
dayjs.extend(utc);
dayjs.extend(timezone);

export { effectiveTimezone } from './timezone';

/** Parses a server date (UTC `YYYY-MM-DD HH:mm:ss`); null when it is not one. */
export function parseServerDate(value: string): Date | null {
  const d = dayjs.utc(value, SERVER_DATE_FORMAT, true);
  return d.isValid() ? d.toDate() : null;
}

/** A server date as `YYYY-MM-DD HH:mm:ss` wall-clock time of the zone (the signed-in user's when not given). */
export function toZonedString(value: string, tz?: string | null, format = SERVER_DATE_FORMAT): string {
  const d = parseServerDate(value);
  if (!d) return value;
  return dayjs(d)
    .tz(effectiveTimezone(tz === undefined ? storedTimezone() : tz))
    .format(format);
}

/** A server date for people: the locale's date and time style, in the user's timezone (stored at sign-in). */
export function formatServerDate(
  value: string,
  opts: { timeZone?: string | null; locale?: string; dateStyle?: 'short' | 'medium' | 'long'; timeStyle?: 'short' | 'medium' } = {},
): string {
  const d = parseServerDate(value);
  if (!d) return value;
  return dateTimeFormat(opts.locale ?? 'en', {
    dateStyle: opts.dateStyle ?? 'medium',
    timeStyle: opts.timeStyle ?? 'short',
    timeZone: effectiveTimezone(opts.timeZone === undefined ? storedTimezone() : opts.timeZone),
  }).format(d);
}
