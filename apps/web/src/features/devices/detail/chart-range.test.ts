import { describe, expect, it } from 'vitest';
import { autoInterval, presetSelection, rangeOf, readSelection, writeSelection } from './chart-range';

const TZ = 'Europe/Warsaw';
// 26 Nov 2026, 10:00 UTC = 11:00 in Warsaw.
const NOW = Date.UTC(2026, 10, 26, 10);
const DAY = 86_400_000;

describe('chart range', () => {
  it('defaults to the simple chart of today: the local start date plus 24 hours, 15-minute buckets', () => {
    const sel = readSelection(new URLSearchParams(), NOW, TZ);
    expect(sel).toMatchObject({ simple: true, date: '2026-11-26', view: 'summary', compare: 'none', interval: null });
    const r = rangeOf(sel, TZ);
    expect(r.from).toBe(Date.UTC(2026, 10, 25, 23));
    expect(r.to - r.from).toBe(DAY);
    expect(r.interval).toBe('15m');
  });

  it('runs a date range over whole local days, across a DST change, with an interval chosen from its length', () => {
    const sel = readSelection(new URLSearchParams('from=2026-10-24&to=2026-10-25'), NOW, TZ);
    const r = rangeOf(sel, TZ);
    expect(sel.simple).toBe(false);
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

  it('offers quick ranges', () => {
    const sel = readSelection(new URLSearchParams(), NOW, TZ);
    expect(presetSelection('yesterday', sel, NOW, TZ)).toMatchObject({ simple: true, date: '2026-11-25' });
    expect(presetSelection('last7', sel, NOW, TZ)).toMatchObject({ simple: false, from: '2026-11-20', to: '2026-11-26' });
    expect(presetSelection('thisYear', sel, NOW, TZ)).toMatchObject({ from: '2026-01-01', to: '2026-11-26' });
    const year = rangeOf(presetSelection('last365', sel, NOW, TZ), TZ);
    expect(year.interval).toBe('24h');
    expect(year.tooLong).toBe(false);
  });
});
