import { describe, expect, it } from 'vitest';
import { monthLabel } from './month-label';

describe('monthLabel', () => {
  it('writes a month the language’s way, not as YYYY-MM', () => {
    expect(monthLabel('2025-06', 'en')).toBe('Jun 2025');
    expect(monthLabel('2025-06', 'pl')).toMatch(/^cze 2025/);
    expect(monthLabel('2025-06', 'tr')).toMatch(/^Haz 2025$/);
    expect(monthLabel('2025-12', 'en')).toBe('Dec 2025');
  });
  it('leaves what is not a month as it is', () => {
    expect(monthLabel('2025', 'en')).toBe('2025');
  });
});
