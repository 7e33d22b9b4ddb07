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

// Zone names need no country data: a module of their own, so code that only checks zones (the web app's
// first chunk) does not carry the country table.
export { canonicalTimezone, isValidTimezone } from './zones.js';
