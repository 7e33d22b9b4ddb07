import { getAllCountries, getCountry } from 'countries-and-timezones';
import { FALLBACK_TIMEZONE } from '../constants.js';

/** ISO 3166-1 alpha-2 codes of every country we know a timezone for, sorted by code. */
export const COUNTRY_CODES: readonly string[] = Object.keys(getAllCountries()).sort();

/** True for an ISO 3166-1 alpha-2 code we know. */
export function isCountryCode(code: string): boolean {
  return getCountry(code.toUpperCase()) !== null;
}

/**
 * The timezone a user of this country gets by default: the country's first (most populous) zone,
 * or Europe/Warsaw when the country is unknown or has none.
 */
export function timezoneForCountry(country: string | null | undefined): string {
  if (!country) return FALLBACK_TIMEZONE;
  const c = getCountry(country.toUpperCase());
  return c?.timezones[0] ?? FALLBACK_TIMEZONE;
}

/** Timezones of a country (IANA names); empty for an unknown country. */
export function timezonesOfCountry(country: string): string[] {
  return getCountry(country.toUpperCase())?.timezones ?? [];
}

/** True when the runtime knows the IANA zone. */
export function isValidTimezone(tz: string): boolean {
  return canonicalTimezone(tz) !== null;
}

/**
 * The canonical IANA name of a zone the runtime knows (`europe/WARSAW` → `Europe/Warsaw`, `US/Pacific`
 * → `America/Los_Angeles`), or null for an unknown one. Zones are stored by this name, so every
 * spelling of one zone is one value (caches keyed by zone stay as small as the zone list).
 */
export function canonicalTimezone(tz: string): string | null {
  // Names are short ASCII; anything else is no zone (and is not handed to Intl).
  if (tz.length === 0 || tz.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(tz)) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
