import { FALLBACK_TIMEZONE, isValidTimezone } from '@phasewatch/shared';

/*
 * A module of its own (no dayjs): the dashboard shows readings' times and ages without the date
 * parsing of ./dates in its first chunk.
 */

const knownZones = new Map<string, boolean>();

/**
 * The zone to show dates in: the given one when the runtime knows it, else the spec's fallback. Asked on
 * every render of a dated component; the runtime's answer (a new Intl.DateTimeFormat each time) is kept.
 */
export function effectiveTimezone(tz: string | null | undefined): string {
  if (!tz) return FALLBACK_TIMEZONE;
  let known = knownZones.get(tz);
  if (known === undefined) {
    known = isValidTimezone(tz);
    if (knownZones.size < 64) knownZones.set(tz, known);
  }
  return known ? tz : FALLBACK_TIMEZONE;
}
