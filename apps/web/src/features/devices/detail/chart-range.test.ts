import { describe, expect, it } from 'vitest';
import { activePreset, autoInterval, presetSelection, rangeOf, readSelection, writeSelection } from './chart-range';

const TZ = 'Europe/Warsaw';
// 26 Nov 2026, 10:00 UTC = 11:00 in Warsaw.
const NOW = Date.UTC(2026, 10, 26, 10);
const DAY = 86_400_000;

describe('chart range', () => {
  it('defaults to the last 24 hours, up to the next full hour, in 15-minute buckets', () => {
    const sel = readSelection(new URLSearchParams(), NOW, TZ);
    expect(sel).toMatchObject({ mode: 'recent', view: 'summary', compare: 'none', interval: null });
    const r = rangeOf(sel, TZ, NOW + 25 * 60_000);
    expect(r.to).toBe(Date.UTC(2026, 10, 26, 11));
    expect(r.to - r.from).toBe(DAY);
    expect(r).toMatchObject({ interval: '15m', shifted: false, tooLong: false, reversed: false });
    expect(writeSelection(sel).toString()).toBe('');
    // A reading in the window keeps it; none in it moves it to the 24 hours up to the last reading.
    expect(rangeOf(sel, TZ, NOW, NOW - 20 * 3_600_000).shifted).toBe(false);
    const quiet = rangeOf(sel, TZ, NOW, Date.UTC(2026, 10, 20, 7, 42));
    expect(quiet).toMatchObject({ shifted: true, to: Date.UTC(2026, 10, 20, 8), from: Date.UTC(2026, 10, 19, 8) });
  });

  it('keeps the simple chart of spec section 9: a local start date plus 24 hours', () => {
    const sel = readSelection(new URLSearchParams('date=2026-11-26'), NOW, TZ);
    expect(sel).toMatchObject({ mode: 'day', date: '2026-11-26' });
    const r = rangeOf(sel, TZ, NOW);
    expect(r.from).toBe(Date.UTC(2026, 10, 25, 23));
    expect(r.to - r.from).toBe(DAY);
    expect(r.interval).toBe('15m');
  });

  it('runs a date range over whole local days, across a DST change, with an interval chosen from its length', () => {
    const sel = readSelection(new URLSearchParams('from=2026-10-24&to=2026-10-25'), NOW, TZ);
    const r = rangeOf(sel, TZ);
    expect(sel.mode).toBe('days');
    // 24 Oct 00:00 CEST to 26 Oct 00:00 CET: 49 hours.
    expect(r.to - r.from).toBe(49 * 3_600_000);
    expect(r.interval).toBe('15m');
    expect(autoInterval(10 * DAY)).toBe('1h');
    expect(autoInterval(365 * DAY)).toBe('24h');
  });

  it('says when the interval cannot cover the range, or the range is reversed', () => {
    expect(rangeOf(readSelection(new URLSearchParams('from=2020-01-01&to=2026-11-26&interval=15m'), NOW, TZ), TZ).tooLong).toBe(true);
    expect(rangeOf(readSelection(new URLSearchParams('from=2025-11-27&to=2026-11-26&interval=15m'), NOW, TZ), TZ).tooLong).toBe(false);
    expect(rangeOf(readSelection(new URLSearchParams('from=2026-11-26&to=2026-11-20'), NOW, TZ), TZ).reversed).toBe(true);
  });

  it('keeps the selection in the URL, ignoring what it does not know', () => {
    const sel = readSelection(new URLSearchParams('from=2026-11-01&to=2026-11-07&interval=1h&view=2&compare=week'), NOW, TZ);
    expect(writeSelection(sel).toString()).toBe('from=2026-11-01&to=2026-11-07&interval=1h&view=2&compare=week');
    const odd = readSelection(new URLSearchParams('date=nonsense&interval=5m&view=7&compare=month'), NOW, TZ);
    expect(odd).toMatchObject({ date: '2026-11-26', interval: null, view: 'summary', compare: 'none' });
  });

  it('offers quick ranges and names the active one', () => {
    const sel = readSelection(new URLSearchParams(), NOW, TZ);
    expect(activePreset(sel, NOW, TZ)).toBe('last24h');
    const yesterday = presetSelection('yesterday', sel, NOW, TZ);
    expect(yesterday).toMatchObject({ mode: 'day', date: '2026-11-25' });
    expect(activePreset(yesterday, NOW, TZ)).toBe('yesterday');
    expect(activePreset(presetSelection('today', sel, NOW, TZ), NOW, TZ)).toBe('today');
    const week = presetSelection('last7', sel, NOW, TZ);
    expect(week).toMatchObject({ mode: 'days', from: '2026-11-20', to: '2026-11-26' });
    expect(activePreset(week, NOW, TZ)).toBe('last7');
    expect(presetSelection('thisYear', sel, NOW, TZ)).toMatchObject({ from: '2026-01-01', to: '2026-11-26' });
    expect(activePreset({ ...week, from: '2026-11-19' }, NOW, TZ)).toBeNull();
    expect(activePreset({ ...yesterday, date: '2026-11-02' }, NOW, TZ)).toBeNull();
    // A day later the same link is no longer "yesterday".
    expect(activePreset(yesterday, NOW + DAY, TZ)).toBeNull();
    const year = rangeOf(presetSelection('last365', sel, NOW, TZ), TZ);
    expect(year.interval).toBe('24h');
    expect(year.tooLong).toBe(false);
    expect(presetSelection('last24h', week, NOW, TZ)).toMatchObject({ mode: 'recent', interval: null });
  });
});
