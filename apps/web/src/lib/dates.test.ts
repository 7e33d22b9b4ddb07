import { describe, expect, it } from 'vitest';
import { effectiveTimezone, formatServerDate, parseServerDate, toZonedString } from './dates';

describe('server dates in the user timezone', () => {
  it('parses the UTC server format and rejects anything else', () => {
    expect(parseServerDate('2024-01-15 12:00:00')?.toISOString()).toBe('2024-01-15T12:00:00.000Z');
    expect(parseServerDate('2024-01-15T12:00:00Z')).toBeNull();
    expect(parseServerDate('yesterday')).toBeNull();
  });

  it('shifts to the zone, including daylight saving time', () => {
    expect(toZonedString('2024-01-15 12:00:00', 'Europe/Warsaw')).toBe('2024-01-15 13:00:00');
    expect(toZonedString('2024-07-01 12:00:00', 'Europe/Warsaw')).toBe('2024-07-01 14:00:00');
    expect(toZonedString('2024-07-01 12:00:00', 'Europe/Istanbul')).toBe('2024-07-01 15:00:00');
    expect(toZonedString('2024-07-01 02:30:00', 'America/New_York')).toBe('2024-06-30 22:30:00');
  });

  it('falls back to Europe/Warsaw for a missing or unknown zone', () => {
    expect(effectiveTimezone(undefined)).toBe('Europe/Warsaw');
    expect(effectiveTimezone('Mars/Olympus')).toBe('Europe/Warsaw');
    expect(toZonedString('2024-01-15 23:30:00', null)).toBe('2024-01-16 00:30:00');
  });

  it('uses the timezone stored at sign-in when none is given', () => {
    expect(toZonedString('2024-07-01 12:00:00')).toBe('2024-07-01 14:00:00');
    window.localStorage.setItem('phasewatch.timezone', 'Asia/Tokyo');
    expect(toZonedString('2024-07-01 12:00:00')).toBe('2024-07-01 21:00:00');
  });

  it('formats for people in the locale and zone', () => {
    expect(formatServerDate('2024-01-15 12:00:00', { timeZone: 'Europe/Istanbul', locale: 'en-GB', dateStyle: 'short' })).toBe(
      '15/01/2024, 15:00',
    );
    expect(formatServerDate('not a date')).toBe('not a date');
  });
});
