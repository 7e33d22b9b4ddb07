import { describe, expect, it } from 'vitest';
import { decimalSeparatorOf, numberOfText } from './number-input';
import { timeAgo } from './relative-time';

describe('ages of readings', () => {
  const now = Date.UTC(2026, 10, 27, 12);
  it('read in whole units, in the language', () => {
    expect(timeAgo(now - 3_400, now, 'en')).toBe('3 seconds ago');
    expect(timeAgo(now - 3_400, now, 'en', 'short')).toBe('3 sec. ago');
    expect(timeAgo(now - 5 * 60_000 - 59_000, now, 'pl')).toBe('5 minut temu');
    expect(timeAgo(now - 2 * 3_600_000, now, 'tr')).toBe('2 saat önce');
    expect(timeAgo(now - 3 * 86_400_000, now, 'en')).toBe('3 days ago');
  });

  it('say "now" under a second and for a device clock slightly ahead', () => {
    expect(timeAgo(now - 400, now, 'en')).toBe('now');
    expect(timeAgo(now + 2_000, now, 'pl')).toBe('teraz');
  });
});

describe('number fields', () => {
  it('stand for the number their text is, NaN when it is none', () => {
    expect(numberOfText(12.5)).toBe(12.5);
    expect(numberOfText('1.')).toBe(1);
    expect(numberOfText('-5')).toBe(-5);
    for (const text of ['', ' ', '-', '.', '1e3', '1,5', 'abc']) expect(numberOfText(text), text).toBeNaN();
  });

  it('read decimals with the separator of the language', () => {
    expect(decimalSeparatorOf('en')).toBe('.');
    expect(decimalSeparatorOf('pl')).toBe(',');
    expect(decimalSeparatorOf('tr')).toBe(',');
  });
});
