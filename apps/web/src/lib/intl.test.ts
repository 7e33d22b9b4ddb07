import { describe, expect, it } from 'vitest';
import { dateTimeFormat, numberFormat } from './intl';

describe('kept Intl formatters', () => {
  it('gives the same formatter for the same locale and options, another for others', () => {
    const a = numberFormat('pl', { maximumFractionDigits: 2 });
    expect(numberFormat('pl', { maximumFractionDigits: 2 })).toBe(a);
    expect(numberFormat('en', { maximumFractionDigits: 2 })).not.toBe(a);
    expect(numberFormat('pl', { maximumFractionDigits: 1 })).not.toBe(a);
    expect(a.format(1234.567)).toBe(new Intl.NumberFormat('pl', { maximumFractionDigits: 2 }).format(1234.567));
  });

  it('formats dates in the zone it was asked for', () => {
    const f = dateTimeFormat('en', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    expect(dateTimeFormat('en', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })).toBe(f);
    expect(f.format(Date.UTC(2026, 0, 1, 0, 30))).toBe('09:30');
    expect(
      dateTimeFormat('en', { timeZone: 'Europe/Warsaw', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
        Date.UTC(2026, 0, 1, 0, 30),
      ),
    ).toBe('01:30');
  });
});
