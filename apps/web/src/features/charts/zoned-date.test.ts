import uPlot from 'uplot';
import { describe, expect, it } from 'vitest';
import { zonedDate } from './zoned-date';

describe('zonedDate (the charts’ tzDate)', () => {
  // uPlot's own helper is the reference: the same wall-clock fields, across DST changes and odd offsets.
  it.each(['Europe/Warsaw', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'])('matches uPlot.tzDate in %s', (tz) => {
    const f = zonedDate(tz);
    const start = Date.UTC(2025, 0, 1);
    const wrong: string[] = [];
    for (let ts = start; ts < start + 2 * 365 * 86_400_000; ts += 157 * 60_000 + 13_000) {
      if (f(ts).getTime() !== uPlot.tzDate(new Date(ts), tz).getTime()) wrong.push(new Date(ts).toISOString());
    }
    expect(wrong).toEqual([]);
  });
});
