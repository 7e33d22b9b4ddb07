import { describe, expect, it } from 'vitest';
import { valueTickLabels } from './format';

describe('value axis labels', () => {
  it("keep the unit's digits while they differ", () => {
    expect(valueTickLabels([0, 500, 1000, 1500], 500, 'W', 'en')).toEqual(['0 W', '500 W', '1,000 W', '1,500 W']);
    expect(valueTickLabels([229, 230, 231], 1, 'V', 'pl')).toEqual(['229 V', '230 V', '231 V']);
  });

  it('take the digits of the step when labels would repeat (one reading: a range of ±1 around it)', () => {
    const labels = valueTickLabels([412, 412.5, 413, 413.5], 0.5, 'W', 'en');
    expect(labels).toEqual(['412.0 W', '412.5 W', '413.0 W', '413.5 W']);
    expect(new Set(labels).size).toBe(4);
    expect(valueTickLabels([0.25, 0.5, 0.75], 0.25, 'kWh', 'pl')).toEqual(['0,25 kWh', '0,5 kWh', '0,75 kWh']);
    expect(valueTickLabels([49.99, 49.995, 50], 0.005, 'Hz', 'tr')).toEqual(['49,990 Hz', '49,995 Hz', '50,000 Hz']);
  });
});
