import { describe, expect, it } from 'vitest';
import { lastDayBefore, longDate } from './price-dates';

describe('price list dates', () => {
  it('say the last day of a list in words: until 30 June 2026 when the next starts on 1 July', () => {
    expect(lastDayBefore('2026-07-01', 'en-GB')).toBe('30 June 2026');
    expect(lastDayBefore('2026-07-01', 'pl')).toBe('30 czerwca 2026');
    expect(lastDayBefore('2026-07-01', 'tr')).toBe('30 Haziran 2026');
    expect(lastDayBefore('2026-03-01', 'en-GB')).toBe('28 February 2026');
    expect(lastDayBefore('', 'en')).toBeUndefined();
    expect(longDate('2026-01-01', 'en-GB')).toBe('1 January 2026');
    expect(longDate('2026-1', 'en')).toBe('2026-1');
  });
});
