import { describe, expect, it } from 'vitest';
import { isCountryCode, isValidTimezone, timezoneForCountry } from './timezone.js';

describe('timezoneForCountry', () => {
  it('derives the zone from the country', () => {
    expect(timezoneForCountry('PL')).toBe('Europe/Warsaw');
    expect(timezoneForCountry('tr')).toBe('Europe/Istanbul');
    expect(timezoneForCountry('GB')).toBe('Europe/London');
  });
  it('falls back to Europe/Warsaw', () => {
    expect(timezoneForCountry('')).toBe('Europe/Warsaw');
    expect(timezoneForCountry(null)).toBe('Europe/Warsaw');
    expect(timezoneForCountry('XX')).toBe('Europe/Warsaw');
  });
  it('validates codes and zones', () => {
    expect(isCountryCode('de')).toBe(true);
    expect(isCountryCode('ZZ')).toBe(false);
    expect(isValidTimezone('America/New_York')).toBe(true);
    expect(isValidTimezone('Mars/Olympus')).toBe(false);
  });
});
