import { describe, expect, it } from 'vitest';
import { holidayCheck, holidaysOf } from './holidays.js';

describe('statutory holidays (date-holidays)', () => {
  it('has Poland’s 24 December from 2025 on, and the movable feasts', () => {
    const pl = holidayCheck('PL');
    expect([pl('2024-12-24'), pl('2025-12-24'), pl('2026-12-24')]).toEqual([false, true, true]);
    // Easter Monday, Pentecost, Corpus Christi: 2025 and 2026 (§2 of the tariff note).
    expect(['2025-04-21', '2025-06-08', '2025-06-19', '2026-04-06', '2026-05-24', '2026-06-04'].map(pl)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['2026-06-03', '2026-06-05', '2026-12-23', '2026-12-27'].map(pl)).toEqual([false, false, false, false]);
    // Only days off by law: no observances (Mother's Day) or school days (Good Friday).
    expect(holidaysOf('PL', 2026).map((h) => h.date)).toEqual([
      '2026-01-01',
      '2026-01-06',
      '2026-04-05',
      '2026-04-06',
      '2026-05-01',
      '2026-05-03',
      '2026-05-24',
      '2026-06-04',
      '2026-08-15',
      '2026-11-01',
      '2026-11-11',
      '2026-12-24',
      '2026-12-25',
      '2026-12-26',
    ]);
    expect(holidaysOf('PL', 2026, 'pl').find((h) => h.date === '2026-06-04')?.name).toBe('Dzień Bożego Ciała');
    expect(holidaysOf('PL', 2026, 'en').find((h) => h.date === '2026-06-04')?.name).toBe('Corpus Christi');
  });

  it('gives every day of a Turkish bayram, not its half-day eve', () => {
    const tr = holidayCheck('TR');
    expect(['2026-05-26', '2026-05-27', '2026-05-28', '2026-05-29', '2026-05-30', '2026-05-31'].map(tr)).toEqual([
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(holidaysOf('TR', 2026, 'tr').some((h) => h.date === '2026-10-29')).toBe(true);
    expect(holidayCheck(null)('2026-01-01')).toBe(false);
  });
});
