import { describe, expect, it } from 'vitest';
import { formatQuantity } from './quantities';

describe('formatQuantity', () => {
  it('formats with units and per-unit digits in the locale', () => {
    expect(formatQuantity(1234.4, 'W', 'en')).toBe('1,234 W');
    expect(formatQuantity(12_345, 'W', 'en')).toBe('12.35 kW');
    expect(formatQuantity(230.06, 'V', 'en')).toBe('230.1 V');
    expect(formatQuantity(21.5, '°C', 'pl')).toBe('21,5 °C');
    expect(formatQuantity(0.987, '', 'en')).toBe('0.99');
  });
});
