import { COUNTRY_CODES, timezonesOfCountry } from '@phasewatch/shared';

/** Country options with names in the interface language, sorted by name. */
export function countryOptions(language: string): { value: string; label: string }[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([language], { type: 'region' });
  } catch {
    names = null;
  }
  return COUNTRY_CODES.map((code) => ({ value: code, label: names?.of(code) ?? code })).sort((a, b) =>
    a.label.localeCompare(b.label, language),
  );
}

/** The zones to offer for a country, always including the current choice. */
export function timezoneOptions(country: string, current: string): string[] {
  const zones = timezonesOfCountry(country);
  return current && !zones.includes(current) ? [current, ...zones] : zones;
}
